package io.appbackplane;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Rule 7 (one action at a time per object, in FIFO order, at mixed priorities; different objects in
 * parallel) and rule 10 (dispatch in the caller's thread) with real producer and worker threads.
 */
class PerKeyOrderConcurrencyTest {

    private static final Duration WAIT = Duration.ofSeconds(20);

    private Backplane backplane;
    private BackplaneComponent app;

    @BeforeEach
    void start() {
        start(1);
    }

    private void start(int actionsPerTurn) {
        if (backplane != null) {
            backplane.close();
        }
        BackplanePolicy policy = BackplanePolicy.builder()
                .threads(2)
                .integrationPeriod(Duration.ofHours(1)) // no real tick: its wake-up of every worker would hide a lost wake-up
                .actionsPerTurn(actionsPerTurn)
                .slowActionThreshold(Duration.ofMinutes(1)) // some actions block on purpose
                .build();
        backplane = Backplane.builder("per-key").policy(policy).build();
        app = backplane.install(ComponentSpec.named("app").withOperationLimit(Integer.MAX_VALUE));
    }

    @AfterEach
    void close() {
        backplane.close();
    }

    @ParameterizedTest(name = "actions per turn: {0}")
    @ValueSource(ints = {1, 4})
    void rule7_concurrentProducersAtMixedPriorities_eachProducersOrderPerKeyHolds_andAKeyNeverRunsTwoActionsAtOnce(
            int actionsPerTurn) throws Exception {
        start(actionsPerTurn);
        int producers = 4;
        int perProducer = 50_000;
        int keys = 1_000; // keys below 500 keep one priority; the others get a random one per action
        int total = producers * perProducer;
        // Producers race each other, so the order is only defined per (producer, key).
        AtomicIntegerArray lastSeq = new AtomicIntegerArray(producers * keys);
        AtomicBoolean[] running = new AtomicBoolean[keys];
        for (int k = 0; k < keys; k++) {
            running[k] = new AtomicBoolean();
        }
        AtomicIntegerArray runs = new AtomicIntegerArray(total);
        Queue<String> violations = new ConcurrentLinkedQueue<>();
        @SuppressWarnings({"unchecked", "rawtypes"}) // generic array creation
        CompletableFuture<Integer>[] futures = new CompletableFuture[total];
        AtomicReference<Throwable> producerFailure = new AtomicReference<>();

        List<Thread> threads = new ArrayList<>();
        for (int p = 0; p < producers; p++) {
            int producer = p;
            Thread t = new Thread(() -> {
                SplittableRandom random = new SplittableRandom(42 + producer);
                int[] nextSeq = new int[keys];
                for (int i = 0; i < perProducer; i++) {
                    int id = producer * perProducer + i;
                    int key = random.nextInt(keys);
                    int priority = key < keys / 2 ? key % 4 : random.nextInt(4);
                    int seq = ++nextSeq[key];
                    int slot = producer * keys + key;
                    futures[id] = app.submit(key, priority, ctx -> {
                        if (!running[key].compareAndSet(false, true)) {
                            violations.add("key " + key + " ran two actions at once");
                        }
                        int previous = lastSeq.get(slot);
                        if (previous != seq - 1) {
                            violations.add("key " + key + ", producer " + producer + ": #" + seq + " ran after #" + previous);
                        }
                        lastSeq.set(slot, seq);
                        runs.incrementAndGet(id);
                        running[key].set(false);
                        return id;
                    });
                }
            }, "producer-" + p);
            t.setUncaughtExceptionHandler((thread, e) -> producerFailure.set(e));
            threads.add(t);
        }
        threads.forEach(Thread::start);
        for (Thread t : threads) {
            t.join(WAIT.toMillis());
            assertThat(t.isAlive()).as("producer %s finished", t.getName()).isFalse();
        }
        assertThat(producerFailure.get()).isNull();
        CompletableFuture.allOf(futures).get(WAIT.toSeconds(), SECONDS);

        assertThat(violations).isEmpty();
        for (int id = 0; id < total; id++) {
            assertThat(runs.get(id)).as("runs of action %d", id).isEqualTo(1);
            assertThat(futures[id]).isCompletedWithValue(id);
        }
        await().atMost(WAIT).until(backplane::isIdle);
        assertThat(backplane.statistics().totals().completed()).isEqualTo(total);
    }

    @Test
    void rule7_actionsOfDifferentKeysRunInParallelOnTwoWorkers() throws Exception {
        CountDownLatch aRunning = new CountDownLatch(1);
        CountDownLatch bRunning = new CountDownLatch(1);
        // Each waits (bounded) for the other to be running: both succeed only if they overlap.
        CompletableFuture<Boolean> a = app.submit("a", 1, ctx -> {
            aRunning.countDown();
            return bRunning.await(WAIT.toSeconds(), SECONDS);
        });
        CompletableFuture<Boolean> b = app.submit("b", 1, ctx -> {
            bRunning.countDown();
            return aRunning.await(WAIT.toSeconds(), SECONDS);
        });
        assertThat(a.get(2 * WAIT.toSeconds(), SECONDS)).as("a saw b running at the same time").isTrue();
        assertThat(b.get(2 * WAIT.toSeconds(), SECONDS)).as("b saw a running at the same time").isTrue();
    }

    @Test
    void rule7_oneKeyNeverOverlapsEvenWhenAWorkerIsFree() throws Exception {
        CountDownLatch firstRunning = new CountDownLatch(1);
        CountDownLatch releaseFirst = new CountDownLatch(1);
        AtomicBoolean secondRan = new AtomicBoolean();
        CompletableFuture<Boolean> first;
        CompletableFuture<Boolean> second;
        try {
            first = app.submit("k", 2, ctx -> {
                firstRunning.countDown();
                return releaseFirst.await(WAIT.toSeconds(), SECONDS);
            });
            assertThat(firstRunning.await(WAIT.toSeconds(), SECONDS)).isTrue();
            // More urgent, and the second worker is idle: still it must wait for the first action.
            second = app.submit("k", 0, ctx -> secondRan.compareAndSet(false, true));
            CompletableFuture<String> other = app.submit("other", 2, ctx -> "free");
            assertThat(other.get(WAIT.toSeconds(), SECONDS)).as("the second worker is free").isEqualTo("free");
            assertThat(second).isNotDone();
            assertThat(secondRan).isFalse();
        } finally {
            releaseFirst.countDown();
        }
        assertThat(first.get(WAIT.toSeconds(), SECONDS)).isTrue();
        assertThat(second.get(WAIT.toSeconds(), SECONDS)).isTrue();
    }

    @Test
    void rule10_submitEnqueuesInTheCallersThreadAndReturnsBeforeTheActionRuns() throws Exception {
        CountDownLatch bothBusy = new CountDownLatch(2);
        CountDownLatch release = new CountDownLatch(1);
        AtomicBoolean ran = new AtomicBoolean();
        AtomicReference<Thread> ranOn = new AtomicReference<>();
        List<CompletableFuture<Boolean>> blockers = new ArrayList<>();
        CompletableFuture<String> queued;
        try {
            for (String key : List.of("block-1", "block-2")) {
                blockers.add(app.submit(key, 1, ctx -> {
                    bothBusy.countDown();
                    return release.await(WAIT.toSeconds(), SECONDS);
                }));
            }
            assertThat(bothBusy.await(WAIT.toSeconds(), SECONDS)).as("both workers blocked").isTrue();

            queued = app.submit("z", 2, ctx -> {
                ran.set(true);
                ranOn.set(Thread.currentThread());
                return "done";
            });

            // submit() returned with no worker free: the caller's thread queued the action itself, and
            // the object is already visible in its ready queue (no intermediate hand-off queue).
            assertThat(queued).isNotDone();
            assertThat(ran).isFalse();
            BackplaneStatistics stats = backplane.statistics();
            assertThat(stats.busyThreads()).isEqualTo(2);
            assertThat(stats.readyObjects()).isEqualTo(1);
            assertThat(stats.priorities().get(2).readyDepth()).isEqualTo(1);
            assertThat(stats.outstanding()).isEqualTo(3);
        } finally {
            release.countDown();
        }
        assertThat(queued.get(WAIT.toSeconds(), SECONDS)).isEqualTo("done");
        assertThat(ranOn.get()).isNotSameAs(Thread.currentThread());
        assertThat(ranOn.get().getName()).startsWith("backplane-per-key-worker-");
        for (CompletableFuture<Boolean> blocker : blockers) {
            assertThat(blocker.get(WAIT.toSeconds(), SECONDS)).isTrue();
        }
    }
}
