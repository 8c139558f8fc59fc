package io.appbackplane.internal.scheduling;

import static org.assertj.core.api.Assertions.assertThat;

import io.appbackplane.CpuLimit;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * {@link CpuBudget#charge(long, long, long)}: CPU time read over an interval that a real tick cut is
 * split at the tick in proportion to the time on either side (scheduling rule 5),
 * which is what a worker's thread-CPU readings rely on in production.
 */
class CpuBudgetSplitTest {

    private static final long MS = 1_000_000;

    private final CpuBudget budget = new CpuBudget(CpuLimit.ofCores(1), Duration.ofSeconds(1), 1, 0);

    @Test
    void aReadingInsideThePeriod_isChargedToItWhole() {
        budget.charge(30 * MS, 100 * MS, 400 * MS);
        assertThat(budget.usedThisPeriod()).isEqualTo(30 * MS);
    }

    @Test
    void aReadingAcrossTheTick_isSplitInProportionToTheTimeOnEitherSide() {
        budget.charge(100 * MS, 200 * MS, 900 * MS);
        budget.realTick(1000 * MS);
        budget.charge(400 * MS, 800 * MS, 1200 * MS); // half before the tick, half after

        assertThat(budget.usedThisPeriod()).isEqualTo(200 * MS);
        assertThat(budget.usedLastPeriod()).isEqualTo(300 * MS);
    }

    @Test
    void aReadingThatEndedBeforeTheTick_goesToTheOldPeriod() {
        budget.realTick(1000 * MS);
        budget.charge(5 * MS, 950 * MS, 990 * MS); // a worker that woke after the tick reads what it used before parking

        assertThat(budget.usedThisPeriod()).isZero();
        assertThat(budget.usedLastPeriod()).isEqualTo(5 * MS);
    }

    @Test
    void aReadingAcrossTwoTicks_chargesTheLastPeriodOnlyItsOwnShare() {
        budget.realTick(1000 * MS);
        budget.charge(100 * MS, 1200 * MS, 1900 * MS); // the last period's own use
        budget.realTick(2000 * MS);
        // 400 ms of CPU read over 500-2500 ms: 100 ms fell in the period before the last one (its
        // record is gone), 200 ms in the last period, 100 ms in the current one.
        budget.charge(400 * MS, 500 * MS, 2500 * MS);

        assertThat(budget.usedThisPeriod()).isEqualTo(100 * MS);
        assertThat(budget.usedLastPeriod()).isEqualTo(300 * MS);
    }

    @Test
    void aReadingThatEndedBeforeTheLastPeriod_isChargedToNoKeptRecord() {
        budget.realTick(1000 * MS);
        budget.realTick(2000 * MS);
        budget.charge(5 * MS, 600 * MS, 700 * MS); // a worker parked across two ticks reads what it used before

        assertThat(budget.usedThisPeriod()).isZero();
        assertThat(budget.usedLastPeriod()).isZero();
    }
}
