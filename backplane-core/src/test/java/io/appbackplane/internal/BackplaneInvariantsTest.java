package io.appbackplane.internal;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.appbackplane.Action;
import io.appbackplane.Backplane;
import io.appbackplane.BackplaneComponent;
import io.appbackplane.BackplanePolicy;
import io.appbackplane.BackplaneShutdownException;
import io.appbackplane.BackplaneStatistics;
import io.appbackplane.ComponentSpec;
import io.appbackplane.ObjectHandle;
import io.appbackplane.internal.components.DefaultComponent;
import io.appbackplane.internal.objects.WorkObject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link DefaultBackplane#checkInvariants()} after concurrent scenarios with real threads: keyed and
 * pinned objects, replies from another thread, continuations, cancellation, resizing, shutdown.
 */
class BackplaneInvariantsTest {

    private static final Duration WAIT = Duration.ofSeconds(20);

    private DefaultBackplane backplane;
    private ExecutorService replies;

    @BeforeEach
    void start() {
        backplane = (DefaultBackplane) Backplane.builder("invariants")
                .policy(BackplanePolicy.builder()
                        .threads(2)
                        .integrationPeriod(Duration.ofHours(1)) // no real tick: its wake-up of every worker would hide a lost wake-up
                        .build())
                .build();
        replies = Executors.newSingleThreadExecutor(r -> new Thread(r, "replies"));
    }

    @AfterEach
    void close() throws InterruptedException {
        backplane.close();
        replies.shutdownNow();
        assertThat(replies.awaitTermination(WAIT.toSeconds(), SECONDS)).isTrue();
    }

    @Test
    void afterConcurrentRepliesContinuationsCancellationsAndResizes_everyObjectAndEveryTotalIsConsistent()
            throws Exception {
        BackplaneComponent app = backplane.install(ComponentSpec.named("app").withOperationLimit(Integer.MAX_VALUE));
        int keys = 200;
        List<ObjectHandle> handles = new ArrayList<>();
        for (int k = 0; k < 20; k++) { // pinned: they stay in the component, so checkInvariants sees them
            handles.add(app.object(k));
        }
        int producers = 3;
        int perProducer = 20_000;
        List<List<CompletableFuture<Object>>> futures = new ArrayList<>();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        AtomicLong submitted = new AtomicLong();
        List<Thread> threads = new ArrayList<>();
        for (int p = 0; p < producers; p++) {
            List<CompletableFuture<Object>> mine = new ArrayList<>(perProducer);
            futures.add(mine);
            SplittableRandom random = new SplittableRandom(p);
            threads.add(new Thread(() -> {
                for (int i = 0; i < perProducer; i++) {
                    int key = random.nextInt(keys);
                    int priority = random.nextInt(4);
                    Action<Object> action = action(i % 4);
                    mine.add(key < handles.size() && i % 2 == 0
                            ? handles.get(key).submit(priority, action)
                            : app.submit(key, priority, action));
                    submitted.incrementAndGet();
                }
            }, "producer-" + p));
        }
        AtomicBoolean producing = new AtomicBoolean(true);
        int[] cancelled = {0};
        threads.add(new Thread(() -> { // cancels queued work of random keys while it is being produced
            SplittableRandom random = new SplittableRandom(99);
            while (producing.get()) {
                cancelled[0] += app.cancelQueued(random.nextInt(keys));
                Thread.yield();
            }
        }, "canceller"));
        threads.add(new Thread(() -> {
            int[] cycle = {1, 3, 2, 4};
            for (int i = 0; producing.get(); i++) {
                backplane.setThreads(cycle[i % cycle.length]);
                long mark = submitted.get(); // resize every ~1,000 submissions: pacing, not synchronization
                await().atMost(WAIT).pollInterval(Duration.ofMillis(1))
                        .until(() -> !producing.get() || submitted.get() >= mark + 1_000);
            }
            backplane.setThreads(2);
        }, "resizer"));
        threads.forEach(t -> t.setUncaughtExceptionHandler((thread, e) -> failure.set(e)));
        threads.forEach(Thread::start);
        for (Thread t : threads.subList(0, producers)) {
            t.join(WAIT.toMillis());
            assertThat(t.isAlive()).as("producer %s finished", t.getName()).isFalse();
        }
        producing.set(false);
        for (Thread t : threads) {
            t.join(WAIT.toMillis());
            assertThat(t.isAlive()).as("%s finished", t.getName()).isFalse();
        }
        assertThat(failure.get()).isNull();

        long failedByCancel = 0;
        for (List<CompletableFuture<Object>> mine : futures) {
            CompletableFuture.allOf(mine.toArray(CompletableFuture[]::new))
                    .handle((v, e) -> null)
                    .get(WAIT.toSeconds(), SECONDS);
            for (int i = 0; i < mine.size(); i++) {
                CompletableFuture<Object> f = mine.get(i);
                if (f.isCompletedExceptionally()) {
                    Throwable cause = causeOf(f);
                    if (cause instanceof CancellationException) {
                        failedByCancel++;
                    } else {
                        assertThat(i % 4).as("only the throwing kind fails: %s", cause).isEqualTo(3);
                    }
                } else {
                    assertThat(f.join()).isEqualTo("kind " + (i % 4));
                }
            }
        }
        assertThat(failedByCancel).as("every action cancelled by cancelQueued failed with CancellationException")
                .isEqualTo(cancelled[0]);
        await().atMost(WAIT).until(backplane::isIdle);
        await().atMost(WAIT).until(() -> backplane.statistics().busyThreads() == 0);

        backplane.checkInvariants();
        DefaultComponent component = (DefaultComponent) app;
        for (WorkObject object : component.objects()) {
            assertThat(object.state()).as("%s", object).isEqualTo(WorkObject.IDLE);
            assertThat(object.queued()).as("%s", object).isZero();
        }
        BackplaneStatistics stats = backplane.statistics();
        assertThat(stats.readyObjects()).isZero();
        assertThat(stats.waitingObjects()).isZero();
        assertThat(app.statistics().counts().submitted()).isEqualTo((long) producers * perProducer);
        assertThat(stats.totals().outstanding()).isZero();
        // Only the pinned objects remain once the idle sweep has released the others (rule 16).
        await().atMost(WAIT).until(() -> component.objectCount() == handles.size());

        handles.forEach(ObjectHandle::release);
        await().atMost(WAIT).until(() -> component.objectCount() == 0);
        backplane.checkInvariants();
    }

    @Test
    void afterShutdownAbandonsWaitingAndQueuedWork_invariantsHoldAndEveryRequestFailed() throws Exception {
        BackplaneComponent app = backplane.install(ComponentSpec.named("app"));
        List<CompletableFuture<String>> waiting = new ArrayList<>();
        List<CompletableFuture<String>> queuedBehind = new ArrayList<>();
        for (int k = 0; k < 50; k++) {
            waiting.add(app.submit(k, 1, ctx -> ctx.awaitReply(new CompletableFuture<String>(), (c, v, f) -> v)));
            queuedBehind.add(app.submit(k, 2, ctx -> "never: the object waits for a reply that never comes"));
        }
        await().atMost(WAIT).until(() -> backplane.statistics().waitingObjects() == 50);
        backplane.checkInvariants();

        Backplane.ShutdownReport report = backplane.shutdown(Duration.ofMillis(50)).get(WAIT.toSeconds(), SECONDS);

        assertThat(report.failedAtShutdown()).isEqualTo(100);
        for (CompletableFuture<String> f : waiting) {
            assertThatThrownBy(() -> f.get(WAIT.toSeconds(), SECONDS)).hasCauseInstanceOf(BackplaneShutdownException.class);
        }
        for (CompletableFuture<String> f : queuedBehind) {
            assertThatThrownBy(() -> f.get(WAIT.toSeconds(), SECONDS)).hasCauseInstanceOf(BackplaneShutdownException.class);
        }
        backplane.checkInvariants();
        BackplaneStatistics stats = backplane.statistics();
        assertThat(stats.outstanding()).isZero();
        assertThat(stats.waitingObjects()).isZero();
        assertThat(stats.readyObjects()).isZero();
        assertThat(app.statistics().counts().failed()).isEqualTo(100);
        assertThat(stats.totals().outstanding()).isZero();
        assertThat(stats.threads()).as("workers stopped").isZero();
    }

    /** 0: plain; 1: reply from another thread; 2: continuation (yieldTo); 3: throws. */
    private Action<Object> action(int kind) {
        String result = "kind " + kind;
        switch (kind) {
            case 0:
                return ctx -> result;
            case 1:
                return ctx -> {
                    CompletableFuture<String> reply = new CompletableFuture<>();
                    replies.execute(() -> reply.complete(result));
                    return ctx.awaitReply(reply, (c, value, f) -> value);
                };
            case 2:
                return ctx -> ctx.yieldTo(c -> result);
            case 3:
                return ctx -> {
                    throw new IllegalStateException("expected failure");
                };
            default:
                throw new IllegalArgumentException("kind " + kind);
        }
    }

    private static Throwable causeOf(CompletableFuture<?> f) {
        try {
            f.join();
            throw new AssertionError("not failed");
        } catch (java.util.concurrent.CompletionException e) {
            return e.getCause();
        } catch (CancellationException e) {
            return e;
        }
    }
}
