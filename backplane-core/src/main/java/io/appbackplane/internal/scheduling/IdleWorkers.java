package io.appbackplane.internal.scheduling;

import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;

/**
 * How the idle workers of a {@link WorkerPool} wait for work and how producers wake them (scheduling
 * rule 9: idle workers block, after a brief spin where spinning is free and a few yields of the
 * processor). The pool owns the threads; this class owns the parkers (the pool's workers, and a
 * test's stand-ins: {@link #enlist}) and two counts, {@code idle = parkers inside awaitWork} and
 * {@code spinning = parkers inside spinForWork}; a worker running a turn, selecting or yielding is
 * in neither.
 *
 * <p>Worker side: {@link #lookBeforeParking} ({@link #spinForWork}, then {@link #yieldForWork}),
 * {@link #awaitWork}, and {@link #tookWorkAfterIdle} after it takes an entry. Producer side: {@link
 * #signal}, after its push. Both work on a {@link Parker}, so that {@code WorkerParkingLincheckTest}
 * runs this protocol with Lincheck threads standing in for workers.
 *
 * <h2>Concurrency: no lost wake-up</h2>
 * <ul>
 *   <li><b>Park.</b> A worker that found nothing sets its {@code parked} flag, increments {@code
 *       idle}, then looks once more before parking. A producer pushes, then, if {@code idle > 0},
 *       CASes some worker's flag from true to false and unparks it. Each side writes, then reads,
 *       volatile state, so the worker's second look sees the push or the producer sees the flag; an
 *       unpark before the park leaves a permit.
 *   <li><b>Spinners take over the wake-up.</b> A producer that sees {@code spinning > 0} unparks
 *       nobody (it saves an unpark system call per push on a busy backplane). It read {@code
 *       spinning} after its push, so the spinner's decrement and everything it reads later come
 *       after that push: the spinner either takes an entry and then calls {@link
 *       #tookWorkAfterIdle}, which signals in the producer's place while work is still READY (and
 *       a worker woken so does the same: the wake-ups cascade as far as there is work, as
 *       ForkJoinPool's signals propagate), or it finds nothing and parks through {@link
 *       #awaitWork}, whose second look sees the push. A producer never leaves its wake-up to a
 *       worker that is not spinning, so a worker going on from a turn of its own needs no check; a
 *       surplus worker that retires after its spin or yields checks and signals too.
 *   <li><b>Yielders are covered by the second look.</b> A yielding worker counts as neither idle
 *       nor spinning: a producer that skipped its unpark because no worker was idle is seen by the
 *       second look of {@link #awaitWork}, as for a worker coming from a turn. A yield may keep the
 *       worker off its processor, so one yield longer than {@link #LONG_YIELD_NANOS} ends the
 *       yields and the worker parks: a push waits for at most one such yield.
 * </ul>
 */
final class IdleWorkers {

    /** How many times an idle worker looks for work (with a spin-wait hint between) before parking. */
    static final int SPINS_BEFORE_PARK = 64;

    /**
     * How many times an idle worker then yields its processor, looking for work after each, before
     * parking ({@link #yieldForWork}). A yield with nothing else to run returns at once, so an idle
     * backplane still parks promptly; on a busy machine a yield that takes long ends them ({@link
     * #LONG_YIELD_NANOS}).
     */
    static final int YIELDS_BEFORE_PARK = 16;

    /**
     * A yield that kept the worker off its processor longer than this ends its yields ({@link
     * #yieldForWork}): other threads are getting time slices, so the worker parks. Far below a time
     * slice, far above a yield that found no other thread to run.
     */
    static final long LONG_YIELD_NANOS = 50_000;

    /** Processors this JVM may use, read once: {@link #spinningIsFree()} compares awake workers with it. */
    private static final int PROCESSORS = Runtime.getRuntime().availableProcessors();

    private final RunnableWork work;
    /** The pool whose workers these are: whether it is stopping, has surplus workers, how many live. */
    private final WorkerPool pool;
    private final CopyOnWriteArrayList<Parker> parkers = new CopyOnWriteArrayList<>();
    private final AtomicInteger idle = new AtomicInteger();
    /** Workers inside {@link #spinForWork}: while there is one, a producer leaves its wake-up to it. */
    private final AtomicInteger spinning = new AtomicInteger();

    IdleWorkers(Scheduler scheduler, WorkerPool pool) {
        this.work = scheduler.work();
        this.pool = pool;
    }

    /**
     * Wakes one parked worker, if any and if no worker is spinning (a spinner will see the work and
     * wake others if more is ready; see the class comment). Called after an entry was pushed.
     */
    void signal() {
        if (idle.get() == 0 || spinning.get() > 0) {
            return;
        }
        for (Parker w : parkers) {
            if (w.parked.get() && w.parked.compareAndSet(true, false)) {
                w.unpark();
                return;
            }
        }
    }

    /** Wakes every parked worker (a tick released budget; a resize; shutdown). */
    void signalAll() {
        for (Parker w : parkers) {
            if (w.parked.compareAndSet(true, false)) {
                w.unpark();
            }
        }
    }

    /** Parkers inside {@link #awaitWork} (a moment-old count). */
    int idle() {
        return idle.get();
    }

    /** Workers spinning before they park (a moment-old count; tests). */
    int spinning() {
        return spinning.get();
    }

    /** The pool's workers and any test stand-ins. */
    Iterable<Parker> parkers() {
        return parkers;
    }

    /**
     * Looks for work {@code spins} times before parking, counted in {@code spinning} throughout
     * (see the class comment): on a busy backplane new work often comes within that, and a park
     * costs this worker a sleep and its producer an unpark. Well under a time slice, so an idle
     * backplane still parks promptly (rule 9).
     *
     * @return whether work (or a stop) came: the worker selects again, and calls {@link
     *     #tookWorkAfterIdle} if it takes an entry
     */
    boolean spinForWork(int spins) {
        startSpinning();
        try {
            for (int i = 0; i < spins; i++) {
                Thread.onSpinWait();
                if (work.hasReadyObjects() || pool.isStopping()) {
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
     * <p>The spin and the yields look for what select polls, a queued entry, so whenever they end
     * early select has something to poll; an object a submitter made READY but has not pushed yet
     * is not work until its push, which signals ({@code PreemptedSubmitterTest}).
     *
     * @return whether work (or a stop) came: the worker selects again instead of parking
     */
    boolean lookBeforeParking(boolean maySpin, int spins, int yields) {
        // Wall time of the yields themselves, whatever the backplane's clock.
        return lookBeforeParking(maySpin, spins, yields, Thread::yield, System::nanoTime);
    }

    /** {@link #lookBeforeParking(boolean, int, int)} with the yield and the wall clock given (tests run the submitter in the yield). */
    boolean lookBeforeParking(boolean maySpin, int spins, int yields, Runnable yield, LongSupplier wallClock) {
        return (maySpin && spinForWork(spins)) || yieldForWork(yields, yield, wallClock);
    }

    /**
     * Before an idle worker parks (after its spin, or instead of it): yields its processor up to
     * {@code yields} times, looking for work after each. Where producers share the processors with
     * the workers, a worker that parks as soon as it runs dry costs the producer an unpark for the
     * next entry, and one that spins keeps the processor from it; a yielding worker lets the
     * producer run and stays awake, so {@link #signal} finds no idle worker and returns at once. It
     * yields also where spinning is not free: a yield hands the processor to a thread with work
     * where a spin would hold it.
     *
     * <p>Not counted in {@code spinning}: a yielder may be off its processor for a time slice, so
     * producers must not leave their wake-ups to it (see the class comment for why nothing is lost,
     * and for the {@link #LONG_YIELD_NANOS} bound on the latency a yield adds).
     *
     * @return whether work (or a stop) came, as {@link #spinForWork}
     */
    boolean yieldForWork(int yields) {
        return yieldForWork(yields, Thread::yield, System::nanoTime);
    }

    /** {@link #yieldForWork(int)} with the yield and the wall clock given (tests time the cap with their own). */
    boolean yieldForWork(int yields, Runnable yield, LongSupplier wallClock) {
        long before = wallClock.getAsLong();
        for (int i = 0; i < yields; i++) {
            yield.run();
            if (work.hasReadyObjects() || pool.isStopping()) {
                return true;
            }
            long now = wallClock.getAsLong();
            if (now - before > LONG_YIELD_NANOS) {
                return false; // contended processors: park rather than make producers wait for this worker
            }
            before = now;
        }
        return false;
    }

    /**
     * Whether an idle worker may spin before it parks: only while the workers awake (running a turn,
     * selecting or spinning; the caller is one) do not outnumber the processors, else its spin
     * would take a processor a working worker or a producer needs. Skipping the spin is always
     * correct: spinning only saves a wake-up.
     */
    boolean spinningIsFree() {
        return spinningIsFree(pool.live() - idle.get(), PROCESSORS);
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
        if (work.hasReadyObjects()) {
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
            if (pool.isStopping() || pool.hasSurplus() || work.hasRunnableWork()) {
                return; // second look after announcing: see the class comment
            }
            // Work queued but held back by the CPU budget: wake at the next release even if no push
            // comes (a slice release is not signalled; rule 5 forbids stalling until the tick).
            me.park(parkNanos <= 0 && work.hasReadyObjects() ? work.nanosUntilRelease() : parkNanos);
        } finally {
            me.parked.set(false);
            idle.decrementAndGet();
        }
    }

    /** Makes a test's stand-in worker wakeable by {@link #signal} (the pool enlists its real workers). */
    void enlist(Parker parker) {
        parkers.add(parker);
    }

    /** Undoes {@link #enlist}. */
    void delist(Parker parker) {
        parkers.remove(parker);
    }
}
