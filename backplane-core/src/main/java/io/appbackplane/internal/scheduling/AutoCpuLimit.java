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
 * a whole stays under its quota and the kernel seldom has to freeze it.
 *
 * <p>At each tick, with {@code q} the quota read now (cores), {@code w} the wall time since the
 * last tick, {@code P} the process's CPU time used in it, {@code W} what the backplane's workers
 * charged to the period that ends, and {@code n} and {@code t} the kernel periods the cgroup's
 * counters show since the last tick and, of those, the ones in which the kernel throttled it:
 * <pre>
 *   rest     = max(0, P − W) / w                       cores the rest of the process used
 *   estimate = estimate + (rest − estimate) × REST_GAIN its moving mean
 *   share    = share − BACK_OFF × t + RECOVERY × (n − t), within [LOWEST_SHARE, TARGET_SHARE]
 *   cores    = max(q × MIN_SHARE, q × share − estimate)
 *   budget   = cores × period
 * </pre>
 *
 * <p>Three guards keep the process under its quota, each against what it can see. The estimate
 * leaves the rest of the process (the JIT compiler, garbage collection, web threads) what it uses
 * on average; it is the mean, without a margin for the rest's bursts, because the rest is bursty
 * per 100 ms kernel period and a margin sized for a burst that comes once in several periods
 * would be paid in every period, leaving less urgent work nothing. The bursts are met by the other
 * two. Between ticks, less urgent work waits while the whole process used {@code share × quota}
 * or more over the last kernel period ({@link #processHasRoom(long)}), so the workers stop adding
 * to a burst within a slice of seeing it. And the kernel's own counters ({@code cpu.stat}, where
 * they can be read) say what the first two missed: a burst shorter than the sampling, and periods
 * not aligned with the backplane's. Each period the kernel throttled lowers the share by {@link
 * #BACK_OFF}, each period it did not raises it by {@link #RECOVERY}. The two are set so that the
 * share holds where the kernel throttles {@link #TOLERATED_THROTTLED} of the periods, falls
 * while it throttles more and rises, to {@link #TARGET_SHARE}, while it throttles fewer. Aiming at
 * no throttling at all would not do: the rest's bursts alone (the JIT compiler running two
 * compiler threads at once in a 1-core quota) get some periods throttled whatever the backplane
 * does, and every such period would lower the share until less urgent work was left at its floor.
 * {@link #MIN_SHARE} keeps the backplane's less urgent work moving when the rest of the process
 * alone uses the quota (its most urgent priority is not held by this budget, {@link
 * CpuBudget#exemptsMostUrgent()}). Without a quota the budget is unlimited ({@link Long#MAX_VALUE}).
 *
 * <p>Confined to the thread that runs the backplane's real ticks (its timer thread, or the thread
 * advancing a manual clock); {@link #quota()}, {@link #restCores()}, {@link #share()}, {@link
 * #throttledTicks()}, {@link #processHasRoom(long)} and {@link #floorBudget(long)} are called by any thread.
 */
public final class AutoCpuLimit {

    /** The share of the quota the process as a whole aims to use while the kernel throttles it seldom. */
    static final double TARGET_SHARE = 0.95;

    /** The share of the kernel's periods throttled at which the share holds (see the class comment). */
    static final double TOLERATED_THROTTLED = 0.01;

    /** How far each kernel period the cgroup was throttled in lowers the share. */
    static final double BACK_OFF = 0.05;

    /**
     * How far each kernel period without throttling raises the share: {@code BACK_OFF ×
     * TOLERATED_THROTTLED / (1 − TOLERATED_THROTTLED)}, so that with {@link #TOLERATED_THROTTLED}
     * of the periods throttled the two cancel out.
     */
    static final double RECOVERY = BACK_OFF * TOLERATED_THROTTLED / (1 - TOLERATED_THROTTLED);

    /** The lowest the share goes, however often the kernel throttles. */
    static final double LOWEST_SHARE = 0.5;

    /** The weight of the latest tick's use in the moving mean of the rest's. */
    static final double REST_GAIN = 0.25;

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
    /** Cores the rest of the process is taken to use: the moving mean of its use; NaN before the first measured period. */
    private volatile double restCores = Double.NaN;
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
            double mean = restCores;
            restCores = Double.isNaN(mean) ? rest : mean + (rest - mean) * REST_GAIN;
        }
        lastTickAt = now;
        lastProcessCpu = processCpu;
        followThrottling();
        return budget(periodNanos);
    }

    /** Lowers the share for each period the kernel throttled the cgroup in, raises it for each other (see the class comment). */
    private void followThrottling() {
        CpuQuota q = quota;
        Throttling now = q == null ? null : throttlingOf.apply(q).orElse(null);
        Throttling last = lastThrottling;
        lastThrottling = now;
        if (now == null || last == null || now.periods() < last.periods()) {
            return; // unknown, just found, or another cgroup's counters (the process moved): no evidence either way
        }
        long throttled = Math.max(0, now.throttled() - last.throttled());
        long clean = Math.max(0, now.periods() - last.periods() - throttled);
        share = Math.max(LOWEST_SHARE, Math.min(TARGET_SHARE, share - BACK_OFF * throttled + RECOVERY * clean));
        if (throttled > 0) {
            throttledTicks++;
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
        double rest = restCores;
        double cores = Math.max(q.cores() * MIN_SHARE, q.cores() * share - (Double.isNaN(rest) ? 0 : rest));
        return (long) Math.min(Long.MAX_VALUE, cores * periodNanos);
    }

    /** The quota followed, or null when there is none. */
    public CpuQuota quota() {
        return quota;
    }

    /** The cores the rest of the process is taken to use (0 before the first measured period). */
    public double restCores() {
        double rest = restCores;
        return Double.isNaN(rest) ? 0 : rest;
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
