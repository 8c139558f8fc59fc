package io.appbackplane.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The worker threads of one backplane (DESIGN rule 9): resizable at run time; idle workers park,
 * they do not spin (beyond a brief spin before parking, only on a processor no other awake worker
 * needs: {@link #spinningIsFree()}, and a few yields of the processor: {@link #yieldForWork}).
 *
 * <p>Invariants: {@code live = threads started − threads exited}; {@code live} converges to {@code
 * target}: a surplus worker retires at its next turn boundary (never while holding an object, so no
 * action is lost or run twice; a turn is at most {@link RunContext#LONGEST_TURN} actions). {@code
 * idle = number of workers inside} {@link #awaitWork}.
 *
 * <h2>Concurrency: parking without lost wake-ups</h2>
 * A worker that found nothing sets its {@code parked} flag and increments {@code idle}, then looks
 * for work once more before parking. A producer pushes its entry first and then, if {@code idle >
 * 0}, CASes some worker's flag from true to false and unparks it. Both sides write then read
 * volatile state, so either the worker's second look sees the entry or the producer sees the flag;
 * an unpark before the park leaves a permit, so the park returns at once.
 *
 * <h2>Spinning workers take over the producer's wake-up</h2>
 * Before it parks, an idle worker spins briefly ({@link #spinForWork}), counted in {@code spinning}.
 * A producer that sees a spinning worker unparks nobody: the spinner will see the entry. That saves
 * the producer an unpark system call per submit on a busy backplane (where workers run one short
 * action and look again), but a burst of pushes seen by one spinner must still wake enough
 * workers. So a worker that comes back from idle (a spin, its yields or a park) and takes an
 * entry calls {@link #tookWorkAfterIdle}: if work is still ready, it signals in the producer's
 * place, and a worker woken that way does the same, so wake-ups cascade as far as there is work
 * (ForkJoinPool's workers propagate signals the same way). Why nothing is lost: a producer that
 * skipped read {@code spinning > 0} after its push, so the spinner's decrement, and every read it
 * makes after it, comes after that push. The spinner then either takes an entry and checks for more (its check sees the
 * push unless the entry was taken), or finds nothing and parks through {@link #awaitWork}, whose
 * second look sees the push. Workers that go on from a turn of their own do not check: a producer
 * never leaves its wake-up to a worker that is not spinning. A surplus worker that retires after a
 * spin or its yields (it leaves at its next loop boundary, before selecting) checks and signals too.
 *
 * <h2>Yielding before parking</h2>
 * After its spin (or instead of it, where spinning is not free), an idle worker yields its
 * processor a few times, looking for work after each ({@link #yieldForWork}), and only then parks:
 * a producer waiting for that processor gets it, and finds the worker awake rather than parked, so
 * it makes no unpark system call. A yielding worker is neither idle nor spinning, like a worker in
 * a turn, as far as the counters go: producers that skip their unpark because no worker is idle
 * are covered by the second look of {@link #awaitWork}. Unlike a worker in a turn it may be off its
 * processor, so it stops yielding after one yield that kept it away for long, and parks.
 *
 * <p>The worker side is {@link #lookBeforeParking} ({@link #spinForWork}, {@link #yieldForWork}),
 * {@link #awaitWork} and {@link #tookWorkAfterIdle}, the producer side {@link #signal}; they work on a {@link Parker} (a
 * worker is one), so that {@code WorkerParkingLincheckTest} can run the real protocol with Lincheck
 * threads standing in for workers ({@link #enlist}/{@link #delist}).
 */
final class WorkerPool {

    private static final System.Logger LOG = System.getLogger(WorkerPool.class.getName());

    /** How many times an idle worker looks for work (with a spin-wait hint between) before parking. */
    static final int SPINS_BEFORE_PARK = 64;

    /**
     * How many times an idle worker then yields its processor, looking for work after each, before
     * parking ({@link #yieldForWork}). A yield with nothing else to run returns in well under a
     * microsecond, so on an idle machine this adds a few microseconds before an idle backplane
     * parks; on a busy one a yield that takes long ends them ({@link #LONG_YIELD_NANOS}).
     */
    static final int YIELDS_BEFORE_PARK = 16;

    /**
     * A yield that kept the worker off its processor longer than this (50 µs) ends its yields
     * ({@link #yieldForWork}): other threads are getting time slices, so the worker parks.
     */
    static final long LONG_YIELD_NANOS = 50_000;

    /** Processors this JVM may use, read once: {@link #spinningIsFree()} compares awake workers with it. */
    private static final int PROCESSORS = Runtime.getRuntime().availableProcessors();

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
    private final DefaultBackplane backplane;
    private final CopyOnWriteArrayList<Parker> workers = new CopyOnWriteArrayList<>();
    private final AtomicInteger target = new AtomicInteger();
    private final AtomicInteger live = new AtomicInteger();
    private final AtomicInteger idle = new AtomicInteger();
    /** Workers inside {@link #spinForWork}: while there is one, a producer leaves its wake-up to it. */
    private final AtomicInteger spinning = new AtomicInteger();
    private final AtomicInteger nextId = new AtomicInteger();
    /** Workers that died of an error and were replaced. */
    private final java.util.concurrent.atomic.AtomicLong replaced = new java.util.concurrent.atomic.AtomicLong();
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

    /**
     * Wakes one parked worker, if any and if no worker is spinning (a spinner will see the work and
     * wake others if more is ready; see the class comment). Called after an entry was pushed.
     */
    void signal() {
        if (idle.get() == 0 || spinning.get() > 0) {
            return;
        }
        for (Parker w : workers) {
            if (w.parked.get() && w.parked.compareAndSet(true, false)) {
                w.unpark();
                return;
            }
        }
    }

    /** Wakes every parked worker (a tick released budget; a resize; shutdown). */
    void signalAll() {
        for (Parker w : workers) {
            if (w.parked.compareAndSet(true, false)) {
                w.unpark();
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
        for (Parker w : workers) {
            w.thread().interrupt();
        }
    }

    int live() {
        return live.get();
    }

    /** Workers running a turn now (a moment-old count: each worker publishes its own flag). */
    int busy() {
        int n = 0;
        for (Parker w : workers) {
            if (w instanceof Worker worker && worker.isBusy()) {
                n++;
            }
        }
        return n;
    }

    int idle() {
        return idle.get();
    }

    /** Workers spinning before they park (a moment-old count; tests). */
    int spinning() {
        return spinning.get();
    }

    /** Workers replaced after dying of an error (statistics). */
    long replaced() {
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
        setThreads(target.get());
    }

    /**
     * Looks for work a few microseconds before parking: on a busy backplane new work usually arrives
     * within that, and a park costs this worker a sleep and its submitter an unpark system call.
     * Short (well under a scheduler time slice), so an idle backplane still parks at once for
     * practical purposes (rule 9). Counted in {@code spinning} throughout (see the class comment).
     *
     * @return whether work (or a stop) came: the worker selects again, and calls {@link
     *     #tookWorkAfterIdle} if it takes an entry
     */
    boolean spinForWork(int spins) {
        startSpinning();
        try {
            for (int i = 0; i < spins; i++) {
                Thread.onSpinWait();
                if (scheduler.hasReadyObjects() || stopping) {
                    return true;
                }
            }
            return false;
        } finally {
            stopSpinning();
        }
    }

    /**
     * What an idle worker does before it parks: the spin where spinning is free ({@link
     * #spinningIsFree()}, passed as {@code maySpin}), then, if that found nothing, the yields.
     *
     * @return whether work (or a stop) came: the worker selects again instead of parking
     */
    boolean lookBeforeParking(boolean maySpin, int spins, int yields) {
        return (maySpin && spinForWork(spins)) || yieldForWork(yields);
    }

    /**
     * Before an idle worker parks (after its spin, or instead of it where spinning is not free):
     * yields its processor, looking for work after each yield. On a machine whose producers share
     * the processors with the workers (2 cores, 1 producer, 2 workers), a worker that parks as soon
     * as it runs dry costs the producer an unpark system call for the next entry, and one that
     * spins keeps the processor from the producer; a yielding worker lets a thread waiting for its
     * processor run and stays awake, so the producer's {@link #signal} finds no idle worker and
     * returns at once. W2 {@code tiny}, where a producer spent about 40 % of its CPU unparking:
     * +58 % in fast-mode forks (docs/benchmarks.md, "Fewer wake-ups").
     *
     * <p>Unlike the spin, a worker yields also when more workers are awake than there are
     * processors ({@link #spinningIsFree()} false): a yield hands the processor to a thread waiting
     * for it, where a spin would hold it. With 4 workers on 2 cores that keeps W6 from falling (W2
     * {@code tiny} 3.1–3.2 M tasks/s with the yields gated like the spin, 4.1–4.2 M without).
     *
     * <p>Not counted in {@code spinning}, unlike the spin: a yielding worker may be off its
     * processor for a time slice, so producers must not leave their wake-ups to it; they still wake
     * a parked worker. Nothing is lost: a producer that skipped its unpark because no worker was
     * idle is seen by the second look of {@link #awaitWork}, as for a worker coming from a turn.
     * What a yield can cost is latency: while no worker is idle, a producer's entry waits until a
     * yielder is back on its processor. So a yield that kept the worker away for more than {@link
     * #LONG_YIELD_NANOS} (the processors are contended, other threads got time slices) ends the
     * yields, and the worker parks, where a producer's unpark reaches it: an entry waits for at most
     * one such yield, as it may wait for a spinner that was preempted.
     *
     * @return whether work (or a stop) came, as {@link #spinForWork}
     */
    boolean yieldForWork(int yields) {
        long before = System.nanoTime(); // wall time of the yields themselves, whatever the backplane's clock
        for (int i = 0; i < yields; i++) {
            Thread.yield();
            if (scheduler.hasReadyObjects() || stopping) {
                return true;
            }
            long now = System.nanoTime();
            if (now - before > LONG_YIELD_NANOS) {
                return false; // contended processors: park rather than make producers wait for this worker
            }
            before = now;
        }
        return false;
    }

    /**
     * Whether an idle worker may spin before it parks: only while the workers awake (running a turn,
     * selecting or spinning; the caller is one) do not outnumber the processors. A worker with more
     * workers awake than processors would spin on a core that another worker, or a producer, needs:
     * on 2 cores with 4 workers, spinning workers take time slices from working ones. Skipping the
     * spin is always correct (spinning only saves a wake-up, see the class comment).
     */
    boolean spinningIsFree() {
        return spinningIsFree(live.get() - idle.get(), PROCESSORS);
    }

    /** {@link #spinningIsFree()} for {@code awake} workers not parked, the caller included, on {@code processors}. */
    static boolean spinningIsFree(int awake, int processors) {
        return awake <= processors;
    }

    /** Counts the caller as spinning: {@link #spinForWork}'s first step (a test may take it alone). */
    void startSpinning() {
        spinning.incrementAndGet();
    }

    /** Undoes {@link #startSpinning}: {@link #spinForWork}'s last step. */
    void stopSpinning() {
        spinning.decrementAndGet();
    }

    /**
     * A worker back from idle (a spin, its yields or a park) took an entry: it wakes another worker
     * if work is still ready, on behalf of producers that left their wake-up to a spinner (see the
     * class comment).
     */
    void tookWorkAfterIdle() {
        if (scheduler.hasReadyObjects()) {
            signal();
        }
    }

    /**
     * A worker (or a test's stand-in for one) that found nothing: announces itself idle, looks for
     * work once more, and parks unless it found some (see the class comment).
     */
    void awaitWork(Parker me, long parkNanos) {
        me.parked.set(true);
        idle.incrementAndGet();
        try {
            if (stopping || live.get() > target.get() || scheduler.hasRunnableWork()) {
                return; // second look after announcing: see the class comment
            }
            // Work queued but held back by the CPU budget: wake at the next release even if no push
            // comes (a slice release is not signalled; rule 5 forbids stalling until the tick).
            me.park(parkNanos <= 0 && scheduler.hasQueuedWork() ? scheduler.nanosUntilRelease() : parkNanos);
        } finally {
            me.parked.set(false);
            idle.decrementAndGet();
        }
    }

    /** Makes a test's stand-in worker wakeable by {@link #signal} (real workers are enlisted by {@link #setThreads}). */
    void enlist(Parker parker) {
        workers.add(parker);
    }

    /** Undoes {@link #enlist}. */
    void delist(Parker parker) {
        workers.remove(parker);
    }

    private final class Worker extends Parker implements Runnable {
        final Thread thread;
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
            DefaultBackplane.CURRENT.set(backplane);
            context.cpuMeter.start();
            Throwable lost = null;
            try {
                boolean justRan = false;
                while (!shouldExit()) {
                    // After a turn, the end of its last action is a recent enough "now" for the CPU check.
                    Scheduler.Selection selected = justRan ? scheduler.select(context.lastActionEnd) : scheduler.select();
                    if (!justRan && selected instanceof ReadyEntry) {
                        tookWorkAfterIdle(); // back from a spin, yields or a park: wake another for what is left
                    }
                    context.straightOn = justRan; // its last action's end is a fresh enough start for the next
                    justRan = false;
                    if (selected == NothingTaken.NOTHING_READY) {
                        if (!lookBeforeParking(spinningIsFree(), SPINS_BEFORE_PARK, YIELDS_BEFORE_PARK)) {
                            context.cpuMeter.idle();
                            awaitWork(this, 0);
                            context.cpuMeter.woke();
                        }
                    } else if (selected == NothingTaken.THROTTLED) {
                        context.cpuMeter.flush();
                        context.cpuMeter.parking();
                        awaitWork(this, scheduler.nanosUntilRelease());
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
                        } finally {
                            BUSY.setRelease(this, false);
                        }
                    }
                }
            } catch (Throwable t) { // any other error ends this thread; the finally below logs it and replaces the worker
                lost = t;
            } finally {
                context.cpuMeter.flush();
                workers.remove(this);
                int remaining = retired ? live.get() : live.decrementAndGet();
                if (lost != null && !stopping) {
                    replaceLostWorker(lost);
                }
                if (retired && !stopping) {
                    // A surplus worker may retire right after a spin that saw work a producer left to it
                    // (see the class comment): pass the wake-up on, as a worker that took the work would.
                    tookWorkAfterIdle();
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
