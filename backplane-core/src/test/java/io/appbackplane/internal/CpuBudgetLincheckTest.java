package io.appbackplane.internal;

import io.appbackplane.CpuLimit;
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
 * Lincheck tests of {@link CpuBudget}: workers charge action time and ask whether an action may
 * start; one timer ticks. Times are fixed parameters (no clock): a period of {@value #PERIOD} ns in
 * {@value #SLICES} slices with a limit of one core, so the budget is {@value #PERIOD} ns.
 *
 * <p>{@link Charges}: charges and reads between ticks, compared exactly against a sequential run.
 * {@link Ticks}: charges racing the timer's real tick. A tick resets the use and then moves the
 * period start, two steps, so a read overlapping it may see the new use with the old start (benign:
 * only the budget released in the first slice differs); there the harness compares only the ticks'
 * start times and checks that no charge is lost: {@code Σ charged = Σ usedLastPeriod at each tick +
 * usedThisPeriod}, and that {@code mayStart(t) ⇔ usedThisPeriod < released(t) ≤ budget} once quiet.
 */
public class CpuBudgetLincheckTest {

    static final long PERIOD = 100;
    static final int SLICES = 4;
    /** Times the operations use, in ns: inside slices 1..4, and past the period. */
    static final long[] TIMES = {0, 30, 60, 99, 130};

    static CpuBudget newBudget() {
        return new CpuBudget(CpuLimit.ofCores(1), Duration.ofNanos(PERIOD), SLICES, 0);
    }

    /** Charges and reads between ticks: linearizable. */
    public static class Charges {

        private final CpuBudget budget = newBudget();

        public Charges() {}

        @Operation
        public void charge(@Param(gen = IntGen.class, conf = "1:40") int runNanos) {
            budget.charge(runNanos);
        }

        @Operation
        public boolean mayStart(@Param(gen = IntGen.class, conf = "0:4") int time) {
            return budget.mayStart(TIMES[time]);
        }

        @Operation
        public long usedThisPeriod() {
            return budget.usedThisPeriod();
        }

        @Operation
        public long released(@Param(gen = IntGen.class, conf = "0:4") int time) {
            return budget.released(TIMES[time]);
        }
    }

    /** Charges racing real ticks (one timer thread); see the class comment for what is compared. */
    public static class Ticks {

        private final CpuBudget budget = newBudget();
        private final AtomicLong charged = new AtomicLong();
        /** Written only by the timer operation. */
        private volatile long usedInEndedPeriods;

        public Ticks() {}

        @Operation
        public void charge(@Param(gen = IntGen.class, conf = "1:40") int runNanos) {
            budget.charge(runNanos);
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
        stress(1).check(Charges.class);
    }

    @Test
    public void charges_modelChecking_linearizable() {
        modelChecking(1).check(Charges.class);
    }

    @Test
    public void ticks_stress_noChargeLost() {
        stress(1).check(Ticks.class);
    }

    @Test
    public void ticks_modelChecking_noChargeLost() {
        modelChecking(1).check(Ticks.class);
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
