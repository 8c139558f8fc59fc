package io.appbackplane.internal.scheduling;

import io.appbackplane.CpuQuota;
import io.appbackplane.internal.scheduling.CgroupCpuQuota.Throttling;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Sets the budget of a backplane whose CPU limit is {@code auto}, once per real tick: the share of
 * the process's CPU quota it aims at, minus what the rest of the process uses, so that the process as
 * a whole stays under its quota and the kernel does not have to freeze it.
 *
 * <p>At each tick, with {@code q} the quota read now (cores), {@code w} the wall time since the
 * last tick, {@code P} the process's CPU time used in it and {@code W} what the backplane's workers
 * charged to the period that ends:
 * <pre>
 *   rest     = max(0, P − W) / w                       cores the rest of the process used
 *   mean    += (rest − mean) / 4                       its moving mean
 *   dev     += (|rest − mean| − dev) / 4               and mean deviation
 *   estimate = max(rest, mean + DEVIATIONS × dev)
 *   share    = share − BACK_OFF  if the kernel throttled the cgroup since the last tick (≥ LOWEST_SHARE)
 *              share + RECOVERY  otherwise                                             (≤ TARGET_SHARE)
 *   cores    = max(q × MIN_SHARE, q × share − estimate)
 *   budget   = cores × period
 * </pre>
 * The kernel counts every 100 ms; the rest of the process (the JIT compiler, garbage collection,
 * web threads) is bursty, and a burst above the estimate is what gets the process throttled. So,
 * as TCP sizes its retransmission timeout from a round-trip time's mean and deviation, the
 * estimate is the mean plus {@link #DEVIATIONS} mean deviations, never below the latest period's
 * use: a steady rest costs little margin, a bursty one gets room for its bursts.
 *
 * <p>An estimate made once per tick cannot see bursts shorter than a tick, nor the kernel's own
 * accounting (its periods are not aligned with the backplane's). What the kernel does is the ground
 * truth: where the cgroup's throttling counters can be read ({@code cpu.stat}), a tick that finds
 * the cgroup throttled since the last one lowers the share by {@link #BACK_OFF}, and each tick
 * without throttling raises it by {@link #RECOVERY} back towards {@link #TARGET_SHARE}
 * (additive-increase, fast-decrease, as TCP's congestion window): the share settles just under the
 * level at which the kernel starts throttling, and finds that level again when the rest of the
 * process changes. {@link #MIN_SHARE} keeps the backplane's less urgent work moving when the rest of
 * the process alone uses the quota (its most urgent priority is not held by this budget, {@link
 * CpuBudget#exemptsMostUrgent()}). Without a quota the budget is unlimited ({@link Long#MAX_VALUE}).
 *
 * <p>Confined to the thread that runs the backplane's real ticks (its timer thread, or the thread
 * advancing a manual clock); {@link #quota()}, {@link #restCores()}, {@link #share()}, {@link
 * #throttledTicks()}, {@link #processHasRoom(long)} and {@link #floorBudget(long)} are called by any thread.
 */
public final class AutoCpuLimit {

    /** The share of the quota the process as a whole aims to use while the kernel does not throttle it. */
    static final double TARGET_SHARE = 0.95;

    /** How far a tick that finds the cgroup throttled lowers the share. */
    static final double BACK_OFF = 0.1;

    /** How far a tick without throttling raises the share. */
    static final double RECOVERY = 0.01;

    /** The lowest the share goes, however often the kernel throttles. */
    static final double LOWEST_SHARE = 0.5;

    /** Mean deviations of the rest's use added to its mean (see the class comment). */
    static final double DEVIATIONS = 3;

    /** The smallest budget, as a share of the quota. */
    static final double MIN_SHARE = 0.05;

    /** The kernel's enforcement period (CFS's default), over which {@link #processHasRoom(long)} looks back. */
    static final long KERNEL_PERIOD_NANOS = 100_000_000;

    private final Supplier<Optional<CpuQuota>> quotaSource;
    private final LongSupplier processCpuNanos;
    private final Function<CpuQuota, Optional<Throttling>> throttlingOf;
    /** The whole process's use over the last kernel period; read by the workers. */
    private final ProcessCpuWindow lastKernelPeriod;
    /** The cgroup's throttling counters at the last tick; null when unknown. */
    private Throttling lastThrottling;
    private volatile double share = TARGET_SHARE;
    private volatile long throttledTicks;
    private long lastTickAt;
    private long lastProcessCpu;
    /** The moving mean and mean deviation of the rest's use, in cores; NaN before the first measured period. */
    private double restMean = Double.NaN;
    private double restDeviation;
    /** Cores the rest of the process is taken to use: the estimate (see the class comment). */
    private volatile double restCores;
    private volatile CpuQuota quota;

    /**
     * @param quotaSource reads the process's quota (empty: none)
     * @param processCpuNanos the process's CPU time so far, -1 if unknown
     * @param throttlingOf reads the throttling counters of the cgroup that sets a quota (empty: unknown)
     * @param now the backplane's clock now (the start of the current period)
     */
    AutoCpuLimit(Supplier<Optional<CpuQuota>> quotaSource, LongSupplier processCpuNanos,
            Function<CpuQuota, Optional<Throttling>> throttlingOf, long now) {
        this.quotaSource = quotaSource;
        this.processCpuNanos = processCpuNanos;
        this.throttlingOf = throttlingOf;
        this.lastTickAt = now;
        this.lastProcessCpu = processCpuNanos.getAsLong();
        this.lastKernelPeriod = new ProcessCpuWindow(processCpuNanos, KERNEL_PERIOD_NANOS, CpuBudget.AUTO_SLICE_NANOS, now);
        this.quota = quotaSource.get().orElse(null);
        this.lastThrottling = quota == null ? null : throttlingOf.apply(quota).orElse(null);
    }

    /** Follows this process's own cgroup quota, its throttling and the process's CPU time. */
    static AutoCpuLimit forProcess(long now) {
        return new AutoCpuLimit(CpuQuota::ofProcess, ProcessCpu::nanos, CgroupCpuQuota::throttling, now);
    }

    /** The budget for a period of {@code periodNanos} before any tick: the quota's share, nothing known of the rest yet. */
    long initialBudget(long periodNanos) {
        return budget(periodNanos);
    }

    /**
     * A real tick at {@code now}: the period that ends had its workers charge {@code workersNanos}.
     * Re-reads the quota and the process's CPU time and returns the budget of the period that starts.
     */
    long tick(long now, long workersNanos, long periodNanos) {
        quota = quotaSource.get().orElse(null);
        long processCpu = processCpuNanos.getAsLong();
        long wall = now - lastTickAt;
        if (processCpu >= 0 && lastProcessCpu >= 0 && wall > 0) {
            double rest = Math.max(0, processCpu - lastProcessCpu - workersNanos) / (double) wall;
            if (Double.isNaN(restMean)) {
                restMean = rest;
            } else {
                double error = rest - restMean;
                restMean += error / 4;
                restDeviation += (Math.abs(error) - restDeviation) / 4;
            }
            restCores = Math.max(rest, restMean + DEVIATIONS * restDeviation);
        }
        lastTickAt = now;
        lastProcessCpu = processCpu;
        followThrottling();
        return budget(periodNanos);
    }

    /** Lowers the share after the kernel throttled the cgroup, raises it back otherwise (see the class comment). */
    private void followThrottling() {
        CpuQuota q = quota;
        Throttling now = q == null ? null : throttlingOf.apply(q).orElse(null);
        Throttling last = lastThrottling;
        lastThrottling = now;
        if (now == null || last == null || now.periods() < last.periods()) {
            return; // unknown, just found, or another cgroup's counters (the process moved): no evidence either way
        }
        if (now.throttled() > last.throttled()) {
            share = Math.max(LOWEST_SHARE, share - BACK_OFF);
            throttledTicks++;
        } else {
            share = Math.min(TARGET_SHARE, share + RECOVERY);
        }
    }

    /**
     * Whether the whole process left room under the share of the quota over the last kernel period
     * ({@link #KERNEL_PERIOD_NANOS}, sampled at most every {@link CpuBudget#AUTO_SLICE_NANOS}): false
     * while it used {@code share × quota} or more. The budget is set once per real tick from the
     * rest's estimate; a burst of the rest inside a tick (the JIT compiler, a wave of requests, the
     * first period of load after an idle one, when the budget is wide open) would otherwise meet the
     * workers spending the budget at full speed until the next tick, and the kernel would freeze the
     * process. Any thread.
     */
    boolean processHasRoom(long now) {
        CpuQuota q = quota;
        return q == null || lastKernelPeriod.cores(now) < q.cores() * share;
    }

    /** The budget of a period at the floor ({@link #MIN_SHARE} of the quota), 0 without a quota. */
    long floorBudget(long periodNanos) {
        CpuQuota q = quota;
        return q == null ? 0 : (long) (q.cores() * MIN_SHARE * periodNanos);
    }

    private long budget(long periodNanos) {
        CpuQuota q = quota;
        if (q == null) {
            return Long.MAX_VALUE;
        }
        double cores = Math.max(q.cores() * MIN_SHARE, q.cores() * share - restCores);
        return (long) Math.min(Long.MAX_VALUE, cores * periodNanos);
    }

    /** The quota followed, or null when there is none. */
    public CpuQuota quota() {
        return quota;
    }

    /** The cores the rest of the process is taken to use. */
    public double restCores() {
        return restCores;
    }

    /** The share of the quota the process as a whole aims at now. */
    public double share() {
        return share;
    }

    /** The ticks that found the cgroup throttled by the kernel since the one before. */
    public long throttledTicks() {
        return throttledTicks;
    }
}
