package io.appbackplane.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The commit rule: only up to the first record that is not done, whatever order records finish in. */
class PartitionProgressTest {

    private final List<Long> commits = new CopyOnWriteArrayList<>();
    private final PartitionProgress progress = new PartitionProgress(entry -> commits.add(entry.offset));

    @Test
    void done_outOfOrder_commitsOnlyTheDonePrefix() {
        PartitionProgress.Entry e10 = progress.received(10, "a");
        PartitionProgress.Entry e11 = progress.received(11, "b");
        PartitionProgress.Entry e12 = progress.received(12, "c");

        progress.done(e12);
        progress.done(e11);
        assertThat(commits).isEmpty(); // 10 still running
        assertThat(progress.snapshot().inFlight()).isEqualTo(1);

        progress.done(e10);
        assertThat(commits).containsExactly(12L); // one commit for the whole prefix
        assertThat(progress.snapshot().committedOffset()).isEqualTo(13);
        assertThat(progress.snapshot().inFlight()).isZero();
    }

    @Test
    void entryWithoutToken_isCommittedWithTheNextRecordThatHasOne() {
        PartitionProgress.Entry unreadable = progress.received(0, null);
        PartitionProgress.Entry next = progress.received(1, "ack");
        progress.done(unreadable);
        assertThat(commits).isEmpty();
        progress.done(next);
        assertThat(commits).containsExactly(1L);
    }

    @Test
    void closeAfter_ignoresLaterCompletions_andReportsWhatWasInFlight() throws Exception {
        PartitionProgress.Entry e0 = progress.received(0, "a");
        PartitionProgress.Entry e1 = progress.received(1, "b");
        progress.done(e0);

        int abandoned = progress.closeAfter(0, TimeUnit.MILLISECONDS);

        assertThat(abandoned).isEqualTo(1);
        assertThat(progress.done(e1)).isFalse();
        assertThat(commits).containsExactly(0L); // nothing for the closed assignment after the close
    }

    @Test
    void closeAfter_waitsForInFlightRecords() throws Exception {
        PartitionProgress.Entry e0 = progress.received(0, "a");
        CountDownLatch waiting = new CountDownLatch(1);
        ExecutorService finisher = Executors.newSingleThreadExecutor();
        try {
            finisher.submit(() -> {
                waiting.await();
                return progress.done(e0);
            });
            waiting.countDown();
            assertThat(progress.closeAfter(30, TimeUnit.SECONDS)).isZero();
            assertThat(commits).containsExactly(0L);
        } finally {
            finisher.shutdownNow();
        }
    }

    @Test
    void received_rejectsAnOffsetThatDoesNotMoveForward() {
        progress.received(5, "a");
        assertThatThrownBy(() -> progress.received(5, "b")).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("offset 5 received after 5");
    }

    @Test
    void manyThreadsFinishingInAnyOrder_commitMonotonicallyUpToTheEnd() throws Exception {
        int records = 20_000;
        List<PartitionProgress.Entry> entries = new ArrayList<>();
        for (int i = 0; i < records; i++) {
            entries.add(progress.received(i, i));
        }
        Collections.shuffle(entries, new java.util.Random(42));
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            int slice = records / 4;
            List<java.util.concurrent.Future<?>> done = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                List<PartitionProgress.Entry> mine = entries.subList(t * slice, (t + 1) * slice);
                done.add(pool.submit(() -> mine.forEach(progress::done)));
            }
            for (java.util.concurrent.Future<?> f : done) {
                f.get(30, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(commits).isSorted().doesNotHaveDuplicates();
        assertThat(commits.get(commits.size() - 1)).isEqualTo(records - 1L);
        PartitionProgress.Snapshot s = progress.snapshot();
        assertThat(s.received()).isEqualTo(s.committed() + s.inFlight()); // the class invariant, at rest
        assertThat(s.inFlight()).isZero();
    }
}
