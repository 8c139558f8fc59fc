package io.appbackplane.internal.scheduling;

import io.appbackplane.internal.base.WorkerLocalPadding;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

/**
 * What parks in {@link IdleWorkers#awaitWork} and what {@link IdleWorkers#signal} wakes: a worker
 * thread and its parked flag. {@link #park} and {@link #unpark} are {@link LockSupport}'s; a test
 * may override them (a Lincheck thread standing in for a worker).
 */
abstract class Parker extends WorkerLocalPadding {
    final AtomicBoolean parked = new AtomicBoolean();

    /** The thread that parks in {@link IdleWorkers#awaitWork} with this parker. */
    abstract Thread thread();

    /** Parks the calling thread ({@link #thread()}) until {@link #unpark}, at most {@code parkNanos} if positive. */
    void park(long parkNanos) {
        if (parkNanos > 0) {
            LockSupport.parkNanos(this, parkNanos);
        } else {
            LockSupport.park(this);
        }
    }

    /** Unparks {@link #thread()}, or lets its next {@link #park} return at once. */
    void unpark() {
        LockSupport.unpark(thread());
    }
}
