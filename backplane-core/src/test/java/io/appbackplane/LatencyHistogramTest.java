package io.appbackplane;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class LatencyHistogramTest {

    private static LatencyHistogram of(long... nanos) {
        long[] counts = new long[LatencyHistogram.BUCKETS];
        for (long n : nanos) {
            counts[LatencyHistogram.bucketOf(n)]++;
        }
        return LatencyHistogram.of(counts);
    }

    @Test
    void everyDurationFallsInABucketWhoseBoundsHoldIt_andBucketsAreAtMost25PercentWide() {
        for (long nanos = 1; nanos < (1L << 40); nanos = nanos * 3 / 2 + 1) {
            int bucket = LatencyHistogram.bucketOf(nanos);
            long upper = LatencyHistogram.upperBoundNanos(bucket);
            long lower = bucket == 0 ? 0 : LatencyHistogram.upperBoundNanos(bucket - 1);
            assertThat(nanos).as("bucket %d of %d ns", bucket, nanos).isGreaterThanOrEqualTo(lower).isLessThan(upper);
            if (bucket > 0 && bucket < LatencyHistogram.BUCKETS - 1) {
                assertThat((double) upper / lower).isLessThanOrEqualTo(1.25);
            }
        }
        assertThat(LatencyHistogram.bucketOf(0)).isZero();
        assertThat(LatencyHistogram.bucketOf(Long.MAX_VALUE)).isEqualTo(LatencyHistogram.BUCKETS - 1);
    }

    @Test
    void percentile_isTheUpperBoundOfTheBucketHoldingThatRank_atMost25PercentAbove() {
        long[] nanos = new long[100];
        for (int i = 0; i < 99; i++) {
            nanos[i] = 2_000_000; // 2 ms
        }
        nanos[99] = 50_000_000; // one of 50 ms
        LatencyHistogram h = of(nanos);

        assertThat(h.total()).isEqualTo(100);
        assertThat(h.percentile(0.5)).isBetween(Duration.ofMillis(2), Duration.ofMillis(2).multipliedBy(5).dividedBy(4));
        assertThat(h.percentile(0.99)).isEqualTo(h.percentile(0.5)); // 99 of 100 are 2 ms
        assertThat(h.percentile(1.0)).isBetween(Duration.ofMillis(50), Duration.ofMillis(63));
        assertThat(LatencyHistogram.empty().percentile(0.5)).isNull();
    }

    @Test
    void minus_givesWhatWasRecordedInBetween() {
        LatencyHistogram earlier = of(1_000, 5_000_000);
        LatencyHistogram later = of(1_000, 5_000_000, 7_000_000, 7_000_000);

        LatencyHistogram between = later.minus(earlier);

        assertThat(between).isEqualTo(of(7_000_000, 7_000_000));
        assertThat(earlier.minus(later).total()).as("a shrunken bucket counts as zero").isZero();
    }

    @Test
    void badArgumentsAreRejectedSayingWhatIsAllowed() {
        assertThatThrownBy(() -> LatencyHistogram.of(new long[3])).hasMessageContaining(LatencyHistogram.BUCKETS + " buckets");
        assertThatThrownBy(() -> LatencyHistogram.empty().percentile(0)).hasMessageContaining("(0, 1]");
        assertThatThrownBy(() -> LatencyHistogram.upperBoundNanos(-1)).hasMessageContaining("is not in 0..");
    }
}
