package io.appbackplane.benchmarks;

import io.appbackplane.Action;
import java.time.Duration;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * What the workloads share: sizes, the priority mix, and the bounded window of tasks a producer
 * keeps in flight.
 */
final class Workloads {

    /**
     * Tasks one producer keeps in flight at most (submitted, not yet finished). Large enough that
     * the peer's queue never runs dry while the producer is parked, small enough that it never
     * grows without bound; overridable with {@code -Dbench.window=N}.
     */
    static final int WINDOW = Integer.getInteger("bench.window", 1_024);

    /** The key space of the keyed workloads. */
    static final int KEYS = 10_000;

    /** Priority of urgent tasks (every eighth task). */
    static final int URGENT = 1;

    /** Priority of bulk tasks (the rest). */
    static final int BULK = 3;

    /** A window that does not drain within this is reported as a hang, not waited for forever. */
    static final Duration HANG_TIMEOUT = Duration.ofSeconds(60);

    private Workloads() {}

    /** An action that works {@code tokens} and then frees its slot of {@code window} (reusable: it keeps no state). */
    static Action<Void> windowedAction(long tokens, Window window) {
        return ctx -> {
            Work.run(tokens);
            window.release();
            return null;
        };
    }

    /** The priority of a producer's {@code i}-th task: one in eight urgent, the rest bulk. */
    static int priority(long i) {
        return (i & 7) == 0 ? URGENT : BULK;
    }

    /**
     * A producer's in-flight window: the producer {@linkplain #acquire() takes} a slot before each
     * submit and each task {@linkplain #release() gives} its slot back when it has run. A full
     * window parks the producer until half of it has drained (hysteresis), so a producer that is
     * faster than the peer parks and wakes once per {@code capacity / 2} tasks, not once per task,
     * and the peer still has {@code capacity / 2} tasks queued when the producer resumes: the peer
     * is never idle for want of work and never flooded. One producer thread per window.
     */
    static final class Window {
        private final int capacity;
        private final int low;
        private final AtomicInteger inFlight = new AtomicInteger();
        private volatile boolean waiting;
        private volatile Thread owner;

        Window(int capacity) {
            if (capacity < 2) {
                throw new IllegalArgumentException("window " + capacity + " < 2");
            }
            this.capacity = capacity;
            this.low = capacity / 2;
        }

        /** Takes a slot for one task, parking first while the window is full (producer only). */
        void acquire() throws TimeoutException {
            if (inFlight.get() >= capacity) {
                awaitLow();
            }
            inFlight.incrementAndGet();
        }

        /** Gives a task's slot back (called by the task when it has run, on any thread). */
        void release() {
            if (inFlight.decrementAndGet() == low && waiting) {
                LockSupport.unpark(owner);
            }
        }

        /** Tasks submitted and not yet run. */
        int inFlight() {
            return inFlight.get();
        }

        private void awaitLow() throws TimeoutException {
            owner = Thread.currentThread();
            waiting = true; // then read inFlight: a release that reaches `low` after this read sees it
            try {
                long deadline = System.nanoTime() + HANG_TIMEOUT.toNanos();
                while (inFlight.get() > low) {
                    long left = deadline - System.nanoTime();
                    if (left <= 0) {
                        throw new TimeoutException(inFlight.get() + " tasks in flight did not run within " + HANG_TIMEOUT);
                    }
                    // Until the release that reaches `low` (or the deadline), not in short polls: only
                    // the producer adds to inFlight, so while it waits inFlight only falls and passes
                    // `low` exactly once, and that release unparks it. Polling would be CPU the process
                    // spends beside the peer: at W5's 0.25 cores, a 10 ms poll alone added 2.4 %.
                    LockSupport.parkNanos(this, left);
                }
            } finally {
                waiting = false;
            }
        }
    }
}
