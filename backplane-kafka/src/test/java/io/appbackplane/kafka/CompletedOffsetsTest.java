package io.appbackplane.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.BitSet;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The commit-metadata form of the completed offsets: round trips, the shorter encoding, the length bound. */
class CompletedOffsetsTest {

    @Test
    void encode_longRuns_roundTripsAsRunLengths() {
        BitSet done = new BitSet();
        done.set(1, 1_001); // one slow record at the committed offset, then 1,000 completed
        String metadata = CompletedOffsets.encode(done, 4096);

        assertThat(metadata).startsWith(CompletedOffsets.PREFIX + "r").hasSizeLessThan(10);
        CompletedOffsets read = CompletedOffsets.decode(500, metadata);
        assertThat(read.count()).isEqualTo(1_000);
        assertThat(read.contains(500)).isFalse();
        assertThat(read.contains(501)).isTrue();
        assertThat(read.contains(1_500)).isTrue();
        assertThat(read.contains(1_501)).isFalse();
        assertThat(read.contains(499)).isFalse();
    }

    @Test
    void encode_scatteredOffsets_roundTripsAsABitsetWhenThatIsShorter() {
        BitSet done = new BitSet();
        for (int i = 1; i < 4_000; i += 2) {
            done.set(i); // alternating: one run per offset, so the bitset is shorter
        }
        String metadata = CompletedOffsets.encode(done, 4096);

        assertThat(metadata).startsWith(CompletedOffsets.PREFIX + "b").hasSizeLessThanOrEqualTo(4096);
        CompletedOffsets read = CompletedOffsets.decode(0, metadata);
        for (int i = 0; i < 4_000; i++) {
            assertThat(read.contains(i)).as("offset %d", i).isEqualTo(i % 2 == 1);
        }
    }

    @Test
    void encode_tooManyToFit_isCutToTheLengthAndNamesOnlyCompletedOffsets() {
        BitSet done = new BitSet();
        Random random = new Random(31);
        for (int i = 1; i < 200_000; i++) {
            if (random.nextInt(3) > 0) {
                done.set(i);
            }
        }
        String metadata = CompletedOffsets.encode(done, 300);

        assertThat(metadata).hasSizeLessThanOrEqualTo(300);
        CompletedOffsets read = CompletedOffsets.decode(0, metadata);
        assertThat(read.count()).isPositive().isLessThan(done.cardinality());
        read.forEach(offset -> assertThat(done.get((int) offset)).as("offset %d", offset).isTrue()); // a subset: at least once holds
    }

    @Test
    void encode_nothingCompletedOrNoRoom_isEmpty() {
        BitSet done = new BitSet();
        assertThat(CompletedOffsets.encode(done, 4096)).isEmpty();
        done.set(3);
        assertThat(CompletedOffsets.encode(done, 0)).isEmpty();
        assertThat(CompletedOffsets.encode(done, 5)).isEmpty();
    }

    @Test
    void decode_foreignOrEmptyMetadata_namesNothing_andAMangledOneIsAnError() {
        assertThat(CompletedOffsets.decode(7, null).isEmpty()).isTrue();
        assertThat(CompletedOffsets.decode(7, "").isEmpty()).isTrue();
        assertThat(CompletedOffsets.decode(7, "written by the application").isEmpty()).isTrue();
        assertThatThrownBy(() -> CompletedOffsets.decode(7, CompletedOffsets.PREFIX + "x" + "AAAA"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("encoding 'x'");
        assertThatThrownBy(() -> CompletedOffsets.decode(7, CompletedOffsets.PREFIX + "r" + "gA"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("run length");
    }
}
