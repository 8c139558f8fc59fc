package io.appbackplane;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Rule 17: exact counts and times per backplane, priority and component after a scripted run. */
class StatisticsRuleTest {

    private static final Duration ZERO = Duration.ZERO;

    private final ManualClock clock = new ManualClock();
    private final List<BackplaneListener.SlowAction> slowActions = new CopyOnWriteArrayList<>();
    private Backplane backplane;

    @AfterEach
    void close() {
        if (backplane != null) {
            backplane.close();
        }
    }

    private static Duration ms(long millis) {
        return Duration.ofMillis(millis);
    }

    @Test
    void rule17_aScriptedRunGivesExactCountsAndTimesAtEveryLevel() {
        backplane = Backplane.builder("stats")
                .policy(BackplanePolicy.builder().priorities(3).slowActionThreshold(ms(15)).build())
                .clock(clock)
                .stepMode()
                .listener(new BackplaneListener() {
                    @Override
                    public void onSlowAction(SlowAction slowAction) {
                        slowActions.add(slowAction);
                    }
                })
                .build();
        BackplaneComponent app = backplane.install(ComponentSpec.named("app"));
        BackplaneComponent other = backplane.install(ComponentSpec.named("other").withOperationLimit(1));
        CompletableFuture<String> reply = new CompletableFuture<>();

        // t = 0: two requests to app at priority 1, one to other at priority 2 (which waits for a reply),
        // and one more to other that its limit rejects.
        CompletableFuture<String> a1 = app.submit("a", 1, ctx -> {
            clock.advance(ms(10));
            return "a1";
        });
        CompletableFuture<String> a2 = app.submit("a", 1, ctx -> {
            clock.advance(ms(20));
            throw new IllegalStateException("a2");
        });
        CompletableFuture<String> b1 = other.submit("b", 2, ctx -> ctx.awaitReply(reply, (c, value, failure) -> {
            clock.advance(ms(3));
            return "b1 " + value;
        }));
        assertThatThrownBy(() -> other.submit("b2", 2, ctx -> "never")).isInstanceOf(BackplaneRejectedException.class);

        BackplaneStatistics queued = backplane.statistics();
        assertThat(queued.outstanding()).isEqualTo(3);
        assertThat(queued.readyObjects()).isEqualTo(2);
        assertThat(queued.priorities()).extracting(PriorityStatistics::readyDepth).containsExactly(0, 1, 1);
        assertThat(queued.waitingObjects()).isZero();
        assertThat(queued.totals()).satisfies(c -> {
            assertThat(c.submitted()).isEqualTo(4);
            assertThat(c.rejected()).isEqualTo(1);
            assertThat(c.outstanding()).isEqualTo(3);
            assertThat(c.actionsRun()).isZero();
        });
        assertThat(app.statistics().outstanding()).isEqualTo(2);
        assertThat(app.statistics().counts().outstanding()).isEqualTo(2);
        assertThat(other.statistics().counts().outstanding()).isEqualTo(1);
        assertBalanced(queued);

        clock.advance(ms(5)); // t = 5 ms
        backplane.stepper().runNext(); // a1: queued 5 ms, runs 10 ms → t = 15 ms
        backplane.stepper().runNext(); // a2: queued 15 ms, runs 20 ms (slow) → t = 35 ms
        assertThat(backplane.stepper().runNext().objectKey()).isEqualTo("b"); // b1: queued 35 ms, runs 0 → waits

        BackplaneStatistics waiting = backplane.statistics();
        assertThat(waiting.waitingObjects()).isEqualTo(1);
        assertThat(waiting.readyObjects()).isZero();
        assertThat(waiting.priorities()).extracting(PriorityStatistics::readyDepth).containsExactly(0, 0, 0);
        assertThat(waiting.outstanding()).isEqualTo(1);
        assertThat(other.statistics().waitingObjects()).isEqualTo(1);
        assertThat(other.statistics().objects()).isEqualTo(1);
        assertThat(app.statistics().waitingObjects()).isZero();
        assertThat(app.statistics().objects()).isEqualTo(1); // idle, kept for the idle-object retention
        assertBalanced(waiting);

        clock.advance(ms(7)); // t = 42 ms
        reply.complete("pong"); // the handler is queued at 42 ms
        assertThat(backplane.statistics().waitingObjects()).isZero();
        assertThat(backplane.statistics().priorities().get(2).readyDepth()).isEqualTo(1);
        clock.advance(ms(1)); // t = 43 ms
        backplane.stepper().runNext(); // handler: queued 1 ms, runs 3 ms → t = 46 ms
        assertThat(backplane.stepper().runNext().ran()).isFalse();

        assertThat(a1.join()).isEqualTo("a1");
        assertThat(a2).isCompletedExceptionally();
        assertThat(b1.join()).isEqualTo("b1 pong");

        BackplaneStatistics done = backplane.statistics();
        assertBalanced(done);
        assertThat(done.name()).isEqualTo("stats");
        assertThat(done.outstanding()).isZero();
        assertThat(done.waitingObjects()).isZero();
        assertThat(done.readyObjects()).isZero();

        ActionCounts appCounts = app.statistics().counts();
        assertThat(appCounts).isEqualTo(new ActionCounts(2, 0, 1, 1, 2, 1, ms(20), ms(15), ms(30), ms(20)));
        ActionCounts otherCounts = other.statistics().counts();
        assertThat(otherCounts).isEqualTo(new ActionCounts(2, 1, 1, 0, 2, 0, ms(36), ms(35), ms(3), ms(3)));
        assertThat(otherCounts.meanQueueTime()).isEqualTo(ms(18));
        assertThat(otherCounts.meanRunTime()).isEqualTo(Duration.ofMillis(3).dividedBy(2));

        assertThat(done.priorities().get(0).counts()).isEqualTo(new ActionCounts(0, 0, 0, 0, 0, 0, ZERO, ZERO, ZERO, ZERO));
        assertThat(done.priorities().get(1).counts()).isEqualTo(appCounts);
        assertThat(done.priorities().get(2).counts()).isEqualTo(otherCounts);
        assertThat(done.totals()).isEqualTo(new ActionCounts(4, 1, 2, 1, 4, 1, ms(56), ms(35), ms(33), ms(20)));
        // The backplane's own component ("stats") comes first; it ran nothing here.
        assertThat(done.components()).extracting(ComponentStatistics::name).containsExactly("stats", "app", "other");
        assertThat(done.components().get(2)).isEqualTo(new ComponentStatistics( // one object, idle, kept for the retention
                "other", 0, 1, 1, 0, otherCounts, ComponentState.START, java.util.List.of(), java.util.List.of()));

        assertThat(slowActions).singleElement().isEqualTo(
                new BackplaneListener.SlowAction("stats", "app", "a", 1, ms(20), ms(15)));

        // Priority 1 was charged twice, priority 2 twice (the reply handler runs at the waiting action's priority).
        assertThat(done.priorities()).extracting(PriorityStatistics::usedThisPeriod).containsExactly(0, 2, 2);
        assertThat(done.cpu().usedThisPeriod()).isEqualTo(ms(33));
        assertThat(done.cpu().usedLastPeriod()).isEqualTo(ZERO);
        assertThat(done.cpu().budgetPerPeriod()).isNull();
        assertThat(done.cpu().throttledTime()).isEqualTo(ZERO);
        assertThat(done.realTicks()).isZero();
        assertThat(done.threads()).isZero();

        clock.advance(Duration.ofSeconds(1).minus(ms(46))); // t = 1 s: the first real tick
        BackplaneStatistics ticked = backplane.statistics();
        assertThat(ticked.realTicks()).isEqualTo(1);
        assertThat(ticked.cpu().usedThisPeriod()).isEqualTo(ZERO);
        assertThat(ticked.cpu().usedLastPeriod()).isEqualTo(ms(33));
        assertThat(ticked.priorities()).extracting(PriorityStatistics::usedThisPeriod).containsOnly(0);
        assertThat(ticked.totals()).isEqualTo(done.totals()); // counts are cumulative
    }

    @Test
    void rule17_usedThisPeriodCountsQuotaChargesPerPriority() {
        backplane = Backplane.builder("stats").policy(BackplanePolicy.builder().priorities(3).build())
                .clock(clock).stepMode().build();
        BackplaneComponent app = backplane.install(ComponentSpec.named("app"));
        for (int i = 0; i < 5; i++) {
            app.submit("k" + i, 2, ctx -> "x");
        }
        app.submit("u", 0, ctx -> "x");
        backplane.stepper().runUntilIdle();

        BackplaneStatistics stats = backplane.statistics();
        assertThat(stats.priorities()).extracting(PriorityStatistics::quota)
                .containsExactly(BackplanePolicy.UNLIMITED_QUOTA, 100, 50);
        assertThat(stats.priorities().get(0).unlimited()).isTrue();
        assertThat(stats.priorities().get(1).unlimited()).isFalse();
        assertThat(stats.priorities().get(2).usedThisPeriod()).isEqualTo(5);
        assertThat(stats.priorities().get(2).counts().completed()).isEqualTo(5);
        assertThat(stats.priorities().get(0).counts().completed()).isEqualTo(1);
        assertThat(stats.virtualTicks()).isZero();
        assertThat(stats.policy()).isEqualTo(backplane.policy());
    }

    @Test
    void rule17_cancelledAndShutDownRequestsCountAsFailed() {
        backplane = Backplane.builder("stats").clock(clock).stepMode().build();
        BackplaneComponent app = backplane.install(ComponentSpec.named("app"));
        app.submit("k", 1, ctx -> "x");
        app.submit("k", 1, ctx -> "y");
        CompletableFuture<String> cancelledBySubmitter = app.submit("j", 1, ctx -> "z");
        app.submit("left", 1, ctx -> "w");
        assertThat(app.cancelQueued("k")).isEqualTo(2);
        assertThat(cancelledBySubmitter.cancel(false)).isTrue();
        backplane.stepper().runUntilIdle(); // runs "left"; "j" is skipped, not run

        ActionCounts counts = app.statistics().counts();
        assertThat(counts.submitted()).isEqualTo(4);
        assertThat(counts.failed()).isEqualTo(3);
        assertThat(counts.completed()).isEqualTo(1);
        assertThat(counts.actionsRun()).isEqualTo(1);
        assertThat(counts.outstanding()).isZero();
        assertThat(app.outstanding()).isZero();

        app.submit("late", 1, ctx -> "v");
        backplane.shutdown(ZERO);
        counts = app.statistics().counts();
        assertThat(counts.failed()).isEqualTo(4);
        assertThat(counts.outstanding()).isZero();
        assertBalanced(backplane.statistics());
    }

    @Test
    void rule17_busyAndIdleThreadsOfARealThreadBackplane() throws Exception {
        backplane = Backplane.builder("threads").policy(BackplanePolicy.builder().threads(3).build()).build();
        BackplaneComponent app = backplane.install(ComponentSpec.named("app"));
        await().atMost(Duration.ofSeconds(10)).until(() -> backplane.statistics().idleThreads() == 3);
        assertThat(backplane.statistics().threads()).isEqualTo(3);
        assertThat(backplane.statistics().busyThreads()).isZero();

        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch started = new CountDownLatch(2);
        CompletableFuture<Boolean> first = app.submit("x", 1, ctx -> {
            started.countDown();
            return release.await(10, TimeUnit.SECONDS);
        });
        CompletableFuture<Boolean> second = app.submit("y", 1, ctx -> {
            started.countDown();
            return release.await(10, TimeUnit.SECONDS);
        });
        assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();

        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            BackplaneStatistics stats = backplane.statistics();
            assertThat(stats.busyThreads()).isEqualTo(2);
            assertThat(stats.idleThreads()).isEqualTo(1);
            assertThat(stats.threads()).isEqualTo(3);
            assertThat(stats.outstanding()).isEqualTo(2);
        });

        release.countDown();
        assertThat(first.get(10, TimeUnit.SECONDS)).isTrue();
        assertThat(second.get(10, TimeUnit.SECONDS)).isTrue();
        await().atMost(Duration.ofSeconds(10)).until(() -> backplane.statistics().idleThreads() == 3);
        BackplaneStatistics stats = backplane.statistics();
        assertThat(stats.busyThreads()).isZero();
        assertThat(stats.outstanding()).isZero();
        assertThat(stats.totals().completed()).isEqualTo(2);
        assertThat(stats.totals().totalRunTime()).isPositive();

        backplane.setThreads(1);
        await().atMost(Duration.ofSeconds(10)).until(() -> backplane.statistics().threads() == 1);
        await().atMost(Duration.ofSeconds(10)).until(() -> backplane.statistics().idleThreads() == 1);
        assertThat(backplane.statistics().policy().threads()).isEqualTo(1);
    }

    /** submitted = rejected + completed + failed + outstanding, and the levels agree with each other. */
    private static void assertBalanced(BackplaneStatistics stats) {
        long componentOutstanding = 0;
        long componentSubmitted = 0;
        for (ComponentStatistics component : stats.components()) {
            ActionCounts c = component.counts();
            assertThat(c.submitted()).isEqualTo(c.rejected() + c.completed() + c.failed() + component.outstanding());
            componentOutstanding += component.outstanding();
            componentSubmitted += c.submitted();
        }
        long priorityOutstanding = 0;
        for (PriorityStatistics priority : stats.priorities()) {
            priorityOutstanding += priority.counts().outstanding();
        }
        assertThat(componentOutstanding).isEqualTo(stats.outstanding());
        assertThat(priorityOutstanding).isEqualTo(stats.outstanding());
        assertThat(stats.totals().outstanding()).isEqualTo(stats.outstanding());
        assertThat(stats.totals().submitted()).isEqualTo(componentSubmitted);
        assertThat(stats.readyObjects())
                .isEqualTo(stats.priorities().stream().mapToInt(PriorityStatistics::readyDepth).sum());
    }
}
