package io.appbackplane;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Rule 17 after a concurrent run: every request is counted exactly once, as rejected, completed or
 * failed, per component, per priority and in the totals, and nothing is left ready or waiting —
 * with replies completed on another thread, reply failures, reply timeouts and rejections.
 */
class ConcurrentStatisticsTest {

    private static final Duration WAIT = Duration.ofSeconds(20);
    /** Long enough never to expire in a test: the outcome must not depend on timing. */
    private static final Duration NEVER = Duration.ofHours(1);

    private Backplane backplane;
    private ExecutorService replies;

    @BeforeEach
    void start() {
        BackplanePolicy policy = BackplanePolicy.builder()
                .threads(2)
                .integrationPeriod(Duration.ofHours(1)) // no real tick: its wake-up of every worker would hide a lost wake-up
                .build();
        backplane = Backplane.builder("stats").policy(policy).build();
        replies = Executors.newSingleThreadExecutor(r -> new Thread(r, "replies"));
    }

    @AfterEach
    void close() throws InterruptedException {
        backplane.close();
        replies.shutdownNow();
        assertThat(replies.awaitTermination(WAIT.toSeconds(), SECONDS)).isTrue();
    }

    /** What an action of the mix does; the outcome is fixed by the kind, never by timing. */
    private enum Kind {
        PLAIN(1, true),
        THROWS(1, false),
        REPLY(2, true),
        REPLY_FAILS(2, false),
        REPLY_WITH_TIMEOUT(2, true);

        final int actions;
        final boolean completes;

        Kind(int actions, boolean completes) {
            this.actions = actions;
            this.completes = completes;
        }
    }

    private CompletableFuture<String> submit(BackplaneComponent component, Object key, int priority, Kind kind) {
        return component.submit(key, priority, ctx -> {
            switch (kind) {
                case PLAIN:
                    return "plain";
                case THROWS:
                    throw new IllegalStateException("expected failure");
                case REPLY: {
                    CompletableFuture<String> reply = new CompletableFuture<>();
                    replies.execute(() -> reply.complete("reply"));
                    return ctx.awaitReply(reply, (c, value, failure) -> value);
                }
                case REPLY_FAILS: {
                    CompletableFuture<String> reply = new CompletableFuture<>();
                    replies.execute(() -> reply.completeExceptionally(new IllegalArgumentException("reply failed")));
                    return ctx.awaitReply(reply, (c, value, failure) -> {
                        throw new IllegalStateException("handler rethrows", failure);
                    });
                }
                case REPLY_WITH_TIMEOUT: {
                    CompletableFuture<String> reply = new CompletableFuture<>();
                    replies.execute(() -> reply.complete("in time"));
                    return ctx.awaitReply(reply, NEVER, (c, value, failure) -> {
                        if (failure != null) {
                            throw new IllegalStateException("a one-hour timeout expired", failure);
                        }
                        return value;
                    });
                }
                default:
                    throw new IllegalStateException("unknown kind " + kind);
            }
        });
    }

    @Test
    void afterAConcurrentMixWithRepliesTimeoutsAndRejections_everyRequestIsCountedOnceAndNothingIsLeft()
            throws Exception {
        BackplaneComponent alpha = backplane.install(ComponentSpec.named("alpha").withOperationLimit(Integer.MAX_VALUE));
        BackplaneComponent beta = backplane.install(ComponentSpec.named("beta").withOperationLimit(Integer.MAX_VALUE));
        int limit = 8;
        BackplaneComponent limited = backplane.install(ComponentSpec.named("limited").withOperationLimit(limit)
                .withAdmissionReserve(0)); // the plain limit: every priority may fill it

        int producers = 4; // 0 and 1 feed alpha, 2 and 3 feed beta
        int perProducer = 10_000;
        Kind[] kinds = Kind.values();
        List<List<CompletableFuture<String>>> futures = new ArrayList<>();
        AtomicReference<Throwable> producerFailure = new AtomicReference<>();
        List<Thread> threads = new ArrayList<>();
        for (int p = 0; p < producers; p++) {
            BackplaneComponent target = p < 2 ? alpha : beta;
            List<CompletableFuture<String>> mine = new ArrayList<>(perProducer);
            futures.add(mine);
            SplittableRandom random = new SplittableRandom(p);
            Thread t = new Thread(() -> {
                for (int i = 0; i < perProducer; i++) {
                    mine.add(submit(target, random.nextInt(500), random.nextInt(4), kinds[i % kinds.length]));
                }
            }, "producer-" + p);
            t.setUncaughtExceptionHandler((thread, e) -> producerFailure.set(e));
            threads.add(t);
        }
        threads.forEach(Thread::start);

        // Meanwhile: replies that never come, with a short timeout (the only possible outcome is the timeout).
        int timeouts = 10;
        List<CompletableFuture<String>> timedOut = new ArrayList<>();
        for (int i = 0; i < timeouts; i++) {
            timedOut.add(alpha.submit("timeout-" + i, 1, ctx -> ctx.awaitReply(new CompletableFuture<String>(),
                    Duration.ofMillis(50), (c, value, failure) -> {
                        throw new IllegalStateException("timed out", failure);
                    })));
        }
        // Meanwhile: fill "limited" with requests whose replies the test holds, then exceed the limit.
        List<CompletableFuture<String>> held = new ArrayList<>();
        List<CompletableFuture<String>> heldRequests = new ArrayList<>();
        for (int i = 0; i < limit; i++) {
            CompletableFuture<String> reply = new CompletableFuture<>();
            held.add(reply);
            heldRequests.add(limited.submit("held-" + i, 2, ctx -> ctx.awaitReply(reply, NEVER, (c, v, f) -> v)));
        }
        int rejections = 5;
        for (int i = 0; i < rejections; i++) {
            assertThatThrownBy(() -> limited.submit("over", 3, ctx -> "never runs"))
                    .isInstanceOf(BackplaneRejectedException.class)
                    .extracting(e -> ((BackplaneRejectedException) e).reason())
                    .isEqualTo(BackplaneRejectedException.Reason.COMPONENT_LIMIT);
        }
        await().atMost(WAIT).until(() -> limited.statistics().waitingObjects() == limit);
        for (CompletableFuture<String> reply : held) {
            replies.execute(() -> reply.complete("released"));
        }

        for (Thread t : threads) {
            t.join(WAIT.toMillis());
            assertThat(t.isAlive()).as("producer %s finished", t.getName()).isFalse();
        }
        assertThat(producerFailure.get()).isNull();
        for (CompletableFuture<String> f : timedOut) {
            assertThatThrownBy(() -> f.get(WAIT.toSeconds(), SECONDS))
                    .isInstanceOf(ExecutionException.class)
                    .cause().hasCauseInstanceOf(ReplyTimeoutException.class);
        }
        for (CompletableFuture<String> f : heldRequests) {
            assertThat(f.get(WAIT.toSeconds(), SECONDS)).isEqualTo("released");
        }
        for (int p = 0; p < producers; p++) {
            List<CompletableFuture<String>> mine = futures.get(p);
            CompletableFuture.allOf(mine.toArray(CompletableFuture[]::new))
                    .handle((v, e) -> null)
                    .get(WAIT.toSeconds(), SECONDS);
            for (int i = 0; i < perProducer; i++) {
                Kind kind = kinds[i % kinds.length];
                assertThat(mine.get(i)).as("request %d of producer %d (%s)", i, p, kind).isDone();
                assertThat(mine.get(i).isCompletedExceptionally()).as("%s fails", kind).isEqualTo(!kind.completes);
            }
        }
        await().atMost(WAIT).until(backplane::isIdle);

        // Expected counts, fixed by the mix.
        long perKind = perProducer / kinds.length * 2L; // two producers per component
        long mixCompleted = 0;
        long mixFailed = 0;
        long mixActions = 0;
        for (Kind kind : kinds) {
            mixCompleted += kind.completes ? perKind : 0;
            mixFailed += kind.completes ? 0 : perKind;
            mixActions += kind.actions * perKind;
        }
        long[] expectedAlpha = {2L * perProducer + timeouts, 0, mixCompleted, mixFailed + timeouts, mixActions + 2L * timeouts};
        long[] expectedBeta = {2L * perProducer, 0, mixCompleted, mixFailed, mixActions};
        long[] expectedLimited = {limit + rejections, rejections, limit, 0, 2L * limit};

        await().atMost(WAIT).untilAsserted(() -> {
            BackplaneStatistics stats = backplane.statistics();
            assertThat(stats.outstanding()).isZero();
            assertThat(stats.readyObjects()).isZero();
            assertThat(stats.waitingObjects()).isZero();
            assertThat(stats.busyThreads()).isZero();
            assertThat(stats.priorities()).allSatisfy(p -> assertThat(p.readyDepth()).isZero());

            assertCounts(component(stats, "alpha"), expectedAlpha);
            assertCounts(component(stats, "beta"), expectedBeta);
            assertCounts(component(stats, "limited"), expectedLimited);
            assertThat(stats.components()).allSatisfy(c -> assertBalanced(c.name(), c.counts()));

            // Totals = Σ components = Σ priorities, and balanced.
            ActionCounts totals = stats.totals();
            assertBalanced("totals", totals);
            // Σ over every component (the backplane's own one included, whatever it ran).
            long[] sum = new long[5];
            for (ComponentStatistics c : stats.components()) {
                sum[0] += c.counts().submitted();
                sum[1] += c.counts().rejected();
                sum[2] += c.counts().completed();
                sum[3] += c.counts().failed();
                sum[4] += c.counts().actionsRun();
            }
            assertThat(new long[] {totals.submitted(), totals.rejected(), totals.completed(), totals.failed(), totals.actionsRun()})
                    .as("totals = Σ components {submitted, rejected, completed, failed, actionsRun}")
                    .containsExactly(sum);
            assertThat(sum[0]).isGreaterThanOrEqualTo(expectedAlpha[0] + expectedBeta[0] + expectedLimited[0]);
            long submitted = 0;
            long completed = 0;
            for (PriorityStatistics p : stats.priorities()) {
                assertBalanced("priority " + p.priority(), p.counts());
                submitted += p.counts().submitted();
                completed += p.counts().completed();
            }
            assertThat(submitted).isEqualTo(totals.submitted());
            assertThat(completed).isEqualTo(totals.completed());
        });
        // Idle keyed objects are released (rule 16): nothing is kept per key after the run.
        await().atMost(WAIT).untilAsserted(() -> assertThat(backplane.components())
                .allSatisfy(c -> assertThat(c.objectCount()).as(c.name()).isZero()));
    }

    @Test
    void aReplyCompletedImmediatelyBeatsItsOneHourTimeout_andALateReplyAfterATimeoutIsIgnored() throws Exception {
        BackplaneComponent app = backplane.install(ComponentSpec.named("app"));
        CompletableFuture<String> late = new CompletableFuture<>();
        CompletableFuture<String> timedOut = app.submit("k", 1, ctx -> ctx.awaitReply(late, Duration.ofMillis(50),
                (c, value, failure) -> failure instanceof ReplyTimeoutException ? "timeout" : "reply " + value));
        assertThat(timedOut.get(WAIT.toSeconds(), SECONDS)).isEqualTo("timeout");
        replies.submit(() -> late.complete("too late")).get(WAIT.toSeconds(), SECONDS);
        CompletableFuture<String> inTime = app.submit("k", 1, ctx -> {
            CompletableFuture<String> reply = new CompletableFuture<>();
            replies.execute(() -> reply.complete("fast"));
            return ctx.awaitReply(reply, NEVER, (c, value, failure) -> failure == null ? value : "failed: " + failure);
        });
        assertThat(inTime.get(WAIT.toSeconds(), SECONDS)).isEqualTo("fast");

        await().atMost(WAIT).untilAsserted(() -> {
            ComponentStatistics stats = app.statistics();
            assertThat(stats.outstanding()).isZero();
            assertThat(stats.waitingObjects()).isZero();
            assertCounts(stats, new long[] {2, 0, 2, 0, 4});
        });
    }

    private static ComponentStatistics component(BackplaneStatistics stats, String name) {
        return stats.components().stream()
                .filter(c -> c.name().equals(name))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no statistics for component " + name + " in " + stats.components()));
    }

    /** expected = {submitted, rejected, completed, failed, actionsRun}. */
    private static void assertCounts(ComponentStatistics component, long[] expected) {
        ActionCounts counts = component.counts();
        assertBalanced(component.name(), counts);
        assertThat(component.outstanding()).as("%s outstanding", component.name()).isZero();
        assertThat(component.waitingObjects()).as("%s waiting", component.name()).isZero();
        assertThat(new long[] {counts.submitted(), counts.rejected(), counts.completed(), counts.failed(), counts.actionsRun()})
                .as("%s {submitted, rejected, completed, failed, actionsRun}", component.name())
                .containsExactly(expected);
    }

    private static void assertBalanced(String what, ActionCounts counts) {
        assertThat(counts.submitted())
                .as("%s: submitted = rejected + completed + failed (outstanding 0)", what)
                .isEqualTo(counts.rejected() + counts.completed() + counts.failed());
        assertThat(counts.outstanding()).as("%s outstanding", what).isZero();
    }
}
