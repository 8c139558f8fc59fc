package io.appbackplane.internal.components;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.appbackplane.internal.LincheckScenarios;
import io.appbackplane.internal.base.WorkerThread;
import java.util.concurrent.atomic.AtomicInteger;
import org.jetbrains.lincheck.LincheckAssertionError;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.StressOptions;
import org.jetbrains.lincheck.datastructures.Validate;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Lincheck tests of {@link AdmissionCounter}: admissions race finishes and reads, and the limit is
 * never exceeded. The counter is not linearizable as a whole (a read of two counters is no atomic
 * snapshot, and an admission at the limit may see a finish late and turn a request away), so the
 * operations return nothing and check the contract instead: the requests the harness holds
 * (admitted, not yet finished) never exceed the limit; {@code outstanding()} stays within 0..limit;
 * {@code isZero()} never says 0 while the reading thread itself holds a request; after each scenario
 * ({@code @Validate}) {@code outstanding()} equals what the harness holds and {@code isZero()} says
 * whether that is 0. A check-then-act limiter, and a zero check that reads the counters in the wrong
 * order, are caught in the same harness, which shows the checks bite.
 */
public class AdmissionCounterLincheckTest {

    static final int LIMIT = 2;

    /** The harness: admit, finish one held request, read; over any limiter. */
    public abstract static class Harness {
        /** Requests the harness was admitted and has not finished: at most the true outstanding count. */
        private final AtomicInteger held = new AtomicInteger();
        /** Of those, the ones the calling thread holds: only it finishes them, so they stay outstanding while it reads. */
        private final ThreadLocal<int[]> mine = ThreadLocal.withInitial(() -> new int[1]);

        abstract boolean tryAdmit();

        abstract void finish();

        abstract int outstanding();

        abstract boolean isZero();

        @Operation
        public void admit() {
            if (tryAdmit()) {
                mine.get()[0]++;
                int now = held.incrementAndGet(); // after the admission: never more than are outstanding
                check(now <= LIMIT, "held " + now + " requests with a limit of " + LIMIT);
            }
        }

        @Operation
        public void finishOne() {
            int[] own = mine.get();
            if (own[0] > 0) {
                own[0]--;
                held.decrementAndGet(); // before the finish: never more than are outstanding
                finish();
            }
        }

        @Operation
        public void read() {
            int outstanding = outstanding();
            check(outstanding >= 0 && outstanding <= LIMIT, "outstanding() = " + outstanding + ", limit " + LIMIT);
            boolean zero = isZero();
            check(!zero || mine.get()[0] == 0, "isZero() while this thread holds " + mine.get()[0] + " requests");
        }

        @Validate
        public void countsAgree() {
            int expected = held.get();
            check(outstanding() == expected, "outstanding() = " + outstanding() + ", held " + expected);
            check(isZero() == (expected == 0), "isZero() = " + isZero() + ", held " + expected);
        }

        private static void check(boolean condition, String message) {
            if (!condition) {
                throw new IllegalStateException(message);
            }
        }
    }

    /** The real counter. */
    public static class Admissions extends Harness {
        final AdmissionCounter counter = new AdmissionCounter();

        public Admissions() {}

        @Override
        boolean tryAdmit() {
            return counter.tryAdmit(LIMIT);
        }

        @Override
        void finish() {
            counter.finish();
        }

        @Override
        int outstanding() {
            return counter.outstanding();
        }

        @Override
        boolean isZero() {
            return counter.isZero();
        }
    }

    /**
     * The real counter with finishes counted as workers count them: each harness thread holds a
     * worker slot of its own (only it writes that slot's tally) and counts every other finish as a
     * thread that is not a worker, so both ways of counting race the reads.
     */
    public static class WorkerAdmissions extends Admissions {
        /** Slots per counter, so each scenario's few threads get small slot numbers (0, 1, 2). */
        private final AtomicInteger slots = new AtomicInteger();
        private final ThreadLocal<Integer> slot = ThreadLocal.withInitial(slots::getAndIncrement);
        private final ThreadLocal<boolean[]> asWorker = ThreadLocal.withInitial(() -> new boolean[1]);

        public WorkerAdmissions() {}

        @Override
        void finish() {
            boolean[] worker = asWorker.get();
            worker[0] = !worker[0];
            counter.finish(worker[0] ? slot.get() : WorkerThread.NO_SLOT);
        }
    }

    /** A limiter that reads, compares and then increments: two admissions can pass one free place. */
    public static class CheckThenActAdmissions extends Harness {
        private final AtomicInteger outstanding = new AtomicInteger();

        public CheckThenActAdmissions() {}

        @Override
        boolean tryAdmit() {
            if (outstanding.get() >= LIMIT) {
                return false;
            }
            outstanding.incrementAndGet();
            return true;
        }

        @Override
        void finish() {
            outstanding.decrementAndGet();
        }

        @Override
        int outstanding() {
            return outstanding.get();
        }

        @Override
        boolean isZero() {
            return outstanding.get() == 0;
        }
    }

    /**
     * Outstanding as two counters read in the wrong order for the drained check (admitted, then
     * finished): another thread's admission and finish in between make it say 0 while a request is
     * outstanding.
     */
    public static class AdmittedFirstAdmissions extends Harness {
        private final AtomicInteger admitted = new AtomicInteger();
        private final AtomicInteger finished = new AtomicInteger();

        public AdmittedFirstAdmissions() {}

        @Override
        boolean tryAdmit() {
            while (true) {
                int done = finished.get(); // first: the estimate is never too low, so the limit holds
                int a = admitted.get();
                if (a - done >= LIMIT) {
                    return false;
                }
                if (admitted.compareAndSet(a, a + 1)) {
                    return true;
                }
            }
        }

        @Override
        void finish() {
            finished.incrementAndGet();
        }

        @Override
        int outstanding() {
            int a = admitted.get(); // first, as AdmissionCounter.outstanding does
            return Math.max(0, a - finished.get());
        }

        @Override
        boolean isZero() {
            int a = admitted.get(); // the defect: admitted first
            return a == finished.get();
        }
    }

    @Test
    public void admissions_stress_neverOverTheLimit() {
        LincheckScenarios.quick(stress(1)).check(Admissions.class);
    }

    @Test
    public void admissions_modelChecking_neverOverTheLimit() {
        LincheckScenarios.quick(modelChecking(1)).check(Admissions.class);
    }

    @Test
    public void workerFinishes_stress_neverOverTheLimit() {
        LincheckScenarios.quick(stress(1)).check(WorkerAdmissions.class);
    }

    @Test
    public void workerFinishes_modelChecking_neverOverTheLimit() {
        LincheckScenarios.quick(modelChecking(1)).check(WorkerAdmissions.class);
    }

    @Test
    public void checkThenAct_modelChecking_isCaught() {
        LincheckAssertionError caught = assertThrows(LincheckAssertionError.class,
                () -> modelChecking(1).minimizeFailedScenario(false).check(CheckThenActAdmissions.class));
        assertTrue(caught.getMessage().contains("with a limit of " + LIMIT), caught::getMessage);
    }

    @Test
    public void admittedFirstZeroCheck_modelChecking_isCaught() {
        LincheckAssertionError caught = assertThrows(LincheckAssertionError.class,
                () -> modelChecking(5).minimizeFailedScenario(false).check(AdmittedFirstAdmissions.class));
        assertTrue(caught.getMessage().contains("isZero() while this thread holds"), caught::getMessage);
    }

    @Test
    @Tag("stress")
    public void admissions_longRun() {
        stress(10).check(Admissions.class);
        modelChecking(10).check(Admissions.class);
        stress(10).check(WorkerAdmissions.class);
        modelChecking(10).check(WorkerAdmissions.class);
    }

    static StressOptions stress(int scale) {
        return LincheckScenarios.stress(scale, 500);
    }

    static ModelCheckingOptions modelChecking(int scale) {
        return LincheckScenarios.modelChecking(scale, 300);
    }
}
