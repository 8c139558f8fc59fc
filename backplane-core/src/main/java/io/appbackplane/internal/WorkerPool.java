package io.appbackplane.internal;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * The worker threads of one backplane (DESIGN rule 9): resizable at run time; idle workers park,
 * they do not spin.
 *
 * <p>Invariants: {@code live = threads started − threads exited}; {@code live} converges to {@code
 * target}: a surplus worker retires at its next turn boundary (never while holding an object, so no
 * action is lost or run twice). {@code idle = number of workers inside} {@link #idle}.
 *
 * <h2>Concurrency: parking without lost wake-ups</h2>
 * A worker that found nothing sets its {@code parked} flag and increments {@code idle}, then looks
 * for work once more before parking. A producer pushes its entry first and then, if {@code idle >
 * 0}, CASes some worker's flag from true to false and unparks it. Both sides write then read
 * volatile state, so either the worker's second look sees the entry or the producer sees the flag;
 * an unpark before the park leaves a permit, so the park returns at once.
 */
final class WorkerPool {

    private final String backplaneName;
    private final Scheduler scheduler;
    private final DefaultBackplane backplane;
    private final CopyOnWriteArrayList<Worker> workers = new CopyOnWriteArrayList<>();
    private final AtomicInteger target = new AtomicInteger();
    private final AtomicInteger live = new AtomicInteger();
    private final AtomicInteger idle = new AtomicInteger();
    private final AtomicInteger busy = new AtomicInteger();
    private final AtomicInteger nextId = new AtomicInteger();
    private final CompletableFuture<Void> terminated = new CompletableFuture<>();
    private volatile boolean stopping;

    WorkerPool(DefaultBackplane backplane, Scheduler scheduler, int threads) {
        this.backplane = backplane;
        this.backplaneName = backplane.name();
        this.scheduler = scheduler;
        setThreads(threads);
    }

    /** Grows at once; shrinks as surplus workers reach a turn boundary. */
    void setThreads(int threads) {
        if (stopping) {
            return;
        }
        target.set(threads);
        while (true) {
            int l = live.get();
            if (l >= target.get()) {
                break;
            }
            if (live.compareAndSet(l, l + 1)) {
                Worker worker = new Worker(nextId.incrementAndGet());
                workers.add(worker);
                worker.thread.start();
            }
        }
        if (live.get() > threads) {
            signalAll(); // parked surplus workers must wake to retire
        }
    }

    /** Wakes one parked worker, if any. Called after an entry was pushed. */
    void signal() {
        if (idle.get() == 0) {
            return;
        }
        for (Worker w : workers) {
            if (w.parked.get() && w.parked.compareAndSet(true, false)) {
                LockSupport.unpark(w.thread);
                return;
            }
        }
    }

    /** Wakes every parked worker (a tick released budget; a resize; shutdown). */
    void signalAll() {
        for (Worker w : workers) {
            if (w.parked.compareAndSet(true, false)) {
                LockSupport.unpark(w.thread);
            }
        }
    }

    /** Stops the workers after their current turn; completes when all have exited. */
    CompletableFuture<Void> stop() {
        stopping = true;
        signalAll();
        if (live.get() == 0) {
            terminated.complete(null);
        }
        return terminated;
    }

    /** Interrupts workers still running an action (a last resort after the drain timeout). */
    void interruptAll() {
        for (Worker w : workers) {
            w.thread.interrupt();
        }
    }

    int live() {
        return live.get();
    }

    int busy() {
        return busy.get();
    }

    int idle() {
        return idle.get();
    }

    private final class Worker implements Runnable {
        final Thread thread;
        final AtomicBoolean parked = new AtomicBoolean();
        private final RunContext context;
        private boolean retired;

        Worker(int id) {
            this.context = new RunContext(backplane);
            this.thread = new Thread(this, "backplane-" + backplaneName + "-worker-" + id);
            this.thread.setDaemon(true);
        }

        @Override
        public void run() {
            DefaultBackplane.CURRENT.set(backplane);
            try {
                while (!shouldExit()) {
                    ReadyEntry entry = scheduler.select();
                    if (entry == ReadyEntry.NONE) {
                        idle(0);
                    } else if (entry == ReadyEntry.THROTTLED) {
                        idle(scheduler.nanosUntilRelease());
                    } else {
                        busy.incrementAndGet();
                        try {
                            scheduler.runTurn(context, entry);
                        } finally {
                            busy.decrementAndGet();
                        }
                    }
                }
            } finally {
                workers.remove(this);
                int remaining = retired ? live.get() : live.decrementAndGet();
                if (stopping && remaining == 0) {
                    terminated.complete(null);
                }
            }
        }

        /** Stop (shutdown) or retire (surplus worker): CAS live down by one, once. */
        private boolean shouldExit() {
            if (stopping) {
                return true;
            }
            while (true) {
                int l = live.get();
                if (l <= target.get()) {
                    return false;
                }
                if (live.compareAndSet(l, l - 1)) {
                    retired = true;
                    return true;
                }
            }
        }

        private void idle(long parkNanos) {
            parked.set(true);
            idle.incrementAndGet();
            try {
                if (stopping || live.get() > target.get() || scheduler.hasRunnableWork()) {
                    return; // second look after announcing: see the class comment
                }
                if (parkNanos > 0) {
                    LockSupport.parkNanos(this, parkNanos);
                } else {
                    LockSupport.park(this);
                }
            } finally {
                parked.set(false);
                idle.decrementAndGet();
            }
        }
    }
}
