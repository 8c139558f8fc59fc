package io.appbackplane.kafka;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.jetbrains.lincheck.datastructures.StressOptions;
import org.jetbrains.lincheck.datastructures.Validate;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Lincheck tests of {@link PartitionProgress}: the consumer thread receives records and closes the
 * assignment (lost, or revoked without waiting) while workers start and finish records in any
 * order. Every method holds the one lock, so the whole object must be linearizable: each concurrent
 * history is checked against sequential runs of the same operations (results: whether a start or a
 * done counted, in-flight and running counts at the close, snapshots). Besides, {@code @Validate}
 * checks the commit rule over the whole run: committed offsets only grow, each one's record and
 * every earlier one were done, no commit follows the close, a closed progress lets nothing start,
 * and the counts agree ({@code received = committed + window}, {@code 0 <= running <= inFlight}).
 */
public class PartitionProgressLincheckTest {

    static final int RECORDS = 4;

    public static class Progress {
        private final List<Long> commits = new CopyOnWriteArrayList<>(); // appended under the progress's lock
        private final PartitionProgress progress = new PartitionProgress(entry -> commits.add(entry.offset));
        private final AtomicReferenceArray<PartitionProgress.Entry> entries = new AtomicReferenceArray<>(RECORDS);
        private int nextOffset; // the consumer thread's only (nonParallelGroup)
        private volatile int commitsAtClose = -1;

        public Progress() {
            // one record received up front, so starts and dones have something to work on at once
            entries.set(0, progress.received(nextOffset++, "ack-0"));
        }

        /** The consumer thread: the partition's next record. */
        @Operation(nonParallelGroup = "consumer")
        public int receive() {
            if (nextOffset >= RECORDS) {
                return -1;
            }
            int offset = nextOffset++;
            synchronized (this) { // a worker learns of a record only once it was received (as from the dispatcher)
                entries.set(offset, progress.received(offset, "ack-" + offset));
            }
            return offset;
        }

        /** A worker starts record {@code i}'s action: false once closed (the record moved on), or if not received. */
        @Operation
        public boolean start(@Param(gen = IntGen.class, conf = "0:3") int i) {
            PartitionProgress.Entry entry = published(i);
            if (entry == null) {
                return false;
            }
            return progress.start(entry);
        }

        /** Record {@code i} is done: whether it counted (false once closed, for a repeat, or if not received). */
        @Operation
        public boolean done(@Param(gen = IntGen.class, conf = "0:3") int i) {
            PartitionProgress.Entry entry = published(i);
            return entry != null && progress.done(entry);
        }

        /** The consumer thread: the partition is lost (closed at once). */
        @Operation(nonParallelGroup = "consumer")
        public PartitionProgress.Snapshot lose() {
            PartitionProgress.Snapshot atClose = progress.close();
            commitsAtClose = commitsSoFar(); // after the close no commit may follow
            return atClose;
        }

        /** The consumer thread: the partition is revoked and nothing waits (a zero revoke timeout). */
        @Operation(nonParallelGroup = "consumer")
        public int revokeNow() throws InterruptedException {
            int inFlight = progress.closeAfter(0, TimeUnit.NANOSECONDS);
            commitsAtClose = commitsSoFar();
            return inFlight;
        }

        @Operation
        public synchronized PartitionProgress.Snapshot snapshot() {
            return progress.snapshot(); // under the harness's monitor: a record counted as received is also published
        }

        private synchronized PartitionProgress.Entry published(int i) {
            return entries.get(i);
        }

        private int commitsSoFar() {
            progress.snapshot(); // takes the progress's lock, under which commit callbacks append: their writes are visible
            return commits.size();
        }

        @Validate
        public void commitRuleHolds() {
            long previous = -1;
            for (long committed : commits) {
                check(committed > previous, "commits " + commits + " do not grow");
                previous = committed;
                for (int i = 0; i <= committed; i++) {
                    check(entries.get(i) != null && entries.get(i).done, "committed " + committed + " before record " + i + " was done");
                }
            }
            if (commitsAtClose >= 0) {
                check(commits.size() == commitsAtClose, "commits " + commits + " continued after the close (" + commitsAtClose + " before)");
            }
            if (s0().closed()) {
                // nothing starts once closed: a start now is refused for every received record
                for (int i = 0; i < RECORDS; i++) {
                    PartitionProgress.Entry entry = entries.get(i);
                    check(entry == null || !progress.start(entry), "record " + i + " started after the close");
                }
            }
            PartitionProgress.Snapshot s = progress.snapshot();
            check(s.running() >= 0 && s.running() <= s.inFlight(), "running " + s.running() + " of " + s.inFlight() + " in flight");
            check(s.received() == s.committed() + windowSize(), "received " + s.received() + " != committed " + s.committed()
                    + " + window");
        }

        private PartitionProgress.Snapshot s0() {
            return progress.snapshot();
        }

        private int windowSize() {
            int notCommitted = 0;
            long committedOffset = progress.snapshot().committedOffset();
            for (int i = 0; i < RECORDS; i++) {
                if (entries.get(i) != null && i >= Math.max(0, committedOffset)) {
                    notCommitted++;
                }
            }
            return notCommitted;
        }

        private static void check(boolean condition, String message) {
            if (!condition) {
                throw new IllegalStateException(message);
            }
        }
    }

    @Test
    public void progress_stress_linearizableAndCommitsOnlyDonePrefixes() {
        stress(1).iterations(QUICK_SCENARIOS).check(Progress.class);
    }

    @Test
    public void progress_modelChecking_linearizableAndCommitsOnlyDonePrefixes() {
        modelChecking(1).iterations(QUICK_SCENARIOS).check(Progress.class);
    }

    @Test
    @Tag("stress")
    public void progress_longRun() {
        stress(10).check(Progress.class);
        modelChecking(10).check(Progress.class);
    }

    /** The default build's quick pass: as many scenarios as the core's Lincheck tests run in it. */
    static final int QUICK_SCENARIOS = 2;

    /** 2 threads of 3 operations, 2 before and 1 after, as the core's Lincheck tests; 4 × scale scenarios (the default build runs {@link #QUICK_SCENARIOS}; -Pstress 40). */
    static StressOptions stress(int scale) {
        return new StressOptions().iterations(4 * scale).invocationsPerIteration(100)
                .threads(2).actorsPerThread(3).actorsBefore(2).actorsAfter(1);
    }

    static ModelCheckingOptions modelChecking(int scale) {
        return new ModelCheckingOptions().iterations(4 * scale).invocationsPerIteration(50)
                .threads(2).actorsPerThread(3).actorsBefore(2).actorsAfter(1);
    }
}
