package io.appbackplane.internal.scheduling;

import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;

/**
 * How the idle workers of a {@link WorkerPool} wait for work and how producers wake them (scheduling
 * rule 9: idle workers block; they do not spin beyond a brief spin before parking, only on a
 * processor no other awake worker needs, {@link #spinningIsFree()}, and a few yields of the
 * processor, {@link #yieldForWork}). The pool owns the threads; this class owns the parkers
 * (the pool's workers, and a test's stand-ins), {@code idle} (parkers inside {@link #awaitWork})
 * and {@code spinning} (parkers inside {@link #spinForWork}).
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
 * processor, so it stops yielding after one yield that kept it away for long, and parks. A worker
 * that found nothing to take while an object is counted READY (its submitter has not pushed its
 * entry yet) goes straight to the yields: a spin would only hold the processor that submitter may
 * be waiting for.
 *
 * <p>The worker side is {@link #lookBeforeParking} ({@link #spinForWork}, {@link #yieldForWork}),
 * {@link #awaitWork} and {@link #tookWorkAfterIdle}, the producer side {@link #signal}; they work on a {@link Parker} (a
 * worker is one), so that {@code WorkerParkingLincheckTest} can run the real protocol with Lincheck
 * threads standing in for workers ({@link #enlist}/{@link #delist}).
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
     * <p>No spin when an object is already counted READY although the select before this found
     * nothing to take: its submitter is between counting it ({@code WorkObject.enqueue}, under the
     * monitor) and pushing its entry, or another worker is between polling and taking it. The spin's
     * check reads the depth, so it would end at once and send the worker back to select: select,
     * one spin hint, select, ..., with no yield and no park, while a preempted submitter waited for
     * the OS to preempt a spinning worker (a time slice). The yields hand the processor over
     * instead: the submitter's entry is taken within one yield ({@code PreemptedSubmitterTest}).
     *
     * @return whether work (or a stop) came: the worker selects again instead of parking
     */
    boolean lookBeforeParking(boolean maySpin, int spins, int yields) {
        // Wall time of the yields themselves, whatever the backplane's clock.
        return lookBeforeParking(maySpin, spins, yields, Thread::yield, System::nanoTime);
    }

    /** {@link #lookBeforeParking(boolean, int, int)} with the yield and the wall clock given (tests run the submitter in the yield). */
    boolean lookBeforeParking(boolean maySpin, int spins, int yields, Runnable yield, LongSupplier wallClock) {
        if (work.hasReadyObjects()) {
            return yieldForWork(yields, yield, wallClock); // counted, not yet pushed (or being taken): yield, never spin
        }
        return (maySpin && spinForWork(spins)) || yieldForWork(yields, yield, wallClock);
    }

    /**
     * Before an idle worker parks (after its spin, or instead of it where spinning is not free):
     * yields its processor, looking for work after each yield. Where producers share the processors
     * with the workers (more threads want to run than there are processors), a worker that parks as
     * soon as it runs dry costs the producer an unpark system call for the next entry, and one that
     * spins keeps the processor from the producer; a yielding worker lets a thread waiting for its
     * processor run and stays awake, so the producer's {@link #signal} finds no idle worker and
     * returns at once (docs/benchmarks.md, "Fewer wake-ups", has the measurements).
     *
     * <p>Unlike the spin, a worker yields also when more workers are awake than there are
     * processors ({@link #spinningIsFree()} false): a yield hands the processor to a thread waiting
     * for it, where a spin would hold it, so adding workers beyond the processors costs no
     * throughput (W6 in docs/benchmarks.md).
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
     * selecting or spinning; the caller is one) do not outnumber the processors. A worker with more
     * workers awake than processors would spin on a core that another worker, or a producer, needs:
     * with more workers than processors, spinning workers take time slices from working ones. Skipping the
     * spin is always correct (spinning only saves a wake-up, see the class comment).
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
