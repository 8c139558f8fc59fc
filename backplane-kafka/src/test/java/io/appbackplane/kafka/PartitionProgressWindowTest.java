package io.appbackplane.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * The bounded window: at most {@code limit} records received and not committed; full is reported
 * once, and room once the window falls to its resume level; records an earlier owner completed are
 * done on arrival; the commit metadata names what completed beyond the first unfinished record.
 */
class PartitionProgressWindowTest {

    private final List<Long> commits = new CopyOnWriteArrayList<>();
    private final List<String> events = new CopyOnWriteArrayList<>();
    private final PartitionProgress progress = new PartitionProgress(entry -> commits.add(entry.offset), 4, 2,
            () -> events.add("full"), () -> events.add("room"));

    @Test
    void admit_fullWindow_refusesAndReportsFullOnce_thenRoomAtTheResumeLevel() {
        List<PartitionProgress.Entry> entries = new ArrayList<>();
        for (long offset = 0; offset < 4; offset++) {
            entries.add(progress.admit(offset, "ack-" + offset));
        }
        assertThat(progress.admit(4, "ack-4")).isNull();
        assertThat(progress.admit(4, "ack-4")).isNull(); // asked again (after a seek back): still full, reported once
        assertThat(events).containsExactly("full");
        assertThat(progress.snapshot().uncommitted()).isEqualTo(4);
        assertThat(progress.snapshot().full()).isTrue();

        progress.done(entries.get(1));
        progress.done(entries.get(2));
        progress.done(entries.get(3));
        assertThat(events).containsExactly("full"); // done behind offset 0: still four uncommitted
        progress.done(entries.get(0));
        assertThat(events).containsExactly("full", "room");
        assertThat(commits).containsExactly(3L);
        assertThat(progress.admit(4, "ack-4")).isNotNull(); // the refused record is taken when it comes again
        assertThat(progress.snapshot().fulls()).isEqualTo(1);
    }

    @Test
    void admit_offsetsCompletedByAnEarlierOwner_areDoneOnArrivalAndCommitWithTheGap() {
        java.util.BitSet done = new java.util.BitSet();
        done.set(1, 3); // 11 and 12 completed before; 10 did not
        progress.inherit(CompletedOffsets.decode(10, CompletedOffsets.encode(done, 100)));

        PartitionProgress.Entry e10 = progress.admit(10, "a");
        PartitionProgress.Entry e11 = progress.admit(11, "b");
        PartitionProgress.Entry e12 = progress.admit(12, "c");
        assertThat(e10.done).isFalse();
        assertThat(e11.done).isTrue();
        assertThat(e12.done).isTrue();
        assertThat(commits).isEmpty();
        progress.done(e10);
        assertThat(commits).containsExactly(12L);
        assertThat(progress.snapshot().skipped()).isEqualTo(2);
    }

    @Test
    void commitMetadata_namesTheDoneRecordsBeyondTheGapAndTheInheritedOnesNotYetReceived() {
        java.util.BitSet earlier = new java.util.BitSet();
        earlier.set(3); // offset 3 completed under an earlier owner
        progress.inherit(CompletedOffsets.decode(0, CompletedOffsets.encode(earlier, 100)));
        PartitionProgress.Entry e0 = progress.admit(0, "a");
        PartitionProgress.Entry e1 = progress.admit(1, "b");
        progress.admit(2, "c");
        progress.done(e1);
        assertThat(progress.completedBeyondGap()).isTrue();
        assertThat(progress.firstNotDone()).isZero();

        CompletedOffsets named = CompletedOffsets.decode(0, progress.commitMetadata(0, 4096));
        assertThat(progress.completedBeyondGap()).isFalse();
        assertThat(named.contains(0)).isFalse();
        assertThat(named.contains(1)).isTrue();
        assertThat(named.contains(2)).isFalse();
        assertThat(named.contains(3)).isTrue();

        progress.done(e0); // handed on: offset 2 is the first not done
        assertThat(progress.firstNotDone()).isEqualTo(2);
        CompletedOffsets fromAnOlderCommit = CompletedOffsets.decode(0, progress.commitMetadata(0, 4096));
        assertThat(fromAnOlderCommit.contains(0)).isTrue(); // done since, committed by a later commit
        assertThat(fromAnOlderCommit.contains(3)).isTrue();
        assertThat(progress.commitMetadata(0, 0)).isEmpty(); // off
    }
}
