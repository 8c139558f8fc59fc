package io.appbackplane;

import java.time.Duration;
import java.util.Locale;

/**
 * How much worker CPU time a backplane may use per integration period, in cores: {@code 0.5}
 * means half of one core, that is 500 ms of worker CPU time per second (rule 5 of docs/scheduling.md). Written as
 * cores ({@code "1.5"}) or millicores ({@code "500m"}), as in Kubernetes.
 */
public final class CpuLimit {

    /** The largest accepted limit, in cores. */
    public static final double MAX_CORES = 4096;

    /** No limit: the backplane may use all its workers all the time. */
    public static final CpuLimit UNLIMITED = new CpuLimit(Double.POSITIVE_INFINITY);

    private static final String ALLOWED =
            "allowed: a number of cores in (0, " + (int) MAX_CORES + "] such as 0.5 or 2, millicores such as 500m, or 'unlimited'";

    private final double cores;

    private CpuLimit(double cores) {
        this.cores = cores;
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
     * Parses {@code "0.5"}, {@code "2"}, {@code "500m"} or {@code "unlimited"}.
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

    /** The limit in cores ({@link Double#POSITIVE_INFINITY} when unlimited). */
    public double cores() {
        return cores;
    }

    /** The action running time this limit allows per {@code period}, in nanoseconds. */
    public long budgetNanos(Duration period) {
        if (isUnlimited()) {
            return Long.MAX_VALUE;
        }
        return (long) Math.min(Long.MAX_VALUE, cores * period.toNanos());
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof CpuLimit limit && Double.compare(limit.cores, cores) == 0;
    }

    @Override
    public int hashCode() {
        return Double.hashCode(cores);
    }

    /**
     * {@code "unlimited"} or millicores, such as {@code "500m"} (cores, such as {@code "1.2345"}, when
     * the limit is not a whole number of millicores); {@link #parse} reads it back.
     */
    @Override
    public String toString() {
        if (isUnlimited()) {
            return "unlimited";
        }
        long millicores = Math.round(cores * 1000);
        return millicores / 1000.0 == cores ? millicores + "m" : String.valueOf(cores);
    }
}
