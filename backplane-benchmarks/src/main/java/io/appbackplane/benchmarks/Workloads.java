package io.appbackplane.benchmarks;

import java.time.Duration;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/** What the workloads share: sizes, the priority mix, and a batch of tasks a producer waits for. */
final class Workloads {

    /** Tasks one producer submits per benchmark invocation (each counts as one operation). */
    static final int BATCH = 10_000;

    /** The key space of the keyed workloads. */
    static final int KEYS = 10_000;

    /** Priority of urgent tasks (every eighth task). */
    static final int URGENT = 1;

    /** Priority of bulk tasks (the rest). */
    static final int BULK = 3;

    /** A batch that did not finish within this is reported as a hang, not waited for forever. */
    static final Duration BATCH_TIMEOUT = Duration.ofSeconds(60);

    private Workloads() {}

    /** The priority of the {@code i}-th task of a batch: one in eight urgent, the rest bulk. */
    static int priority(int i) {
        return (i & 7) == 0 ? URGENT : BULK;
    }

    /** The tasks of one producer's invocation: the producer parks until the last one ran. */
    static final class Batch {
        private final AtomicInteger remaining = new AtomicInteger();
        private volatile Thread owner;

        /** Starts a batch of {@code size} tasks owned by the calling thread (before submitting any). */
        void start(int size) {
            owner = Thread.currentThread();
            remaining.set(size);
        }

        /** Called by each task when it has run. */
        void done() {
            if (remaining.decrementAndGet() == 0) {
                LockSupport.unpark(owner);
            }
        }

        /** Parks until every task of the batch ran. */
        void await() throws TimeoutException {
            long deadline = System.nanoTime() + BATCH_TIMEOUT.toNanos();
            while (remaining.get() != 0) {
                if (System.nanoTime() - deadline > 0) {
                    throw new TimeoutException(remaining.get() + " tasks of a batch of " + BATCH + " did not run within "
                            + BATCH_TIMEOUT);
                }
                LockSupport.parkNanos(this, 10_000_000L);
            }
        }
    }
}
