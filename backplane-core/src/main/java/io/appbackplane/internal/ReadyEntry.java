package io.appbackplane.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * An object's place in one ready queue. An entry is valid while it is its object's current entry
 * and the object is READY; when the object's priority rises, it gets a new entry in the more urgent
 * queue and the old one goes stale, to be discarded by whoever polls it (DESIGN rule 7: the object
 * "leaves its old ready queue and joins the tail of the new one" without an O(n) removal).
 */
final class ReadyEntry {

    private static final VarHandle NEXT;

    static {
        try {
            NEXT = MethodHandles.lookup().findVarHandle(ReadyEntry.class, "next", ReadyEntry.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Returned by the scheduler when nothing is ready. */
    static final ReadyEntry NONE = new ReadyEntry(null, -1);
    /** Returned by the scheduler when work is ready but the CPU budget is used up. */
    static final ReadyEntry THROTTLED = new ReadyEntry(null, -1);
    /** Returned by {@link WorkObject#enqueue} when the object was released: look it up again. */
    static final ReadyEntry RETRY = new ReadyEntry(null, -1);
    /** Returned by {@link WorkObject#enqueue} after shutdown abandoned the object: fail the request. */
    static final ReadyEntry ABANDONED = new ReadyEntry(null, -1);

    final WorkObject object;
    final int priority;
    /** The entry pushed after this one into the same {@link ReadyQueue} (a CAS from null), or this entry once it has left the queue. */
    @SuppressWarnings("unused") // accessed through NEXT
    private volatile ReadyEntry next;

    ReadyEntry(WorkObject object, int priority) {
        this.object = object;
        this.priority = priority;
    }

    ReadyEntry next() {
        return next;
    }

    boolean casNext(ReadyEntry expected, ReadyEntry value) {
        return NEXT.compareAndSet(this, expected, value);
    }

    /** Links the entry to itself once it has left its queue (see {@link ReadyQueue}). */
    void unlink() {
        NEXT.setRelease(this, this);
    }
}
