package io.appbackplane.internal.objects;

/**
 * The ready structure as a work object sees it: where the object is counted while it is READY at a
 * priority (statistics), and where the entry it killed is purged from a queue head. Implemented by
 * the scheduling layer's ready queues, which own the invariant that queue p holds one live entry per
 * object READY at p once it is pushed; every method is called under the monitor of the object whose
 * state changes, never blocks and takes no lock.
 */
public interface ReadyMembership {

    /** The object has entered READY at priority {@code p} (its new entry is pushed after the monitor). */
    void incrementDepth(int p);

    /** The object has left READY at priority {@code p}: taken by a worker, or its entry went stale. */
    void decrementDepth(int p);

    /** Removes the dead entries at the head of priority {@code p}'s queue; called after killing an entry (see {@link ReadyEntry}). */
    void purgeDeadHead(int p);
}
