package io.appbackplane;

import java.time.Duration;
import java.util.Arrays;

/**
 * A cumulative histogram of durations in log-linear buckets: four buckets per power of two, so a
 * percentile read from it is at most 25 % above the true value. Everything under 1.024 µs falls in
 * the first bucket, everything from 2<sup>37</sup> ns (about 137 s) on in the last. Immutable.
 *
 * <p>The counts only grow: the histogram of an interval is {@code later.minus(earlier)}, which is
 * how the live view turns two snapshots a second apart into that second's percentiles.
 */
public final class LatencyHistogram {

    /** Durations under 2<sup>MIN_EXPONENT</sup> ns share bucket 0. */
    private static final int MIN_EXPONENT = 10;
    /** Durations from 2<sup>MAX_EXPONENT</sup> ns on share the last bucket. */
    private static final int MAX_EXPONENT = 37;
    private static final int SUB_BUCKETS_LOG2 = 2;
    private static final int SUB_BUCKETS = 1 << SUB_BUCKETS_LOG2;

    /** Number of buckets: one below the range, four per power of two inside it, one above. */
    public static final int BUCKETS = 2 + (MAX_EXPONENT - MIN_EXPONENT) * SUB_BUCKETS;

    private static final LatencyHistogram EMPTY = new LatencyHistogram(new long[BUCKETS]);

    private final long[] counts;

    private LatencyHistogram(long[] counts) {
        this.counts = counts;
    }

    /**
     * A histogram of the given bucket counts, indexed as {@link #bucketOf} indexes them.
     *
     * @throws IllegalArgumentException if there are not {@link #BUCKETS} counts or one is negative
     */
    public static LatencyHistogram of(long[] counts) {
        if (counts.length != BUCKETS) {
            throw new IllegalArgumentException("a latency histogram has " + BUCKETS + " buckets, not " + counts.length);
        }
        for (long c : counts) {
            if (c < 0) {
                throw new IllegalArgumentException("bucket counts must not be negative: " + Arrays.toString(counts));
            }
        }
        return new LatencyHistogram(counts.clone());
    }

    /** A histogram with nothing recorded. */
    public static LatencyHistogram empty() {
        return EMPTY;
    }

    /** The bucket a duration of {@code nanos} is counted in; cheap enough for every action. */
    public static int bucketOf(long nanos) {
        if (nanos < (1L << MIN_EXPONENT)) {
            return 0;
        }
        int exponent = 63 - Long.numberOfLeadingZeros(nanos);
        if (exponent >= MAX_EXPONENT) {
            return BUCKETS - 1;
        }
        int sub = (int) (nanos >>> (exponent - SUB_BUCKETS_LOG2)) & (SUB_BUCKETS - 1);
        return 1 + (exponent - MIN_EXPONENT) * SUB_BUCKETS + sub;
    }

    /** The exclusive upper bound of bucket {@code bucket} in nanoseconds; {@code Long.MAX_VALUE} for the last. */
    public static long upperBoundNanos(int bucket) {
        if (bucket < 0 || bucket >= BUCKETS) {
            throw new IllegalArgumentException("bucket " + bucket + " is not in 0.." + (BUCKETS - 1));
        }
        if (bucket == 0) {
            return 1L << MIN_EXPONENT;
        }
        if (bucket == BUCKETS - 1) {
            return Long.MAX_VALUE;
        }
        int exponent = MIN_EXPONENT + (bucket - 1) / SUB_BUCKETS;
        int sub = (bucket - 1) % SUB_BUCKETS;
        return (1L << exponent) + ((sub + 1L) << (exponent - SUB_BUCKETS_LOG2));
    }

    /** The count of bucket {@code bucket}. */
    public long count(int bucket) {
        return counts[bucket];
    }

    /** The number of durations recorded. */
    public long total() {
        long total = 0;
        for (long c : counts) {
            total += c;
        }
        return total;
    }

    /**
     * What was recorded after {@code earlier}, a snapshot of the same histogram taken before this
     * one. A bucket that shrank (the histogram was not the same one) counts as zero.
     */
    public LatencyHistogram minus(LatencyHistogram earlier) {
        long[] diff = new long[BUCKETS];
        for (int i = 0; i < BUCKETS; i++) {
            diff[i] = Math.max(0, counts[i] - earlier.counts[i]);
        }
        return new LatencyHistogram(diff);
    }

    /**
     * The {@code quantile} ({@code 0 < quantile <= 1}): the upper bound of the bucket holding that share of
     * the recorded durations, or {@code null} if nothing was recorded. For the last bucket, which
     * has no upper bound, its lower bound (about 137 s).
     *
     * @throws IllegalArgumentException if {@code quantile} is not in (0, 1]
     */
    public Duration percentile(double quantile) {
        if (!(quantile > 0 && quantile <= 1)) {
            throw new IllegalArgumentException("quantile " + quantile + " is not in (0, 1]");
        }
        long total = total();
        if (total == 0) {
            return null;
        }
        long rank = (long) Math.ceil(quantile * total);
        long seen = 0;
        for (int i = 0; i < BUCKETS; i++) {
            seen += counts[i];
            if (seen >= rank) {
                return Duration.ofNanos(i == BUCKETS - 1 ? 1L << MAX_EXPONENT : upperBoundNanos(i));
            }
        }
        throw new AssertionError("rank " + rank + " beyond total " + total);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof LatencyHistogram other && Arrays.equals(counts, other.counts);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(counts);
    }

    @Override
    public String toString() {
        return "LatencyHistogram[total=" + total() + ", p50=" + percentile(0.5) + ", p99=" + percentile(0.99) + "]";
    }
}
