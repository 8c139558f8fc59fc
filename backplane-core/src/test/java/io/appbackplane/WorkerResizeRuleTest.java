package io.appbackplane;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Rule 9 with real threads: workers are added and removed while producers submit, without losing,
 * duplicating or reordering an action; idle workers block rather than spin.
 */
class WorkerResizeRuleTest {

    private static final AtomicInteger BACKPLANES = new AtomicInteger();
    private static final Duration WAIT = Duration.ofSeconds(20);

    /** One name per test, so a worker of an earlier test's backplane that is still exiting is not counted. */
    private final String name = "resize-" + BACKPLANES.incrementAndGet();
    private Backplane backplane;

    @AfterEach
    void close() {
        if (backplane != null) {
            backplane.close();
        }
    }

    private BackplaneComponent start(int threads) {
        BackplanePolicy policy = BackplanePolicy.builder()
                .threads(threads)
                .integrationPeriod(Duration.ofHours(1)) // no real tick: its wake-up of every worker would hide a lost wake-up
                .slowActionThreshold(Duration.ofMinutes(1)) // some actions block on purpose
                .build();
        backplane = Backplane.builder(name).policy(policy).build();
        return backplane.install(ComponentSpec.named("app").withOperationLimit(Integer.MAX_VALUE));
    }

    @Test
    void resizingWhileProducersSubmit_losesNoAction_runsNoneTwice_keepsPerKeyOrder_andIdleWorkersPark() throws Exception {
        BackplaneComponent app = start(2);
        int producers = 4;
        int perProducer = 50_000;
        int keys = 2_000; // producer p owns the keys k with k % producers == p, so each key's order is defined
        int total = producers * perProducer;
        AtomicIntegerArray runs = new AtomicIntegerArray(total);
        AtomicIntegerArray lastSeq = new AtomicIntegerArray(keys);
        AtomicLong ran = new AtomicLong();
        AtomicLong submitted = new AtomicLong();
        AtomicInteger resizes = new AtomicInteger();
        int checkpoint = 2_500; // a producer goes on past submission n × 2,500 only after n resizes
        Queue<String> orderViolations = new ConcurrentLinkedQueue<>();
        @SuppressWarnings({"unchecked", "rawtypes"}) // generic array creation
        CompletableFuture<Integer>[] futures = new CompletableFuture[total];

        List<Thread> threads = new ArrayList<>();
        for (int p = 0; p < producers; p++) {
            int producer = p;
            threads.add(new Thread(() -> {
                SplittableRandom random = new SplittableRandom(producer);
                int[] nextSeq = new int[keys];
                for (int i = 0; i < perProducer; i++) {
                    if (i > 0 && i % checkpoint == 0) {
                        // Interleave resizes with submissions whatever the thread timing is.
                        int needed = i / checkpoint;
                        await().pollInSameThread().pollInterval(Duration.ofMillis(1)).atMost(WAIT)
                                .until(() -> resizes.get() >= needed);
                    }
                    int id = producer * perProducer + i;
                    int key = producer + producers * random.nextInt(keys / producers);
                    int seq = ++nextSeq[key];
                    futures[id] = app.submit(key, random.nextInt(4), ctx -> {
                        int previous = lastSeq.get(key);
                        if (previous != seq - 1) {
                            orderViolations.add("key " + key + ": ran #" + seq + " after #" + previous);
                        }
                        lastSeq.set(key, seq);
                        runs.incrementAndGet(id);
                        ran.incrementAndGet();
                        return id;
                    });
                    submitted.incrementAndGet();
                }
            }, "producer-" + p));
        }
        int[] cycle = {1, 4, 2, 3, 1};
        Thread resizer = new Thread(() -> {
            while (ran.get() < total) {
                backplane.setThreads(cycle[resizes.get() % cycle.length]);
                resizes.incrementAndGet();
                // Pacing, not synchronization: resize again after ~2,000 more actions ran, or at once
                // when everything submitted so far has run (producers may be waiting for this resize).
                long mark = ran.get();
                long pending = submitted.get();
                await().pollInSameThread().pollInterval(Duration.ofMillis(1)).atMost(WAIT)
                        .until(() -> ran.get() >= Math.min(mark + 2_000, pending));
            }
        }, "resizer");
        threads.forEach(Thread::start);
        resizer.start();
        for (Thread t : threads) {
            t.join(WAIT.toMillis());
            assertThat(t.isAlive()).as("producer %s finished", t.getName()).isFalse();
        }
        CompletableFuture.allOf(futures).get(WAIT.toSeconds(), SECONDS);
        resizer.join(WAIT.toMillis());
        assertThat(resizer.isAlive()).as("resizer finished").isFalse();

        assertThat(resizes.get()).as("resizes done while work ran").isGreaterThanOrEqualTo(perProducer / checkpoint - 1);
        assertThat(orderViolations).as("per-key order").isEmpty();
        for (int id = 0; id < total; id++) {
            assertThat(runs.get(id)).as("runs of action %d", id).isEqualTo(1);
            assertThat(futures[id]).isCompletedWithValue(id);
        }
        await().atMost(WAIT).until(backplane::isIdle);
        BackplaneStatistics stats = backplane.statistics();
        assertThat(stats.outstanding()).isZero();
        assertThat(stats.totals().completed()).isEqualTo(total);
        assertThat(stats.totals().failed()).isZero();
        assertThat(stats.totals().outstanding()).isZero();

        backplane.setThreads(3);
        await().atMost(WAIT).until(() -> backplane.statistics().threads() == 3);
        await().atMost(WAIT).until(() -> liveWorkers().size() == 3);

        assertIdleWorkersBlockWithoutSpinning();
    }

    @Test
    void roundTripsToParkedWorkersWhileResizing_neverLoseAWakeUp() throws Exception {
        BackplaneComponent app = start(2);
        int roundTrips = 10_000;
        AtomicInteger done = new AtomicInteger();
        AtomicReference<Throwable> resizerFailure = new AtomicReference<>();
        int[] cycle = {1, 4, 2, 3, 1};
        AtomicInteger resizes = new AtomicInteger();
        Thread resizer = new Thread(() -> {
            while (done.get() < roundTrips) {
                backplane.setThreads(cycle[resizes.get() % cycle.length]);
                int k = resizes.incrementAndGet(); // resize k, then let the client reach round trip k × 50
                await().pollInSameThread().pollInterval(Duration.ofMillis(1)).atMost(WAIT)
                        .until(() -> done.get() >= Math.min(k * 50, roundTrips));
            }
        }, "resizer");
        resizer.setUncaughtExceptionHandler((t, e) -> resizerFailure.set(e));
        resizer.start();
        // One client, so no other submitter's wake-up can rescue a lost one, and no real tick either:
        // each request arrives while the workers are idle or going idle, and a lost wake-up would
        // leave it queued with every worker parked until this bounded get fails.
        for (int i = 0; i < roundTrips; i++) {
            if (i % 50 == 0) { // round trip k × 50 waits for resize k + 1: resizes interleave whatever the timing
                int needed = i / 50 + 1;
                await().pollInSameThread().pollInterval(Duration.ofMillis(1)).atMost(WAIT)
                        .until(() -> resizes.get() >= needed);
            }
            int value = i;
            assertThat(app.submit("client", 1, ctx -> value).get(10, SECONDS)).isEqualTo(value);
            done.incrementAndGet();
        }
        resizer.join(WAIT.toMillis());
        assertThat(resizer.isAlive()).as("resizer finished").isFalse();
        assertThat(resizerFailure.get()).isNull();
        assertThat(resizes.get()).isGreaterThanOrEqualTo(roundTrips / 50);
    }

    @Test
    void shrinking_retiresBusyWorkersOnlyAfterTheirActionEnds() throws Exception {
        BackplaneComponent app = start(4);
        CountDownLatch started = new CountDownLatch(4);
        CountDownLatch release = new CountDownLatch(1);
        List<CompletableFuture<Boolean>> blocked = new ArrayList<>();
        try {
            for (int k = 0; k < 4; k++) {
                blocked.add(app.submit("blocked-" + k, 1, ctx -> {
                    started.countDown();
                    return release.await(WAIT.toSeconds(), SECONDS);
                }));
            }
            assertThat(started.await(WAIT.toSeconds(), SECONDS)).as("four workers busy at once").isTrue();

            backplane.setThreads(1);

            assertThat(backplane.statistics().threads()).as("no worker leaves in the middle of an action").isEqualTo(4);
            assertThat(backplane.statistics().busyThreads()).isEqualTo(4);
            assertThat(blocked).noneMatch(CompletableFuture::isDone);
        } finally {
            release.countDown();
        }
        for (CompletableFuture<Boolean> f : blocked) {
            assertThat(f.get(WAIT.toSeconds(), SECONDS)).isTrue();
        }
        await().atMost(WAIT).until(() -> backplane.statistics().threads() == 1);
        await().atMost(WAIT).until(() -> liveWorkers().size() == 1);
        // The one remaining worker still serves work.
        assertThat(app.submit("after", 1, ctx -> "ok").get(WAIT.toSeconds(), SECONDS)).isEqualTo("ok");
    }

    @Test
    void growing_startsWorkersThatPickUpAlreadyQueuedWork() throws Exception {
        BackplaneComponent app = start(1);
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        CompletableFuture<Boolean> blocker;
        CompletableFuture<String> queued;
        try {
            blocker = app.submit("blocker", 1, ctx -> {
                started.countDown();
                return release.await(WAIT.toSeconds(), SECONDS);
            });
            assertThat(started.await(WAIT.toSeconds(), SECONDS)).isTrue();
            queued = app.submit("other", 1, ctx -> "ran");
            assertThat(queued).as("the only worker is blocked").isNotDone();

            backplane.setThreads(2);

            assertThat(queued.get(WAIT.toSeconds(), SECONDS)).as("served by the added worker").isEqualTo("ran");
            assertThat(blocker).isNotDone();
        } finally {
            release.countDown();
        }
        assertThat(blocker.get(WAIT.toSeconds(), SECONDS)).isTrue();
        assertThat(backplane.statistics().threads()).isEqualTo(2);
    }

    private void assertIdleWorkersBlockWithoutSpinning() {
        await().atMost(WAIT).untilAsserted(() -> assertThat(liveWorkers())
                .isNotEmpty()
                .allSatisfy(t -> assertThat(t.getThreadState()).as(t.getThreadName())
                        .isIn(Thread.State.WAITING, Thread.State.TIMED_WAITING)));
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        if (!mx.isThreadCpuTimeSupported() || !mx.isThreadCpuTimeEnabled()) {
            return; // the thread states above already show the workers block
        }
        long[] ids = liveWorkers().stream().mapToLong(ThreadInfo::getThreadId).toArray();
        long before = cpuNanos(mx, ids);
        // Idle workers must use (almost) no CPU for a whole 500 ms window; a spinning worker would
        // burn ~500 ms.
        await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(3))
                .until(() -> cpuNanos(mx, ids) - before < Duration.ofMillis(50).toNanos());
    }

    private static long cpuNanos(ThreadMXBean mx, long[] ids) {
        long sum = 0;
        for (long id : ids) {
            sum += Math.max(0, mx.getThreadCpuTime(id)); // -1 once a thread has exited
        }
        return sum;
    }

    /** The live worker threads of this test's backplane (by name), with their states. */
    private List<ThreadInfo> liveWorkers() {
        List<ThreadInfo> workers = new ArrayList<>();
        for (ThreadInfo t : ManagementFactory.getThreadMXBean().dumpAllThreads(false, false)) {
            if (t.getThreadName().startsWith("backplane-" + name + "-worker-")) {
                workers.add(t);
            }
        }
        return workers;
    }
}
