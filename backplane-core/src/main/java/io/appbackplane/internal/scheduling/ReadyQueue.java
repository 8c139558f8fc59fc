package io.appbackplane.internal.scheduling;

import io.appbackplane.internal.objects.ReadyEntry;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One priority's ready queue: a lock-free FIFO of {@link ReadyEntry}s for any number of pushing
 * and polling threads, linked through the entries themselves (the Michael–Scott queue with the
 * entry as its node). A {@code ConcurrentLinkedQueue} would allocate a node per push and make a
 * worker follow one more pointer, to another cache line, per poll; a push happens on every turn.
 *
 * <h2>Invariants</h2>
 * {@code head} is a dummy: the entries queued are those after it, in push order. {@code tail} is
 * the last entry or lags it by one link while a push is half done (anyone who sees the lag swings
 * it forward). A polled entry becomes the new dummy, so it stays linked until the next poll; that
 * is safe because an entry is pushed at most once in its life and its fields never change (an
 * object becoming READY again gets a new entry), so no node is ever reused (no ABA). {@code tail}
 * never falls behind {@code head}: a poll that finds them equal moves the tail first.
 *
 * <p>A dummy that {@code head} has left links to itself ({@link ReadyEntry#unlink}), as in {@code
 * ConcurrentLinkedQueue}: otherwise a dead entry that had reached the old generation would keep
 * every entry pushed after it reachable until an old-generation collection. A thread that read the
 * old dummy as head or tail before it left sees a non-null next, fails its CAS on head or tail
 * (which have moved on) and starts again from the fields; no one follows a self-link.
 */
final class ReadyQueue {

    private static final VarHandle HEAD;
    private static final VarHandle TAIL;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            HEAD = lookup.findVarHandle(ReadyQueue.class, "head", ReadyEntry.class);
            TAIL = lookup.findVarHandle(ReadyQueue.class, "tail", ReadyEntry.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @SuppressWarnings("unused") // accessed through HEAD
    private volatile ReadyEntry head;
    @SuppressWarnings("unused") // accessed through TAIL
    private volatile ReadyEntry tail;

    ReadyQueue() {
        ReadyEntry dummy = new ReadyEntry(null, -1);
        head = dummy;
        tail = dummy;
    }

    /** Appends {@code entry}, which must never have been pushed before. */
    void push(ReadyEntry entry) {
        while (true) {
            ReadyEntry last = tail;
            ReadyEntry next = last.next();
            if (next == null) {
                if (last.casNext(null, entry)) {
                    TAIL.compareAndSet(this, last, entry); // may fail: someone already helped
                    return;
                }
            } else {
                TAIL.compareAndSet(this, last, next); // help a half-done push, then retry
            }
        }
    }

    /** Removes and returns the oldest entry, or null if there is none. */
    ReadyEntry poll() {
        while (true) {
            ReadyEntry first = head;
            ReadyEntry next = first.next();
            if (next == null) {
                return null;
            }
            ReadyEntry last = tail;
            if (first == last) {
                TAIL.compareAndSet(this, last, next); // tail lags behind a half-done push: help it
            }
            if (HEAD.compareAndSet(this, first, next)) {
                first.unlink();
                return next; // the new dummy (see the class comment)
            }
        }
    }

    /**
     * Removes dead entries from the head of the queue until the head is a live entry or the queue
     * is empty (see {@link ReadyEntry}). Only an entry seen dead is removed, and a dead entry never
     * becomes live again, so a valid entry pushed concurrently is never lost; a racing poll or purge
     * makes the CAS fail, and the loop looks again.
     */
    void purgeDeadHead() {
        while (true) {
            ReadyEntry first = head;
            ReadyEntry next = first.next();
            if (next == first) {
                continue; // first left the queue (self-linked) after we read head: read it again
            }
            if (next == null || !next.isDead()) {
                return; // empty, or a live head
            }
            ReadyEntry last = tail;
            if (first == last) {
                TAIL.compareAndSet(this, last, next); // tail lags behind a half-done push: help it
            }
            if (HEAD.compareAndSet(this, first, next)) {
                first.unlink();
                next.forget(); // already null; the new dummy keeps nothing
            }
        }
    }

    /** Whether no entry is queued (a moment-old answer while others push and poll). */
    boolean isEmpty() {
        return head.next() == null;
    }
}
