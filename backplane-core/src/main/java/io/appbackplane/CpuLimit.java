package io.appbackplane;

import java.time.Duration;
import java.util.Locale;

/**
 * How much worker CPU time a backplane may use per integration period, in cores: {@code 0.5} means
 * half of one core, that is 500 ms of worker CPU time per second (rule 5 of docs/scheduling.md).
 * Written as cores ({@code "1.5"}) or millicores ({@code "500m"}), as in Kubernetes, or {@code
 * "auto"}: the limit then follows the process's container CPU quota minus what the rest of the
 * process uses ({@link #auto()}).
 */
public final class CpuLimit {

    /** The largest accepted limit, in cores. */
    public static final double MAX_CORES = 4096;

    /** No limit: the backplane may use all its workers all the time. */
    public static final CpuLimit UNLIMITED = new CpuLimit(Double.POSITIVE_INFINITY);

    private static final CpuLimit AUTO = new CpuLimit(Double.NaN);

    private static final String ALLOWED = "allowed: a number of cores in (0, " + (int) MAX_CORES
            + "] such as 0.5 or 2, millicores such as 500m, 'auto' (follow the container's CPU quota) or 'unlimited'";

    /** The limit in cores; NaN for {@link #auto()}, infinite for {@link #UNLIMITED}. */
    private final double cores;

    private CpuLimit(double cores) {
        this.cores = cores;
    }

    /**
     * A limit that follows the process's CPU quota: the cgroup v2 {@code cpu.max}, or the cgroup v1
     * {@code cpu.cfs_quota_us} / {@code cpu.cfs_period_us}, of the process's cgroup and its
     * ancestors (the smallest wins), found through {@code /proc/self/cgroup} and re-read at every
     * real tick, so that a resized container is followed. The budget of each period is the quota's
     * share of the period (less a margin for the kernel's 100 ms enforcement) minus the CPU the rest
     * of the process used lately (garbage collection, the JIT compiler, web and messaging threads:
     * the process's CPU time minus the backplane workers'), so that the process as a whole stays
     * under its quota and the kernel does not have to freeze it; the backplane's less urgent work
     * waits instead, most urgent first. Priority 0 is not held: its actions start when the released
     * budget is spent, and are charged to it (scheduling rule 5). Without a quota (none set, or not
     * on Linux) it limits nothing.
     * The limit in force and the quota followed are in {@link BackplaneStatistics.Cpu}.
     */
    public static CpuLimit auto() {
        return AUTO;
    }

    /**
     * A limit of {@code cores} cores.
     *
     * @throws IllegalArgumentException if {@code cores} is not in (0, {@value #MAX_CORES}]
     */
    public static CpuLimit ofCores(double cores) {
        if (!(cores > 0) || cores > MAX_CORES) {
            throw new IllegalArgumentException("cpu-limit " + cores + " is invalid; " + ALLOWED);
        }
        return new CpuLimit(cores);
    }

    /** A limit of {@code millicores} thousandths of a core. */
    public static CpuLimit ofMillicores(long millicores) {
        if (millicores <= 0 || millicores > MAX_CORES * 1000) {
            throw new IllegalArgumentException("cpu-limit " + millicores + "m is invalid; " + ALLOWED);
        }
        return new CpuLimit(millicores / 1000.0);
    }

    /**
     * Parses {@code "0.5"}, {@code "2"}, {@code "500m"}, {@code "auto"} or {@code "unlimited"}.
     *
     * @throws IllegalArgumentException naming the text and the allowed forms
     */
    public static CpuLimit parse(String text) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("cpu-limit is empty; " + ALLOWED);
        }
        String trimmed = text.trim().toLowerCase(Locale.ROOT);
        if (trimmed.equals("unlimited")) {
            return UNLIMITED;
        }
        if (trimmed.equals("auto")) {
            return AUTO;
        }
        try {
            if (trimmed.endsWith("m")) {
                return ofMillicores(Long.parseLong(trimmed.substring(0, trimmed.length() - 1)));
            }
            return ofCores(Double.parseDouble(trimmed));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("cpu-limit '" + text + "' cannot be parsed; " + ALLOWED, e);
        }
    }

    /** Whether there is no limit. */
    public boolean isUnlimited() {
        return Double.isInfinite(cores);
    }

    /** Whether this is the {@link #auto()} limit, which follows the container's CPU quota. */
    public boolean isAuto() {
        return this == AUTO;
    }

    /**
     * The limit in cores ({@link Double#POSITIVE_INFINITY} when unlimited, {@link Double#NaN} for
     * {@link #auto()}, whose cores in force change: see {@link BackplaneStatistics.Cpu#limitCores()}).
     */
    public double cores() {
        return cores;
    }

    /**
     * The action running time this limit allows per {@code period}, in nanoseconds.
     *
     * @throws IllegalStateException for {@link #auto()}, whose budget is set period by period
     */
    public long budgetNanos(Duration period) {
        if (isAuto()) {
            throw new IllegalStateException("the auto cpu-limit has no fixed budget; it follows the container's quota");
        }
        if (isUnlimited()) {
            return Long.MAX_VALUE;
        }
        return (long) Math.min(Long.MAX_VALUE, cores * period.toNanos());
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof CpuLimit limit && Double.compare(limit.cores, cores) == 0; // compare: NaN (auto) equals itself
    }

    @Override
    public int hashCode() {
        return Double.hashCode(cores);
    }

    /**
     * {@code "unlimited"}, {@code "auto"} or millicores, such as {@code "500m"} (cores, such as {@code "1.2345"}, when
     * the limit is not a whole number of millicores); {@link #parse} reads it back.
     */
    @Override
    public String toString() {
        if (isUnlimited()) {
            return "unlimited";
        }
        if (isAuto()) {
            return "auto";
        }
        long millicores = Math.round(cores * 1000);
        return millicores / 1000.0 == cores ? millicores + "m" : String.valueOf(cores);
    }
}
