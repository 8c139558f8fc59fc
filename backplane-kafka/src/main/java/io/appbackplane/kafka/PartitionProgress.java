package io.appbackplane.kafka;

import java.util.ArrayDeque;
import java.util.BitSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * The records of one partition, in offset order, from the moment they are received until they are
 * committed: it lets the offset advance only up to the first record that is not done.
 *
 * <p>Threads: {@link #received} and {@link #admit} are called by the partition's consumer thread, in offset order;
 * {@link #start} and {@link #done} by any thread (backplane workers, the dead-letter publisher);
 * {@link #closeAfter} and {@link #close} by the consumer thread on revocation or loss. Every method holds one lock; {@code commit} callbacks run
 * under it, so once {@link #closeAfter} returns no commit for this assignment can follow.
 *
 * <p>Invariants (under the lock): {@code received = committedCount + window.size()}; the window's
 * first entry is not done (every done prefix has been handed to {@code commit}); {@code inFlight =}
 * number of window entries neither done nor withdrawn; {@code running =} number of window entries started and not done;
 * {@code doneInWindow =} number of window entries done (behind the first one that is not).
 * Once closed, no entry starts and none is committed: a record queued in the backplane when its
 * partition moved on never runs here (the new owner runs it), only one already running may overlap.
 *
 * <p>The window is bounded: {@link #admit} takes no record while {@code window.size() >= limit}, and
 * then reports the partition full ({@code onFull}); once the window has fallen to {@code resumeAt},
 * {@link #done} reports room again ({@code onRoom}). Both callbacks run under the lock, so a full
 * and the room that ends it are reported in that order, each once.
 */
final class PartitionProgress {

    /** One received record; {@code done} flips once, under the lock. */
    static final class Entry {
        final long offset;
        /** What the commit callback needs for this record (spring-kafka's {@code Acknowledgment}). */
        final Object token;
        boolean started;
        boolean done;
        /** Given up here without running (held back when its partition moved on): never starts, never commits. */
        boolean withdrawn;

        Entry(long offset, Object token) {
            this.offset = offset;
            this.token = token;
        }
    }

    /**
     * Offsets above the committed one that commit metadata may name: bounds the bitset built for each
     * commit (completed offsets beyond it are not named, and run again after a hand-over).
     */
    static final int MAX_DESCRIBED_SPAN = 1 << 22;

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition drained = lock.newCondition();
    private final ArrayDeque<Entry> window = new ArrayDeque<>();
    private final Consumer<Entry> commit;
    private final int limit;
    private final int resumeAt;
    private final Runnable onFull;
    private final Runnable onRoom;
    private long received;
    private long committedCount;
    private long nextOffset = -1;
    private long lastCommitted = -1;
    private int inFlight;
    private int running;
    private int doneInWindow;
    private boolean closed;
    /** The window reached {@code limit} and has not fallen to {@code resumeAt} since. */
    private boolean full;
    private long fulls;
    /** Completed by an earlier owner (from the commit metadata): done here without running. */
    private CompletedOffsets inherited = CompletedOffsets.NONE;
    private long skipped;
    /** Something completed beyond the first unfinished record since the last {@link #commitMetadata}. */
    private boolean completedBeyondGap;

    /**
     * @param commit called with the last entry of a newly done prefix (the offset to commit is its
     *     offset plus one); runs under the lock, so it must only hand the offset on (spring-kafka's
     *     {@code Acknowledgment.acknowledge()} from a foreign thread just queues it for the consumer thread)
     */
    PartitionProgress(Consumer<Entry> commit) {
        this(commit, Integer.MAX_VALUE, Integer.MAX_VALUE, () -> {}, () -> {});
    }

    /**
     * @param limit records received and not committed that {@link #admit} takes at most (1 or more)
     * @param resumeAt once full, the window size at or below which {@code onRoom} is called (below {@code limit})
     * @param onFull called (under the lock) when {@link #admit} first refuses a record; must not block
     * @param onRoom called (under the lock) when a full window falls to {@code resumeAt}; must not block
     */
    PartitionProgress(Consumer<Entry> commit, int limit, int resumeAt, Runnable onFull, Runnable onRoom) {
        if (limit < 1 || resumeAt < 0 || resumeAt >= limit && limit != Integer.MAX_VALUE) {
            throw new IllegalArgumentException("window limit " + limit + ", resume at " + resumeAt
                    + "; allowed: limit 1 or more, resume at 0 up to but excluding the limit");
        }
        this.commit = commit;
        this.limit = limit;
        this.resumeAt = resumeAt;
        this.onFull = onFull;
        this.onRoom = onRoom;
    }

    /**
     * Offsets an earlier owner of the partition completed beyond its committed offset (read from the
     * commit metadata at assignment): {@link #admit} marks them done without running them. Called
     * before the first record.
     */
    void inherit(CompletedOffsets completed) {
        lock.lock();
        try {
            inherited = completed;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Registers the next record of the partition if the window has room, as {@link #received} does;
     * an offset an earlier owner completed ({@link #inherit}) is registered done, and must not run.
     *
     * @return its entry ({@code done} already for an offset completed before), or null if the window
     *     is full: the record is not registered, and the caller reads it again once there is room
     */
    Entry admit(long offset, Object token) {
        lock.lock();
        try {
            if (window.size() >= limit) {
                if (!full) {
                    full = true;
                    fulls++;
                    onFull.run();
                }
                return null;
            }
            Entry entry = received(offset, token);
            if (inherited.contains(offset)) {
                skipped++;
                complete(entry);
            }
            return entry;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Registers the next record of the partition. {@code token} may be null for a record that was
     * never handed to the listener (it failed to deserialize): it is done like any other, and its
     * offset is committed with the next record that has a token.
     *
     * @throws IllegalStateException if {@code offset} is not above the previous one
     */
    Entry received(long offset, Object token) {
        lock.lock();
        try {
            if (offset <= nextOffset - 1) {
                throw new IllegalStateException("offset " + offset + " received after " + (nextOffset - 1));
            }
            nextOffset = offset + 1;
            Entry entry = new Entry(offset, token);
            window.addLast(entry);
            received++;
            inFlight++;
            return entry;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Claims {@code entry} for its run, at the start of its action: refused once the assignment is
     * closed (the partition was revoked or lost, so the new owner runs the record), which is how
     * records still queued in the backplane are cancelled. Calling it again for a started entry (a
     * retry of the same record) is allowed while open.
     *
     * @return whether the record may run
     */
    boolean start(Entry entry) {
        lock.lock();
        try {
            if (closed || entry.done || entry.withdrawn) {
                return false;
            }
            if (!entry.started) {
                entry.started = true;
                running++;
            }
            return true;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Gives up {@code entry} here: a record held back when its partition moved on (the new owner
     * runs it from the committed offset), or one whose dead-letter publish failed under the STOP
     * policy. It no longer counts as in flight (a hand-over does not wait for it), never starts
     * (again) and is never done, so no offset at or after it is committed for this assignment.
     *
     * @return whether it was withdrawn (false if it was done or withdrawn already)
     */
    boolean withdraw(Entry entry) {
        lock.lock();
        try {
            if (entry.done || entry.withdrawn) {
                return false;
            }
            entry.withdrawn = true;
            inFlight--;
            if (entry.started) {
                running--;
            }
            if (inFlight == 0) {
                drained.signalAll();
            }
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** The entry of a received offset still in the window, or null. */
    Entry entryFor(long offset) {
        lock.lock();
        try {
            for (Entry entry : window) {
                if (entry.offset == offset) {
                    return entry;
                }
            }
            return null;
        } finally {
            lock.unlock();
        }
    }

    /** Whether the assignment is still open (a retry checks before its next attempt). */
    boolean isOpen() {
        lock.lock();
        try {
            return !closed;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Marks {@code entry} done and commits the done prefix, if any. Ignored after {@link #closeAfter}
     * (the partition has moved on; the record will be redelivered to its new owner) and for an
     * entry already done.
     *
     * @return whether it counted (false once closed or for a repeat)
     */
    boolean done(Entry entry) {
        lock.lock();
        try {
            if (closed || entry.done || entry.withdrawn) {
                return false;
            }
            complete(entry);
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** Marks {@code entry} done and hands on the done prefix; with the lock held. */
    private void complete(Entry entry) {
        entry.done = true;
        inFlight--;
        if (entry.started) {
            running--;
        }
        doneInWindow++;
        Entry last = null;
        while (!window.isEmpty() && window.peekFirst().done) {
            Entry head = window.pollFirst();
            doneInWindow--;
            committedCount++;
            if (head.token != null) {
                last = head; // an entry without a token cannot commit; a later one will (see received)
            }
        }
        if (doneInWindow > 0) {
            completedBeyondGap = true;
        }
        if (last != null) {
            lastCommitted = last.offset;
            commit.accept(last);
        }
        if (full && window.size() <= resumeAt) {
            full = false;
            onRoom.run();
        }
        if (inFlight == 0) {
            drained.signalAll();
        }
    }

    /**
     * The offset below which everything received is done: the first record not done, or one past the
     * last received; {@code -1} before the first record.
     */
    long firstNotDone() {
        lock.lock();
        try {
            return window.isEmpty() ? nextOffset : window.peekFirst().offset;
        } finally {
            lock.unlock();
        }
    }

    /** Whether records completed beyond the first unfinished one since the last {@link #commitMetadata}. */
    boolean completedBeyondGap() {
        lock.lock();
        try {
            return completedBeyondGap;
        } finally {
            lock.unlock();
        }
    }

    /**
     * The metadata to commit with offset {@code offset}: every offset at or above it known to be
     * complete ({@link CompletedOffsets#encode}), at most {@code maxLength} characters. {@code offset}
     * is one this progress handed on for commit, or {@link #firstNotDone}: everything below the
     * window is done, so are the window's done entries, and so are the inherited offsets not
     * received yet.
     */
    String commitMetadata(long offset, int maxLength) {
        lock.lock();
        try {
            completedBeyondGap = false;
            if (maxLength <= 0 || offset < 0 || doneInWindow == 0 && inherited.isEmpty()) {
                return "";
            }
            long describable = MAX_DESCRIBED_SPAN;
            BitSet done = new BitSet();
            long head = window.isEmpty() ? nextOffset : window.peekFirst().offset;
            if (head > offset) {
                done.set(0, (int) Math.min(head - offset, describable)); // handed on since, not committed yet
            }
            for (Entry entry : window) {
                if (entry.done && entry.offset >= offset && entry.offset - offset < describable) {
                    done.set((int) (entry.offset - offset));
                }
            }
            long received = nextOffset;
            inherited.forEach(o -> {
                if (o >= received && o >= offset && o - offset < describable) {
                    done.set((int) (o - offset));
                }
            });
            return CompletedOffsets.encode(done, maxLength);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Waits up to {@code timeout} for every received record to be done, then closes: later {@link
     * #done} calls are ignored, so nothing more is committed for this assignment.
     *
     * @return how many records were still in flight when it closed (they will be delivered again)
     */
    int closeAfter(long timeout, TimeUnit unit) throws InterruptedException {
        lock.lock();
        try {
            long nanos = unit.toNanos(timeout);
            while (inFlight > 0 && nanos > 0) {
                nanos = drained.awaitNanos(nanos);
            }
            closed = true;
            return inFlight;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Closes at once, without waiting (a lost partition: no commit is possible any more, or an
     * interrupted revocation).
     *
     * @return the state at the close: its {@link Snapshot#running()} records may still run here while
     *     the new owner runs them again; the rest of {@link Snapshot#inFlight()} never start here
     */
    Snapshot close() {
        lock.lock();
        try {
            closed = true;
            return snapshot();
        } finally {
            lock.unlock();
        }
    }

    /** A consistent view, for metrics and checks. */
    Snapshot snapshot() {
        lock.lock();
        try {
            return new Snapshot(received, committedCount, inFlight, running, lastCommitted < 0 ? -1 : lastCommitted + 1, nextOffset, closed,
                    window.size(), full, fulls, skipped);
        } finally {
            lock.unlock();
        }
    }

    /**
     * @param received records received in this assignment
     * @param committed records whose offsets were handed on for commit
     * @param inFlight received and not done
     * @param running started and not done (the rest of inFlight is held back or queued in the backplane)
     * @param committedOffset the offset handed on for commit (the next record to read; {@code -1} before the first)
     * @param nextOffset one past the last received offset ({@code -1} before the first)
     * @param closed whether the assignment ended
     * @param uncommitted received and not committed: in flight, or done behind one that is not (at most the window's limit)
     * @param full whether the window is full (the partition is paused until it falls to its resume level)
     * @param fulls how many times the window filled up
     * @param skipped records done without running: an earlier owner had completed them (commit metadata)
     */
    record Snapshot(long received, long committed, int inFlight, int running, long committedOffset, long nextOffset, boolean closed,
            int uncommitted, boolean full, long fulls, long skipped) {}
}
