package io.appbackplane.internal.scheduling;

import io.appbackplane.Action;
import io.appbackplane.ActionContext;
import io.appbackplane.internal.LincheckScenarios;
import io.appbackplane.internal.objects.NothingTaken;
import io.appbackplane.internal.objects.ReadyEntry;
import io.appbackplane.internal.objects.Selection;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.jetbrains.kotlinx.lincheck.Actor;
import org.jetbrains.kotlinx.lincheck.execution.ExecutionScenario;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.jetbrains.lincheck.datastructures.StressOptions;
import org.jetbrains.lincheck.datastructures.Validate;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Lincheck test of {@link IdleWorkers}' parking protocol ("parking without lost wake-ups" and
 * "spinning workers take over the producer's wake-up"): a lost wake-up shows as a worker parked
 * forever, which Lincheck's model checking reports as a hang.
 *
 * <p>The harness runs the real code: a real {@link WorkerPool} with no threads of its own (target
 * 0), its {@link IdleWorkers#lookBeforeParking} (a short spin, counted, then yields, not counted),
 * {@link IdleWorkers#awaitWork}
 * (announce, second look through the real {@link RunnableWork#hasRunnableWork()}, park), {@link
 * IdleWorkers#tookWorkAfterIdle} (wake another for what is left) and {@link IdleWorkers#signal} (skip
 * while a worker spins, else CAS a flag and unpark), over a real {@link Scheduler} and {@link
 * ReadyQueues}. Only the park itself is the harness's ({@link StandIn}): Lincheck models {@code
 * LockSupport.park} as possibly spurious and, in user code, lets it return at once. Lincheck
 * threads stand in for workers ({@link IdleWorkers#enlist}): {@code workerLoopOnce} is the worker's
 * loop (select; on NONE spin, yield, then await; after taking an entry following a spin, the
 * yields or a park, {@code tookWorkAfterIdle}) until it takes an entry; {@code
 * workerLoopOnceWithoutSpin} is the loop of a worker that may not spin (more workers awake than
 * processors), which only yields before it parks. Submitters do what a submit does: make an object
 * READY, push its entry, then signal ({@link Scheduler#push} pushes and calls {@code
 * backplane.signalWork()}, which is {@code workers.signal()}; the shared backplane is in step mode,
 * so the harness calls {@code IdleWorkers.signal} itself, right after the push, in the same order).
 *
 * <p>A real worker would park forever when nothing is ever submitted again; that is no bug, but a
 * hang all the same. So a stand-in waits only for work it is owed: each submit counts itself
 * ({@code started}) before its entry exists, and a worker, on starting, claims one of the started
 * submits nobody has claimed, or leaves at once. A claiming worker stays until it takes an entry
 * (any entry: claims never exceed submits, so there is one for every claimant). Its one check comes
 * before any look for work, so it cannot hide a lost wake-up. Workers run in parallel: a worker that
 * took its entry leaves, as a real worker busy with a long action would stay away, so an entry left
 * queued behind it must wake another worker (the cascade of {@code tookWorkAfterIdle}).
 *
 * <p>{@code @Validate}: every submitted entry was taken or is still queued, no worker is idle or
 * spinning.
 *
 * <p>Checked to bite: with the second look removed from {@code awaitWork}, or done before the
 * announce, the tests fail with "The execution has hung" on {@code workerLoopOnce() || submit}
 * (the submit pushes and reads {@code idle == 0} between the worker's look and its park). A missing
 * cascade ({@code tookWorkAfterIdle} a no-op) needs an interleaving of six switches, which model
 * checking did not reach in 20,000 invocations; {@code WorkerWakeCascadeTest} drives that one
 * interleaving by hand and fails on it.
 */
public class WorkerParkingLincheckTest {

    /** The stand-in's spin before it parks: short, so model checking explores it fully. */
    static final int SPINS = 2;

    /** The stand-in's yields after its spin (not counted as spinning): short for the same reason. */
    static final int YIELDS = 1;

    /** An action that is never run: the worker only takes objects. */
    static final class NeverRun implements Action<Object> {
        static final NeverRun INSTANCE = new NeverRun();

        @Override
        public Object run(ActionContext context) {
            throw new AssertionError("the harness runs no user code");
        }
    }

    /**
     * A Lincheck thread standing in for a worker thread, with {@code LockSupport}'s park semantics
     * minus spurious wake-ups: {@link #park} returns once a permit is there (an {@link #unpark}
     * before or during the park), never otherwise. Lincheck's model checking lets every user-code
     * {@code LockSupport.park} return at once (a spurious wake-up), after which the worker's loop
     * simply selects again, so a real park could never show a lost wake-up; this one waits, and a
     * wait that no thread will end is reported by Lincheck as a hang.
     */
    static final class StandIn extends Parker {
        private final Thread thread = Thread.currentThread();
        private final AtomicBoolean permit = new AtomicBoolean();

        @Override
        Thread thread() {
            return thread;
        }

        @Override
        void park(long parkNanos) {
            while (!permit.compareAndSet(true, false)) {
                Thread.onSpinWait(); // parked: only an unpark ends this
            }
        }

        @Override
        void unpark() {
            permit.set(true);
        }
    }

    public static class Parking {

        private final IdleWorkersHarness parts = new IdleWorkersHarness();
        private final Scheduler scheduler = parts.scheduler;
        private final IdleWorkers workers = parts.workers;
        /** Submits begun (counted before the entry is pushed); also the next key. */
        private final AtomicInteger started = new AtomicInteger();
        /** Workers that stay until they take an entry; never more than {@code started}. */
        private final AtomicInteger claimed = new AtomicInteger();
        private final AtomicInteger taken = new AtomicInteger();

        public Parking() {}

        /** A submit to a fresh key: the object goes IDLE → READY, its entry is pushed, a worker signalled. */
        @Operation
        public void submit(@Param(gen = IntGen.class, conf = "0:1") int priority) {
            parts.submit(started.incrementAndGet(), priority);
        }

        /** The worker's loop until it takes an entry, or nothing when no started submit is left to claim. */
        @Operation
        public void workerLoopOnce() {
            workerLoopOnce(true);
        }

        /**
         * {@link #workerLoopOnce()} of a worker that may not spin (more workers awake than
         * processors): it only yields before it parks.
         */
        @Operation
        public void workerLoopOnceWithoutSpin() {
            workerLoopOnce(false);
        }

        private void workerLoopOnce(boolean spins) {
            if (!claimOne()) {
                return; // owed nothing: a real worker would park until the next submit
            }
            StandIn me = new StandIn();
            workers.enlist(me);
            try {
                boolean backFromIdle = false; // a real worker comes here from a turn of its own
                while (true) {
                    Selection selected = scheduler.select();
                    if (selected instanceof ReadyEntry) {
                        taken.incrementAndGet(); // the object stays RUNNING: nothing else looks at it
                        if (backFromIdle) {
                            workers.tookWorkAfterIdle();
                        }
                        return;
                    }
                    require(selected == NothingTaken.NOTHING_READY, "throttled without a CPU limit");
                    if (!workers.lookBeforeParking(spins, SPINS, YIELDS)) {
                        workers.awaitWork(me, 0); // parks forever if the wake-up is lost
                    }
                    backFromIdle = true;
                }
            } finally {
                workers.delist(me);
            }
        }

        private boolean claimOne() {
            while (true) {
                int c = claimed.get();
                if (c >= started.get()) {
                    return false;
                }
                if (claimed.compareAndSet(c, c + 1)) {
                    return true;
                }
            }
        }

        @Validate
        public void validate() {
            require(workers.idle() == 0, workers.idle() + " workers still idle");
            require(workers.spinning() == 0, workers.spinning() + " workers still spinning");
            int queued = 0;
            while (scheduler.select() instanceof ReadyEntry) {
                queued++;
            }
            require(taken.get() + queued == started.get(),
                    started.get() + " submitted but " + taken.get() + " taken and " + queued + " queued");
        }

        private static void require(boolean condition, String message) {
            if (!condition) {
                throw new AssertionError(message);
            }
        }
    }

    /** The lost wake-up's own scenario, explored on every run whatever the random generator picks: one worker, one submit. */
    @Test
    public void workerAgainstSubmit_modelChecking() {
        new ModelCheckingOptions()
                .iterations(0) // no random scenarios: only the custom one
                .invocationsPerIteration(200)
                .addCustomScenario(workerAgainstSubmit())
                .check(Parking.class);
    }

    /**
     * The cascade's own scenario: two submits skip their wake-up while a worker spins; the spinner
     * must wake the other worker for the second entry.
     */
    @Test
    public void twoWorkersAgainstTwoSubmits_modelChecking() {
        cascade(500).check(Parking.class);
    }

    /** Random scenarios: two threads of three operations plus init and post parts. */
    @Test
    public void parking_modelChecking() {
        LincheckScenarios.quick(modelChecking(1)).check(Parking.class);
    }

    @Test
    @Tag("stress")
    public void longRun() {
        cascade(2_000).check(Parking.class);
        modelChecking(10).check(Parking.class);
        modelChecking(5).threads(3).check(Parking.class);
        new StressOptions()
                .iterations(50)
                .invocationsPerIteration(1000)
                .threads(3)
                .actorsPerThread(3)
                .actorsBefore(1)
                .actorsAfter(1)
                .check(Parking.class);
    }

    /** {@code workerLoopOnce() || submit(0)}, built by hand (Lincheck's scenario DSL takes Kotlin lambdas). */
    static ExecutionScenario workerAgainstSubmit() {
        try {
            Actor worker = new Actor(Parking.class.getMethod("workerLoopOnce"), List.of());
            Actor submit = new Actor(Parking.class.getMethod("submit", int.class), List.<Object>of(0));
            // Lincheck sets the @Validate function of a custom scenario itself.
            return new ExecutionScenario(List.of(), List.of(List.of(worker), List.of(submit)), List.of(), null);
        } catch (NoSuchMethodException e) {
            throw new AssertionError(e);
        }
    }

    /**
     * {@code workerLoopOnce() || workerLoopOnce() || submit(0) || submit(0)}: the submits run in
     * threads of their own, so that both can count themselves before either pushes, and a worker can
     * claim the second and park before the first entry exists.
     */
    static ExecutionScenario twoWorkersAgainstTwoSubmits() {
        try {
            Actor worker = new Actor(Parking.class.getMethod("workerLoopOnce"), List.of());
            Actor submit = new Actor(Parking.class.getMethod("submit", int.class), List.<Object>of(0));
            return new ExecutionScenario(List.of(),
                    List.of(List.of(worker), List.of(worker), List.of(submit), List.of(submit)), List.of(), null);
        } catch (NoSuchMethodException e) {
            throw new AssertionError(e);
        }
    }

    /** {@link #twoWorkersAgainstTwoSubmits} alone, in {@code invocations} interleavings. */
    static ModelCheckingOptions cascade(int invocations) {
        return new ModelCheckingOptions()
                .iterations(0)
                .invocationsPerIteration(invocations)
                .addCustomScenario(twoWorkersAgainstTwoSubmits());
    }

    static ModelCheckingOptions modelChecking(int scale) {
        return new ModelCheckingOptions()
                .iterations(10 * scale)
                .invocationsPerIteration(100)
                .threads(2)
                .actorsPerThread(3)
                .actorsBefore(1)
                .actorsAfter(1);
    }
}
