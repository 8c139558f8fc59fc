package io.appbackplane.internal.objects;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * An object's place in one ready queue. An entry is valid while it is its object's current entry
 * and the object is READY; when the object's priority rises, it gets a new entry in the more urgent
 * queue and the old one goes stale (scheduling rule 7: the object "leaves its old ready queue and joins
 * the tail of the new one" without an O(n) removal); the same when its queued work is cancelled or
 * abandoned while it is READY.
 *
 * <p>A stale entry is <em>dead</em>: the object's monitor clears its {@link #object} ({@link
 * #kill}) when it stops being valid, so it keeps nothing reachable while it waits in its queue, and
 * a stale entry never becomes valid again. Dead entries are removed when they reach the head of
 * their queue ({@link ReadyQueue#purgeDeadHead}); whoever makes a head dead (kills it, polls the
 * entry before it, or pushes an entry killed before its push) purges afterwards, so that a queue
 * with no object READY at its priority holds no entry at all, and nothing for selection or the
 * park check (which read whether a queue holds an entry) to mistake for work.
 *
 * <p>The methods that make an object READY or take it hand back the entry the caller must push or
 * run, as Jetty's {@code SerializedInvoker.offer} hands back the task its caller must run; when
 * there is none they return an enum constant saying why ({@link WorkObject.Enqueued}, {@link
 * WorkObject.TurnEnd}, {@link Selection}). No entry stands for a result code.
 */
public final class ReadyEntry implements WorkObject.Enqueued, WorkObject.TurnEnd, Selection {

    private static final VarHandle NEXT;
    private static final VarHandle OBJECT;

    static {
        try {
            NEXT = MethodHandles.lookup().findVarHandle(ReadyEntry.class, "next", ReadyEntry.class);
            OBJECT = MethodHandles.lookup().findVarHandle(ReadyEntry.class, "object", WorkObject.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /**
     * The object, or null once the entry is dead (and for a queue's first dummy). Set
     * before the entry is published (by its push, a volatile CAS) and cleared only by {@link
     * #kill} under the object's monitor, or by {@link #forget} when the entry's turn starts. A
     * poller reads it once (a plain read): it sees the object, whose monitor then tells it the entry
     * is stale, or null; both mean "stale". Once {@link WorkObject#take} succeeded nobody kills the
     * entry, so its taker may read the field again.
     */
    public WorkObject object;
    public final int priority;
    /** The entry pushed after this one into the same {@link ReadyQueue} (a CAS from null), or this entry once it has left the queue. */
    @SuppressWarnings("unused") // accessed through NEXT
    private volatile ReadyEntry next;

    public ReadyEntry(WorkObject object, int priority) {
        this.object = object;
        this.priority = priority;
    }

    /** Makes the entry dead; called under its object's monitor when the entry stops being valid. */
    public void kill() {
        OBJECT.setVolatile(this, (WorkObject) null);
    }

    /**
     * Whether the entry is dead. A volatile read, so that a pusher that reads it after its push
     * and a killer that purges after its kill cannot both miss each other (see the class comment).
     */
    public boolean isDead() {
        return OBJECT.getVolatile(this) == null;
    }

    /**
     * Drops the object of a taken entry when its turn starts (the taker has read the object into
     * its own variable first): the entry may stay linked as its queue's dummy until the next poll,
     * and must not keep the object reachable meanwhile, through a turn that may release it and
     * long after. Only the taker calls it (and a poller, on an entry already dead); nobody reads
     * the object of a taken entry after that.
     */
    public void forget() {
        object = null;
    }

    public ReadyEntry next() {
        return next;
    }

    public boolean casNext(ReadyEntry expected, ReadyEntry value) {
        return NEXT.compareAndSet(this, expected, value);
    }

    /** Links the entry to itself once it has left its queue (see {@link ReadyQueue}). */
    public void unlink() {
        NEXT.setRelease(this, this);
    }
}
