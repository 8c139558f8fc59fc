package io.appbackplane.internal.scheduling;

import io.appbackplane.internal.base.WorkerThread;
import io.appbackplane.internal.objects.NothingTaken;
import io.appbackplane.internal.objects.ReadyEntry;
import io.appbackplane.internal.objects.Selection;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The worker threads of one backplane (scheduling rule 9): resizable at run time, each running the
 * worker loop (select, run a turn, or wait for work). How idle workers wait (a brief spin, a few
 * yields, then a park) and how producers wake them is {@link IdleWorkers}, which this pool's
 * {@link #signal} and the loop use.
 *
 * <p>Invariants: {@code live = threads started − threads exited}; {@code live} converges to {@code
 * target}: a surplus worker retires at its next turn boundary (never while holding an object, so no
 * action is lost or run twice; a turn is at most {@link RunContext#LONGEST_TURN} actions).
 */
public final class WorkerPool {

    private static final System.Logger LOG = System.getLogger(WorkerPool.class.getName());

    private static final VarHandle BUSY;

    static {
        try {
            BUSY = MethodHandles.privateLookupIn(Worker.class, MethodHandles.lookup())
                    .findVarHandle(Worker.class, "busy", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final String backplaneName;
    private final Scheduler scheduler;
    private final SchedulingHost backplane;
    /** The workers' waiting and waking; it holds the list of workers (as parkers). */
    private final IdleWorkers idleWorkers;
    private final AtomicInteger target = new AtomicInteger();
    private final AtomicInteger live = new AtomicInteger();
    private final AtomicInteger nextId = new AtomicInteger();
    /** Workers that died of an error and were replaced. */
    private final java.util.concurrent.atomic.AtomicLong replaced = new java.util.concurrent.atomic.AtomicLong();
    private final CompletableFuture<Void> terminated = new CompletableFuture<>();
    private volatile boolean stopping;
    private final ThreadStarter starter;

    /** Starts a worker's thread. */
    @FunctionalInterface
    interface ThreadStarter {
        void start(Thread thread);
    }

    public WorkerPool(SchedulingHost backplane, Scheduler scheduler, int threads) {
        this(backplane, scheduler, threads, Thread::start);
    }

    /**
     * A pool whose worker threads {@code starter} starts ({@link Thread#start} in production; a
     * test's may throw, as {@code start} does when the JVM cannot create another thread).
     */
    public WorkerPool(SchedulingHost backplane, Scheduler scheduler, int threads, ThreadStarter starter) {
        this.starter = starter;
        this.backplane = backplane;
        this.backplaneName = backplane.name();
        this.scheduler = scheduler;
        this.idleWorkers = new IdleWorkers(scheduler, this);
        try {
            setThreads(threads);
        } catch (RuntimeException | Error e) {
            stop(); // the workers that did start must not outlive a pool nobody holds
            throw e;
        }
    }

    /**
     * Grows at once; shrinks as surplus workers reach a turn boundary. If a thread cannot be made
     * or started (the JVM is out of threads), the pool stays as large as it got, the target
     * unchanged (a later resize or replacement tries again), and the failure is thrown.
     */
    public void setThreads(int threads) {
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
                startWorker();
            }
        }
        if (live.get() > threads) {
            signalAll(); // parked surplus workers must wake to retire
        }
    }

    /**
     * Starts one worker, counted in {@code live} by the caller. A worker whose thread was not
     * started is undone (its slot given back, delisted, {@code live} lowered), or {@code live}
     * would stay above the threads that can exit and {@link #stop} would never complete.
     */
    private void startWorker() {
        Worker worker = null;
        try {
            worker = new Worker(nextId.incrementAndGet());
            idleWorkers.enlist(worker);
            starter.start(worker.thread);
        } catch (RuntimeException | Error e) {
            if (worker != null) {
                idleWorkers.delist(worker);
                worker.thread.neverStarted();
            }
            if (live.decrementAndGet() == 0 && stopping) {
                terminated.complete(null); // stop() ran meanwhile and saw this worker counted
            }
            throw e;
        }
    }

    /** Wakes a parked worker if one is needed for an entry just pushed ({@link IdleWorkers#signal}). */
    public void signal() {
        idleWorkers.signal();
    }

    /** Wakes every parked worker (a tick released budget; a resize; shutdown). */
    public void signalAll() {
        idleWorkers.signalAll();
    }

    /** Stops the workers after their current turn; completes when all have exited. */
    public CompletableFuture<Void> stop() {
        stopping = true;
        signalAll();
        if (live.get() == 0) {
            terminated.complete(null);
        }
        return terminated;
    }

    /** Interrupts workers still running an action (a last resort after the drain timeout). */
    public void interruptAll() {
        for (Parker w : idleWorkers.parkers()) {
            w.thread().interrupt();
        }
    }

    public int live() {
        return live.get();
    }

    /** Workers running a turn now (a moment-old count: each worker publishes its own flag). */
    public int busy() {
        int n = 0;
        for (Parker w : idleWorkers.parkers()) {
            if (w instanceof Worker worker && worker.isBusy()) {
                n++;
            }
        }
        return n;
    }

    /** Workers parked for lack of runnable work (a moment-old count). */
    public int idle() {
        return idleWorkers.idle();
    }

    /** The idle workers' protocol, for tests that drive it with stand-in workers. */
    IdleWorkers idleWorkers() {
        return idleWorkers;
    }

    /** Whether the pool is stopping: every worker leaves at its next loop boundary. */
    boolean isStopping() {
        return stopping;
    }

    /** Whether more workers are live than the target: one leaves at its next loop boundary. */
    boolean hasSurplus() {
        return live.get() > target.get();
    }

    /** Workers replaced after dying of an error (statistics). */
    public long replaced() {
        return replaced.get();
    }

    /**
     * A worker died of an error that no turn could absorb (its object has already left RUNNING,
     * see {@code Scheduler.runTurnStep}): count it and start another, so the pool does not stay
     * below its target (rule 9). Not while stopping: a stopping pool shrinks to nothing anyway.
     */
    private void replaceLostWorker(Throwable cause) {
        replaced.incrementAndGet();
        LOG.log(System.Logger.Level.ERROR, "backplane ''" + backplaneName + "'': a worker died of an unexpected error;"
                + " starting a replacement", cause);
        try {
            setThreads(target.get());
        } catch (RuntimeException | Error e) {
            LOG.log(System.Logger.Level.ERROR, "backplane ''" + backplaneName + "'': the replacement worker could not"
                    + " start; " + live.get() + " of " + target.get() + " workers run", e);
        }
    }


    private final class Worker extends Parker implements Runnable {
        final WorkerThread thread;
        private final RunContext context;
        private boolean retired;
        /** Whether this worker is running a turn; written by it (release), read by statistics (acquire). */
        @SuppressWarnings("unused") // accessed through BUSY
        private boolean busy;

        Worker(int id) {
            this.context = new RunContext(backplane, true);
            this.thread = new WorkerThread(this, "backplane-" + backplaneName + "-worker-" + id);
            this.thread.setDaemon(true);
        }

        @Override
        Thread thread() {
            return thread;
        }

        @Override
        public void run() {
            CurrentBackplane.set(backplane);
            context.cpuMeter.start();
            Throwable lost = null;
            try {
                boolean justRan = false;
                while (!shouldExit()) {
                    // After a turn, the end of its last action is a recent enough "now" for the CPU check.
                    Selection selected = justRan ? scheduler.select(context.lastActionEnd) : scheduler.select();
                    if (!justRan && selected instanceof ReadyEntry) {
                        idleWorkers.tookWorkAfterIdle(); // back from a spin, yields or a park: wake another for what is left
                    }
                    context.straightOn = justRan; // its last action's end is a fresh enough start for the next
                    justRan = false;
                    if (selected == NothingTaken.NOTHING_READY) {
                        if (!idleWorkers.lookBeforeParking(idleWorkers.spinningIsFree(), IdleWorkers.SPINS_BEFORE_PARK,
                                IdleWorkers.YIELDS_BEFORE_PARK)) {
                            context.cpuMeter.idle();
                            idleWorkers.awaitWork(this, 0);
                            context.cpuMeter.woke();
                        }
                    } else if (selected == NothingTaken.THROTTLED) {
                        context.cpuMeter.flush();
                        context.cpuMeter.parking();
                        idleWorkers.awaitWork(this, scheduler.work().nanosUntilRelease());
                        context.cpuMeter.woke();
                    } else {
                        justRan = true;
                        BUSY.setRelease(this, true);
                        context.cpuMeter.turnStarting();
                        try {
                            scheduler.runTurn(context, (ReadyEntry) selected);
                        } catch (RuntimeException | LinkageError | AssertionError | StackOverflowError e) {
                            // Actions' own failures never get here (rule 15); this is a scheduler or
                            // hook defect. Keep the worker alive rather than lose a thread per defect.
                            LOG.log(System.Logger.Level.ERROR, "backplane worker survived an unexpected failure", e);
                            justRan = false; // the log took time: the next action starts at a clock read
                        } finally {
                            BUSY.setRelease(this, false);
                        }
                    }
                }
            } catch (Throwable t) { // any other error ends this thread; the finally below logs it and replaces the worker
                lost = t;
            } finally {
                context.cpuMeter.flush();
                idleWorkers.delist(this);
                int remaining = retired ? live.get() : live.decrementAndGet();
                if (lost != null && !stopping) {
                    replaceLostWorker(lost);
                }
                if (retired && !stopping) {
                    // A surplus worker may retire right after a spin that saw work a producer left to it
                    // (see IdleWorkers' class comment): pass the wake-up on, as a worker that took the work would.
                    idleWorkers.tookWorkAfterIdle();
                }
                if (stopping && remaining == 0) {
                    terminated.complete(null);
                }
            }
        }

        boolean isBusy() {
            return (boolean) BUSY.getAcquire(this);
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
    }
}
