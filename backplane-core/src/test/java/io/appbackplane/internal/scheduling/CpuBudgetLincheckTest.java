package io.appbackplane.internal.scheduling;

import io.appbackplane.CpuLimit;
import io.appbackplane.internal.LincheckScenarios;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.jetbrains.lincheck.datastructures.StressOptions;
import org.jetbrains.lincheck.datastructures.Validate;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Lincheck tests of {@link CpuBudget}: workers charge action time with {@link CpuBudget#charge(long,
 * long, long)} (what {@code CpuMeter} calls: the CPU used and the interval it was used in, split at
 * the period starts) and ask whether an action may start; one timer ticks. Times are fixed
 * parameters (no clock): a period of {@value #PERIOD} ns in {@value #SLICES} slices with a limit of
 * one core, so the budget is {@value #PERIOD} ns.
 *
 * <p>{@link Charges}: charges and reads between ticks, two periods in: a charge's interval may lie
 * in the current period, straddle its start, lie in the last period, straddle the last period's
 * start or lie before it, or be an instant. Compared exactly against a sequential run, and the uses
 * against an independent reference of the split ({@link #expectedSplit}). {@link Ticks}: charges of
 * actions that ran in the current period racing the timer's real tick. A tick resets the use and
 * then moves the period start, two steps, so a read overlapping it may see the new use with the old
 * start (benign: only the budget released in the first slice differs); there the harness compares
 * only the ticks' start times and checks that no charge is lost: {@code Σ charged = Σ
 * usedLastPeriod at each tick + usedThisPeriod}, and that {@code mayStart(t) ⇔ usedThisPeriod <
 * released(t) ≤ budget} once quiet.
 */
public class CpuBudgetLincheckTest {

    static final long PERIOD = 100;
    static final int SLICES = 4;
    /** Times the operations use, in ns: inside slices 1..4, and past the period. */
    static final long[] TIMES = {0, 30, 60, 99, 130};

    static CpuBudget newBudget() {
        return new CpuBudget(CpuLimit.ofCores(1), Duration.ofNanos(PERIOD), SLICES, 0);
    }

    /** Where {@link Charges}' periods start: the last one at {@value #LAST_START}, the current one at {@value #CURRENT_START}. */
    static final long LAST_START = PERIOD;
    static final long CURRENT_START = 2 * PERIOD;
    /**
     * Ends of {@link Charges}' intervals: before the last period, in it, in the current one. Every
     * pair (from ≤ to) is one of the split's cases.
     */
    static final long[] INTERVAL_ENDS = {50, 130, 180, 230, 290};

    /**
     * The reference split, written apart from {@link CpuBudget}: {@code cpu} used evenly over
     * {@code [from, to]} goes to each period in proportion to the overlap (rounded down), the
     * current period's part to {@code [0]}, the last period's to {@code [1]}, a part before the last
     * period to neither; an interval that starts in the current period is all its own, an instant
     * all its period's.
     */
    static long[] expectedSplit(long cpu, long from, long to) {
        if (from >= CURRENT_START) {
            return new long[] {cpu, 0};
        }
        if (from == to) {
            return new long[] {0, from >= LAST_START ? cpu : 0};
        }
        long wall = to - from;
        long inCurrent = overlap(from, to, CURRENT_START, Long.MAX_VALUE);
        long inLast = overlap(from, to, LAST_START, CURRENT_START);
        return new long[] {cpu * inCurrent / wall, cpu * inLast / wall};
    }

    private static long overlap(long from, long to, long periodFrom, long periodTo) {
        return Math.max(0, Math.min(to, periodTo) - Math.max(from, periodFrom));
    }

    /** Charges and reads between ticks: linearizable, and the uses are the reference split's sums. */
    public static class Charges {

        private final CpuBudget budget = newBudget();
        private final AtomicLong expectedThisPeriod = new AtomicLong();
        private final AtomicLong expectedLastPeriod = new AtomicLong();

        public Charges() {
            budget.realTick(LAST_START);
            budget.realTick(CURRENT_START);
        }

        /** {@code runNanos} of CPU used between two of {@link #INTERVAL_ENDS} (taken in order). */
        @Operation
        public void charge(@Param(gen = IntGen.class, conf = "1:40") int runNanos,
                @Param(gen = IntGen.class, conf = "0:4") int end1, @Param(gen = IntGen.class, conf = "0:4") int end2) {
            long from = Math.min(INTERVAL_ENDS[end1], INTERVAL_ENDS[end2]);
            long to = Math.max(INTERVAL_ENDS[end1], INTERVAL_ENDS[end2]);
            budget.charge(runNanos, from, to);
            long[] split = expectedSplit(runNanos, from, to);
            expectedThisPeriod.addAndGet(split[0]);
            expectedLastPeriod.addAndGet(split[1]);
        }

        @Operation
        public boolean mayStart(@Param(gen = IntGen.class, conf = "0:4") int time) {
            return budget.mayStart(CURRENT_START + TIMES[time]);
        }

        @Operation
        public long usedThisPeriod() {
            return budget.usedThisPeriod();
        }

        @Operation
        public long released(@Param(gen = IntGen.class, conf = "0:4") int time) {
            return budget.released(CURRENT_START + TIMES[time]);
        }

        @Validate
        public void usesAreTheReferenceSplit() {
            if (budget.usedThisPeriod() != expectedThisPeriod.get() || budget.usedLastPeriod() != expectedLastPeriod.get()) {
                throw new AssertionError("used " + budget.usedThisPeriod() + " this period and " + budget.usedLastPeriod()
                        + " last, the reference split says " + expectedThisPeriod.get() + " and " + expectedLastPeriod.get());
            }
        }
    }

    /** Charges racing real ticks (one timer thread); see the class comment for what is compared. */
    public static class Ticks {

        private final CpuBudget budget = newBudget();
        private final AtomicLong charged = new AtomicLong();
        /** Written only by the timer operation. */
        private volatile long usedInEndedPeriods;

        public Ticks() {}

        /** An action that ran {@code runNanos} in the current period, whichever tick started it (its interval is after all of them). */
        @Operation
        public void charge(@Param(gen = IntGen.class, conf = "1:40") int runNanos) {
            long end = TIMES[TIMES.length - 1] + PERIOD;
            budget.charge(runNanos, end - runNanos, end);
            charged.addAndGet(runNanos);
        }

        @Operation
        public void mayStart(@Param(gen = IntGen.class, conf = "0:4") int time) {
            budget.mayStart(TIMES[time]);
        }

        /** The period start is one volatile write, so {@code released} is compared exactly. */
        @Operation
        public long released(@Param(gen = IntGen.class, conf = "0:4") int time) {
            return budget.released(TIMES[time]);
        }

        @Operation(nonParallelGroup = "timer")
        public void realTick(@Param(gen = IntGen.class, conf = "0:4") int time) {
            budget.realTick(TIMES[time]);
            usedInEndedPeriods += budget.usedLastPeriod();
        }

        @Validate
        public void noChargeLostAndBudgetConsistent() {
            long used = budget.usedThisPeriod();
            if (charged.get() != usedInEndedPeriods + used) {
                throw new AssertionError("charged " + charged.get() + " but ended periods used " + usedInEndedPeriods
                        + " and this one " + used);
            }
            for (long t : TIMES) {
                long released = budget.released(t);
                if (released <= 0 || released > budget.budgetNanos()) {
                    throw new AssertionError("released(" + t + ") = " + released + " of " + budget.budgetNanos());
                }
                if (budget.mayStart(t) != used < released) {
                    throw new AssertionError("mayStart(" + t + ") disagrees with used " + used + " < released " + released);
                }
            }
        }
    }

    @Test
    public void charges_stress_linearizable() {
        LincheckScenarios.quick(stress(1)).check(Charges.class);
    }

    @Test
    public void charges_modelChecking_linearizable() {
        LincheckScenarios.quick(modelChecking(1)).check(Charges.class);
    }

    @Test
    public void ticks_stress_noChargeLost() {
        LincheckScenarios.quick(stress(1)).check(Ticks.class);
    }

    @Test
    public void ticks_modelChecking_noChargeLost() {
        LincheckScenarios.quick(modelChecking(1)).check(Ticks.class);
    }

    @Test
    @Tag("stress")
    public void longRun() {
        stress(10).check(Charges.class);
        modelChecking(10).check(Charges.class);
        stress(10).check(Ticks.class);
        modelChecking(10).check(Ticks.class);
    }

    static StressOptions stress(int scale) {
        return LincheckScenarios.stress(scale, 1_000);
    }

    static ModelCheckingOptions modelChecking(int scale) {
        return LincheckScenarios.modelChecking(scale, 300);
    }
}
