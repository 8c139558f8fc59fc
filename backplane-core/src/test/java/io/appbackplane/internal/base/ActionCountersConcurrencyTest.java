package io.appbackplane.internal.base;

import static org.assertj.core.api.Assertions.assertThat;

import io.appbackplane.ActionCounts;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * {@link ActionCounters}' per-worker tallies under real threads: worker threads (each writing
 * only its own slot's tally) and a thread that is not a worker (the striped counters) count at the
 * same time, in two rounds so that the second round's workers reuse the slots the first round's
 * gave back, while a reader takes snapshots. Nothing is lost, snapshots never go backwards, and a
 * snapshot that sees a request finished also sees it submitted.
 */
class ActionCountersConcurrencyTest {

    private static final int ROUNDS = 2;
    private static final int WORKERS_PER_ROUND = 3;
    private static final int PER_THREAD = 200_000;

    @Test
    void workerTalliesAndStripedCountersAddUpAndSnapshotsStayConsistent() throws Exception {
        ActionCounters counters = new ActionCounters();
        AtomicBoolean writing = new AtomicBoolean(true);
        AtomicReference<Throwable> readerFailure = new AtomicReference<>();
        Thread reader = new Thread(() -> {
            try {
                ActionCounts last = counters.snapshot();
                while (writing.get()) {
                    ActionCounts now = counters.snapshot();
                    assertThat(now.completed() + now.failed()).as("finished <= submitted").isLessThanOrEqualTo(now.submitted());
                    assertThat(now.actionsRun()).isGreaterThanOrEqualTo(last.actionsRun());
                    assertThat(now.completed()).isGreaterThanOrEqualTo(last.completed());
                    assertThat(now.failed()).isGreaterThanOrEqualTo(last.failed());
                    assertThat(now.totalRunTime()).isGreaterThanOrEqualTo(last.totalRunTime());
                    assertThat(now.totalQueueTime()).isGreaterThanOrEqualTo(last.totalQueueTime());
                    last = now;
                }
            } catch (Throwable t) {
                readerFailure.set(t);
            }
        }, "snapshot-reader");
        reader.start();

        Set<Integer> firstRoundSlots = new HashSet<>();
        for (int round = 0; round < ROUNDS; round++) {
            CountDownLatch go = new CountDownLatch(1);
            List<Thread> threads = new ArrayList<>();
            Set<Integer> liveSlots = new HashSet<>();
            for (int w = 0; w < WORKERS_PER_ROUND; w++) {
                WorkerThread worker = new WorkerThread(() -> count(counters, go), "tally-worker-" + round + "-" + w);
                assertThat(liveSlots.add(worker.slot)).as("slot %d is held by one live worker only", worker.slot).isTrue();
                threads.add(worker);
            }
            if (round == 0) {
                firstRoundSlots.addAll(liveSlots);
            }
            threads.add(new Thread(() -> count(counters, go), "not-a-worker-" + round)); // the striped counters
            threads.forEach(Thread::start);
            go.countDown();
            for (Thread t : threads) {
                t.join(Duration.ofSeconds(60).toMillis());
                assertThat(t.isAlive()).as("%s finished", t.getName()).isFalse();
            }
        }
        writing.set(false);
        reader.join(Duration.ofSeconds(60).toMillis());
        assertThat(readerFailure.get()).isNull();

        long threads = ROUNDS * (WORKERS_PER_ROUND + 1L);
        long requests = threads * PER_THREAD;
        ActionCounts total = counters.snapshot();
        assertThat(total.submitted()).isEqualTo(requests);
        assertThat(total.actionsRun()).isEqualTo(requests);
        assertThat(total.completed()).isEqualTo(requests / 2);
        assertThat(total.failed()).isEqualTo(requests / 2);
        assertThat(total.totalQueueTime()).isEqualTo(Duration.ofNanos(threads * (3L * PER_THREAD + PER_THREAD - 1)));
        assertThat(total.totalRunTime()).isEqualTo(Duration.ofNanos(threads * (5L * PER_THREAD + 2)));
        assertThat(total.maxQueueTime()).isEqualTo(Duration.ofNanos(PER_THREAD - 1 + 3));
        assertThat(total.maxRunTime()).isEqualTo(Duration.ofNanos(7));
        assertThat(total.outstanding()).isZero();
        assertThat(firstRoundSlots).hasSize(WORKERS_PER_ROUND);
    }

    /** One thread's requests: submitted, then one action each, then finished (alternately failed). */
    private static void count(ActionCounters counters, CountDownLatch go) {
        try {
            go.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        for (int i = 0; i < PER_THREAD; i++) {
            counters.submitted.increment();
            // queue time 3 except the last (the max), run time 5 except one of 7: sums and maxima are known exactly
            long queueTime = i == PER_THREAD - 1 ? PER_THREAD - 1 + 3 : 3;
            long runTime = i == 7 ? 7 : 5;
            counters.actionRan(WorkerThread.currentSlot(), queueTime, runTime);
            counters.finished(WorkerThread.currentSlot(), i % 2 == 0);
        }
    }
}
