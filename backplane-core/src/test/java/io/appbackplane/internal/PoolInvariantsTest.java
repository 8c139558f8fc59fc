package io.appbackplane.internal;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.appbackplane.Action;
import io.appbackplane.Backplane;
import io.appbackplane.BackplaneComponent;
import io.appbackplane.BackplanePolicy;
import io.appbackplane.BackplaneRejectedException;
import io.appbackplane.BackplaneShutdownException;
import io.appbackplane.BackplaneStatistics;
import io.appbackplane.ComponentSpec;
import io.appbackplane.internal.components.DefaultComponent;
import io.appbackplane.internal.objects.PooledObjects;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Pools under real threads (rule 12): members taking the backlog, going idle, waiting for replies
 * from another thread and resuming, while producers race them and the worker count (the number of
 * members that may run) changes; then, with work still arriving, shutdown. Nothing may be stranded
 * in a backlog: every request finishes, and the pool's bookkeeping returns to all members idle.
 */
class PoolInvariantsTest {

    private static final Duration WAIT = Duration.ofSeconds(30);

    private DefaultBackplane backplane;
    private ExecutorService replies;

    @BeforeEach
    void start() {
        backplane = (DefaultBackplane) Backplane.builder("pool-invariants")
                .policy(BackplanePolicy.builder()
                        .threads(2)
                        .integrationPeriod(Duration.ofHours(1)) // no real tick: its wake-up of every worker would hide a lost hand-over
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
    void membersRacingProducersRepliesAndResizes_finishEveryRequestAndEndIdle() throws Exception {
        BackplaneComponent app = backplane.install(ComponentSpec.named("app").withOperationLimit(Integer.MAX_VALUE));
        PooledObjects four = (PooledObjects) app.pool("four", 4);
        PooledObjects one = (PooledObjects) app.pool("one", 1); // a single member hands over to itself
        int producers = 3;
        int perProducer = 15_000;
        List<List<CompletableFuture<Object>>> futures = new ArrayList<>();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        AtomicLong submitted = new AtomicLong();
        AtomicBoolean producing = new AtomicBoolean(true);
        List<Thread> threads = new ArrayList<>();
        for (int p = 0; p < producers; p++) {
            List<CompletableFuture<Object>> mine = new ArrayList<>(perProducer);
            futures.add(mine);
            SplittableRandom random = new SplittableRandom(p);
            threads.add(new Thread(() -> {
                for (int i = 0; i < perProducer; i++) {
                    PooledObjects pool = random.nextInt(4) == 0 ? one : four;
                    mine.add(pool.submit(random.nextInt(4), action(i % 4, pool)));
                    submitted.incrementAndGet();
                }
            }, "producer-" + p));
        }
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

        for (List<CompletableFuture<Object>> mine : futures) {
            CompletableFuture.allOf(mine.toArray(CompletableFuture[]::new)).get(WAIT.toSeconds(), SECONDS);
            for (int i = 0; i < mine.size(); i++) {
                assertThat(mine.get(i).join()).isEqualTo("kind " + (i % 4));
            }
        }
        await().atMost(WAIT).until(backplane::isIdle);
        await().atMost(WAIT).until(() -> backplane.statistics().busyThreads() == 0);

        backplane.checkInvariants();
        four.checkQuiescent();
        one.checkQuiescent();
        assertThat(four.loads()).containsOnly(0);
        BackplaneStatistics stats = backplane.statistics();
        assertThat(stats.readyObjects()).isZero();
        assertThat(stats.waitingObjects()).isZero();
        assertThat(stats.totals().outstanding()).isZero();
        // every submission and its follow-ups (kind 3 submits one more to the same pool)
        assertThat(app.statistics().counts().completed()).isEqualTo(producers * perProducer + producers * perProducer / 4);
    }

    @Test
    void shutdownWhileProducersSubmit_everyAcceptedRequestFinishesAndNoneIsStrandedInABacklog() throws Exception {
        BackplaneComponent app = backplane.install(ComponentSpec.named("app").withOperationLimit(Integer.MAX_VALUE));
        PooledObjects pool = (PooledObjects) app.pool("pool", 3);
        List<CompletableFuture<Object>> accepted = new ArrayList<>();
        AtomicLong rejected = new AtomicLong();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread producer = new Thread(() -> {
            SplittableRandom random = new SplittableRandom(7);
            for (int i = 0; i < 200_000 && rejected.get() == 0; i++) {
                try {
                    accepted.add(pool.submit(random.nextInt(4), action(i % 3, pool)));
                } catch (BackplaneRejectedException e) {
                    rejected.incrementAndGet(); // shutdown began: later submissions are refused
                }
            }
        }, "producer");
        producer.setUncaughtExceptionHandler((thread, e) -> failure.set(e));
        producer.start();
        await().atMost(WAIT).until(() -> app.statistics().counts().completed() > 1_000);

        backplane.shutdown(Duration.ofMillis(20)).get(WAIT.toSeconds(), SECONDS);
        producer.join(WAIT.toMillis());
        assertThat(producer.isAlive()).isFalse();
        assertThat(failure.get()).isNull();

        for (CompletableFuture<Object> f : new ArrayList<>(accepted)) {
            Object outcome = f.handle((value, e) -> e == null ? value : (e instanceof CompletionException ? e.getCause() : e))
                    .get(WAIT.toSeconds(), SECONDS);
            if (!(outcome instanceof BackplaneShutdownException)) {
                assertThat(outcome).asString().startsWith("kind ");
            }
        }
        backplane.checkInvariants();
        assertThat(backplane.statistics().totals().outstanding()).isZero();
        assertThat(app.statistics().outstanding()).isZero();
    }

    @Test
    void submitsThatRacedTheReleaseOfTheirPool_runOnFreshObjects_andGiveTheirClaimsBack() throws Exception {
        BackplaneComponent app = backplane.install(ComponentSpec.named("app").withIdleObjectRetention(Duration.ZERO));
        backplane.setThreads(1); // one place, so a claim that was not given back would strand the second
        PooledObjects pool = (PooledObjects) app.pool("pool", 1);
        pool.release(); // its member idle and unpinned: released at once

        // As submits that passed the released check just before release(): the pool's path, not its check.
        CompletableFuture<String> first = ((DefaultComponent) app).submitToPool(pool, 1, ctx -> "ran on " + ctx.objectKey());
        CompletableFuture<String> second = ((DefaultComponent) app).submitToPool(pool, 1, ctx -> "ran on " + ctx.objectKey());

        assertThat(first.get(WAIT.toSeconds(), SECONDS)).isEqualTo("ran on pool#0");
        assertThat(second.get(WAIT.toSeconds(), SECONDS)).isEqualTo("ran on pool#0");
        await().atMost(WAIT).until(() -> app.objectCount() == 0); // the fresh objects are released once idle
        assertThat(app.statistics().outstanding()).isZero();
        pool.checkQuiescent();
        backplane.checkInvariants();
    }

    @Test
    void workSubmittedToAMembersKey_joinsItsPool_andCancellingItThereFreesTheMembersPlace() throws Exception {
        DefaultBackplane stepped = (DefaultBackplane) Backplane.builder("pool-keys")
                .policy(BackplanePolicy.builder().threads(1).build())
                .clock(new io.appbackplane.ManualClock())
                .stepMode()
                .build();
        try {
            BackplaneComponent app = stepped.install(ComponentSpec.named("app"));
            PooledObjects pool = (PooledObjects) app.pool("pool", 2);
            AtomicReference<Object> memberKey = new AtomicReference<>();
            CompletableFuture<Object> viaKey = new CompletableFuture<>();
            pool.submit(1, ctx -> {
                memberKey.set(ctx.objectKey());
                app.submit(ctx.objectKey(), 1, c -> "via the member's key").whenComplete((v, f) -> viaKey.complete(v));
                return null;
            });
            stepped.stepper().runUntilIdle();
            assertThat(viaKey).isCompletedWithValue("via the member's key");
            pool.checkQuiescent(); // the request through the key took and gave back a place like any other

            pool.submit(1, ctx -> "claimed a member, not run yet"); // the lowest idle member: the same one
            assertThat(app.cancelQueued(memberKey.get())).isEqualTo(1);
            pool.checkQuiescent(); // the cancelled request's member is idle and its place free again

            CompletableFuture<Object> after = pool.submit(1, ctx -> "after");
            stepped.stepper().runUntilIdle();
            assertThat(after).isCompletedWithValue("after");
            pool.checkQuiescent();
            stepped.checkInvariants();
        } finally {
            stepped.close();
        }
    }

    /** 0: plain; 1: reply from another thread; 2: continuation (yieldTo); 3: submits one more to {@code pool}. */
    private Action<Object> action(int kind, PooledObjects pool) {
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
                    pool.execute(1, c -> null);
                    return result;
                };
            default:
                throw new IllegalArgumentException("kind " + kind);
        }
    }
}
