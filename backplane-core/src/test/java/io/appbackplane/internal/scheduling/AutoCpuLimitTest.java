package io.appbackplane.internal.scheduling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.appbackplane.CpuLimit;
import io.appbackplane.CpuQuota;
import io.appbackplane.internal.scheduling.CgroupCpuQuota.Throttling;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The {@code auto} CPU limit ({@link AutoCpuLimit} driving a {@link CpuBudget}): the budget of each
 * period is the quota's share less what the rest of the process is estimated to use (its moving
 * mean), the quota re-read at every real tick; the share of the quota aimed at lowered for each
 * kernel period the cgroup was throttled in and raised for each it was not, so that it holds where
 * the kernel throttles 1 % of periods.
 * Time and CPU are given by hand, so every number is exact.
 */
class AutoCpuLimitTest {

    private static final long MS = 1_000_000;
    private static final long SECOND = 1000 * MS;

    private final AtomicReference<Optional<CpuQuota>> quota = new AtomicReference<>(Optional.of(new CpuQuota(1.0, "test")));
    private final AtomicLong processCpu = new AtomicLong();
    private final AtomicReference<Optional<Throttling>> throttling = new AtomicReference<>(Optional.empty());
    private final CpuBudget budget = new CpuBudget(CpuLimit.ofCores(2), Duration.ofSeconds(1), 1, 0);

    private void followAt(long now) {
        budget.follow(new AutoCpuLimit(quota::get, processCpu::get, q -> throttling.get(), now));
    }

    /** One period: the workers charge {@code workers}, the process as a whole uses {@code process}; then the tick. */
    private void period(long tickAt, long workers, long process) {
        budget.charge(workers, tickAt - 1, tickAt - 1); // inside the period that tickAt ends
        processCpu.addAndGet(process);
        budget.realTick(tickAt);
    }

    @Test
    void beforeAnyTick_theBudgetIsTheQuotasShare() {
        followAt(0);

        assertThat(budget.limit()).isEqualTo(CpuLimit.auto());
        assertThat(budget.isLimited()).isTrue();
        assertThat(budget.coresInForce()).isCloseTo(AutoCpuLimit.TARGET_SHARE, within(1e-9));
    }

    @Test
    void whatTheRestOfTheProcessUses_isLeftToIt() {
        followAt(0);

        period(SECOND, 600 * MS, 900 * MS); // the rest of the process used 300 ms in 1 s

        assertThat(budget.auto().restCores()).isCloseTo(0.3, within(1e-9));
        assertThat(budget.coresInForce()).isCloseTo(0.95 - 0.3, within(1e-9));
        assertThat(budget.budgetNanos()).isCloseTo(650 * MS, within(1L));
    }

    @Test
    void aSteadyRestCostsNoMargin() {
        followAt(0);
        for (int s = 1; s <= 5; s++) {
            period(s * SECOND, 500 * MS, 700 * MS);
        }

        assertThat(budget.auto().restCores()).isCloseTo(0.2, within(1e-9));
        assertThat(budget.coresInForce()).isCloseTo(0.75, within(1e-9));
    }

    @Test
    void aBurstyRestAveragingAQuarterOfTheQuota_leavesTheWorkersHalfACoreOrMore() {
        followAt(0);
        double least = Double.MAX_VALUE;
        for (int s = 1; s <= 39; s++) {
            // three quiet seconds at 0.05 cores, then one at 0.85 (the JIT compiler, a wave of requests): 0.25 on average
            period(s * SECOND, 0, s % 4 == 0 ? 850 * MS : 50 * MS);
            if (s > 8) {
                least = Math.min(least, budget.coresInForce());
            }
        }

        assertThat(least).as("the budget never drops below half the quota for the rest's bursts").isGreaterThanOrEqualTo(0.5);
        assertThat(budget.auto().restCores()).as("the rest's mean, right after three quiet seconds").isCloseTo(0.173, within(1e-3));
    }

    @Test
    void aBurstOfTheRestRaisesTheEstimateByItsWeight_andItDecays() {
        followAt(0);
        period(SECOND, 0, 200 * MS);
        assertThat(budget.auto().restCores()).isCloseTo(0.2, within(1e-9));

        period(2 * SECOND, 0, SECOND); // a whole core for a second: the mean moves a quarter of the way
        assertThat(budget.auto().restCores()).isCloseTo(0.4, within(1e-9));
        assertThat(budget.coresInForce()).isCloseTo(0.55, within(1e-9));

        period(3 * SECOND, 0, 200 * MS);
        assertThat(budget.auto().restCores()).isCloseTo(0.35, within(1e-9));
    }

    @Test
    void whenTheRestAloneUsesTheQuota_theBudgetStaysAtItsFloor() {
        followAt(0);

        period(SECOND, 0, 1500 * MS);

        assertThat(budget.coresInForce()).isCloseTo(AutoCpuLimit.MIN_SHARE, within(1e-9));
        assertThat(budget.isLimited()).isTrue();
    }

    @Test
    void aResizedContainerIsFollowedAtTheNextTick() {
        followAt(0);
        period(SECOND, 500 * MS, 500 * MS);
        assertThat(budget.coresInForce()).isCloseTo(0.95, within(1e-9));

        quota.set(Optional.of(new CpuQuota(2.0, "test")));
        period(2 * SECOND, 500 * MS, 500 * MS);

        assertThat(budget.coresInForce()).isCloseTo(1.9, within(1e-9));
        assertThat(budget.auto().quota().cores()).isEqualTo(2.0);
    }

    @Test
    void noQuota_limitsNothing_untilOneAppears() {
        quota.set(Optional.empty());
        followAt(0);

        assertThat(budget.isLimited()).isFalse();
        assertThat(budget.mayStart(0)).isTrue();
        assertThat(budget.coresInForce()).isInfinite();

        quota.set(Optional.of(new CpuQuota(0.5, "test")));
        period(SECOND, 0, 0);

        assertThat(budget.isLimited()).isTrue();
        assertThat(budget.coresInForce()).isCloseTo(0.475, within(1e-9));
    }

    @Test
    void theBudgetInForceThrottles_aFixedLimitAgainEndsFollowing() {
        followAt(0);
        period(SECOND, 0, 450 * MS); // budget (0.95 - 0.45) s

        long lastSlice = 2 * SECOND - 5 * MS; // all of the period's budget released
        budget.charge(499 * MS, lastSlice - 10 * MS, lastSlice - 10 * MS);
        assertThat(budget.mayStart(lastSlice)).isTrue();
        budget.charge(2 * MS, lastSlice, lastSlice);
        assertThat(budget.mayStart(lastSlice + MS)).isFalse();

        budget.setLimit(CpuLimit.ofCores(2), lastSlice + 2 * MS);
        assertThat(budget.auto()).isNull();
        assertThat(budget.coresInForce()).isEqualTo(2.0);
        assertThat(budget.slices()).as("the policy's slices again").isEqualTo(1);
        assertThat(budget.mayStart(lastSlice + 2 * MS)).isTrue();
    }

    @Test
    void autoReleasesTheBudgetEveryTenMilliseconds_soTheWorkersCannotBurstAWholePeriodsShare() {
        followAt(0);
        period(SECOND, 0, 450 * MS); // budget 500 ms over 1 s: 5 ms per 10 ms slice

        assertThat(budget.slices()).isEqualTo(100);
        budget.charge(5 * MS, SECOND + MS, SECOND + MS);
        assertThat(budget.mayStart(SECOND + 9 * MS)).as("the first slice's 5 ms spent").isFalse();
        assertThat(budget.nextReleaseAt(SECOND + 9 * MS)).isEqualTo(SECOND + 10 * MS);
        assertThat(budget.mayStart(SECOND + 10 * MS)).isTrue();
    }

    @Test
    void aBurstOfTheRestInsideATick_holdsLessUrgentWork_untilTheLastKernelPeriodHasRoomAgain() {
        followAt(0); // an idle process: the budget is the whole share, 9.5 ms per 10 ms slice
        budget.charge(8 * MS, 0, 0); // the workers, above the floor's 5.5 ms released by 100 ms

        processCpu.addAndGet(100 * MS); // the rest (the JIT compiler, say) uses a whole core for 100 ms
        long at = 100 * MS;
        assertThat(budget.released(at)).as("the budget alone would let it start").isGreaterThan(budget.usedThisPeriod());
        assertThat(budget.mayStart(at)).as("the process used the quota over the last kernel period").isFalse();
        assertThat(budget.mayStart(at, 1)).isFalse();
        assertThat(budget.mayStart(at, 0)).as("the most urgent priority is not held").isTrue();
        assertThat(budget.nextReleaseAt(at)).as("a held worker looks again at the next slice").isEqualTo(110 * MS);

        processCpu.addAndGet(10 * MS); // 10 % of a core over the next 100 ms
        assertThat(budget.mayStart(200 * MS)).as("the burst is over: room again").isTrue();
    }

    @Test
    void belowTheFloorsShare_lessUrgentWorkStartsEvenWhileTheRestUsesTheQuota() {
        followAt(0);
        budget.charge(MS / 10, 0, 0); // under the floor: 0.05 cores, 0.5 ms per 10 ms slice

        processCpu.addAndGet(150 * MS);
        assertThat(budget.mayStart(100 * MS)).isTrue();
        budget.charge(6 * MS, 100 * MS, 100 * MS); // 6.1 ms: above the floor's 5.5 ms released by now
        assertThat(budget.mayStart(100 * MS + 1)).isFalse();
    }

    @Test
    void theProcessWindow_looksBackOneKernelPeriod_andDropsSamplesOlderThanThat() {
        AtomicLong cpu = new AtomicLong();
        ProcessCpuWindow window = new ProcessCpuWindow(cpu::get, 100 * MS, 10 * MS, 0);
        assertThat(window.cores(0)).as("nothing to measure against yet").isZero();
        for (int t = 10; t <= 100; t += 10) {
            cpu.addAndGet(t <= 50 ? 10 * MS : 0); // a core for 50 ms, then nothing
            window.cores(t * MS);
        }
        assertThat(window.cores(100 * MS)).isCloseTo(0.5, within(1e-9));
        assertThat(window.cores(105 * MS)).as("no new sample before 10 ms").isCloseTo(0.5, within(1e-9));
        assertThat(window.cores(110 * MS)).as("the sample at 10 ms is the base now: 40 ms in 100 ms").isCloseTo(0.4, within(1e-9));
        assertThat(window.cores(500 * MS)).as("after a gap: the one sample within 100 ms is the base").isZero();
        cpu.addAndGet(30 * MS);
        assertThat(window.cores(530 * MS)).isCloseTo(1.0, within(1e-9));
        assertThat(new ProcessCpuWindow(() -> -1, 100 * MS, 10 * MS, 0).cores(50 * MS)).as("unknown: no evidence").isZero();
    }

    @Test
    void eachPeriodTheKernelThrottled_lowersTheShare_eachPeriodItDidNot_raisesItBack() {
        throttling.set(Optional.of(new Throttling(100, 0)));
        followAt(0);
        period(SECOND, 0, 200 * MS);
        assertThat(budget.coresInForce()).as("no throttling: the full share").isCloseTo(0.95 - 0.2, within(1e-9));

        throttling.set(Optional.of(new Throttling(110, 3))); // 3 of the tick's 10 kernel periods throttled
        period(2 * SECOND, 0, 200 * MS);
        double recovery = 0.05 * 0.01 / 0.99; // per clean period: the share holds where 1 % of periods are throttled
        assertThat(budget.auto().share()).isCloseTo(0.95 - 3 * 0.05 + 7 * recovery, within(1e-9));
        assertThat(budget.coresInForce()).as("the workers' budget cut by as much").isCloseTo(budget.auto().share() - 0.2, within(1e-9));
        assertThat(budget.auto().throttledTicks()).isEqualTo(1);

        double cut = budget.auto().share();
        for (int s = 3; s <= 7; s++) {
            throttling.set(Optional.of(new Throttling(100 + 10L * (s - 1), 3)));
            period(s * SECOND, 0, 200 * MS);
        }
        assertThat(budget.auto().share()).isCloseTo(cut + 50 * recovery, within(1e-9));

        for (int s = 8; s <= 300; s++) {
            throttling.set(Optional.of(new Throttling(100 + 10L * (s - 1), 3)));
            period(s * SECOND, 0, 200 * MS);
        }
        assertThat(budget.auto().share()).as("never above the target").isCloseTo(AutoCpuLimit.TARGET_SHARE, within(1e-9));
    }

    @Test
    void theShareHoldsWhereTheKernelThrottlesOnePercentOfPeriods_fallsAboveIt_risesBelowIt() {
        throttling.set(Optional.of(new Throttling(0, 0)));
        followAt(0);
        long periods = 0;
        long throttled = 5;
        throttling.set(Optional.of(new Throttling(periods += 10, throttled)));
        period(SECOND, 0, 250 * MS);
        double start = budget.auto().share();
        assertThat(start).isLessThan(0.85);

        int s = 1;
        for (int i = 0; i < 10; i++) { // 1 of each 100 periods: the share holds (the JIT compiler alone, say)
            throttling.set(Optional.of(new Throttling(periods += 100, throttled += 1)));
            period(++s * SECOND, 0, 250 * MS);
        }
        assertThat(budget.auto().share()).isCloseTo(start, within(1e-9));

        for (int i = 0; i < 3; i++) { // 6 of each 100: it falls
            throttling.set(Optional.of(new Throttling(periods += 100, throttled += 6)));
            period(++s * SECOND, 0, 250 * MS);
        }
        assertThat(budget.auto().share()).isLessThan(start - 0.2);

        for (int i = 0; i < 10; i++) { // none of 100: it rises, to the target
            throttling.set(Optional.of(new Throttling(periods += 100, throttled)));
            period(++s * SECOND, 0, 250 * MS);
        }
        assertThat(budget.auto().share()).isCloseTo(AutoCpuLimit.TARGET_SHARE, within(1e-9));
        assertThat(budget.coresInForce()).as("rest 0.25: the workers get 0.7").isCloseTo(0.7, within(1e-9));
    }

    @Test
    void throttledTickAfterTick_theShareStopsAtItsLowest() {
        throttling.set(Optional.of(new Throttling(0, 0)));
        followAt(0);
        for (int s = 1; s <= 10; s++) {
            throttling.set(Optional.of(new Throttling(10L * s, 5L * s)));
            period(s * SECOND, 0, 0);
        }

        assertThat(budget.auto().share()).isCloseTo(AutoCpuLimit.LOWEST_SHARE, within(1e-9));
        assertThat(budget.auto().throttledTicks()).isEqualTo(10);
    }

    @Test
    void countersThatGoBackwards_orVanish_areNoEvidence() {
        throttling.set(Optional.of(new Throttling(500, 40)));
        followAt(0);

        throttling.set(Optional.of(new Throttling(10, 9))); // another cgroup's counters: the process moved
        period(SECOND, 0, 0);
        throttling.set(Optional.empty());
        period(2 * SECOND, 0, 0);

        assertThat(budget.auto().share()).isCloseTo(AutoCpuLimit.TARGET_SHARE, within(1e-9));
        assertThat(budget.auto().throttledTicks()).isZero();
    }
}
