package io.appbackplane;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Rule 16: keyed objects come and go with their work, so millions of keys do not leak. With the
 * default idle-object retention an idle object is kept for its key's next request and released
 * once it has been idle for between one and two retentions; with a retention of zero, as soon as
 * it is idle.
 */
class KeyedObjectReleaseRuleTest {

    private static final int KEYS = 1_000_000;
    private static final int BATCH = 10_000;
    private static final Duration RETENTION = ComponentSpec.DEFAULT_IDLE_OBJECT_RETENTION;
    private static final Duration NANO = Duration.ofNanos(1);

    private final ManualClock clock = new ManualClock();
    private Backplane backplane;
    private BackplaneComponent app;

    @AfterEach
    void close() {
        if (backplane != null) {
            backplane.close();
        }
    }

    /** A component whose idle objects are released at once (a retention of zero). */
    private void start() {
        start(Duration.ZERO);
    }

    private void start(Duration retention) {
        backplane = Backplane.builder("test").clock(clock).stepMode().build();
        app = backplane.install(ComponentSpec.named("app").withIdleObjectRetention(retention));
    }

    private void run(Object key) {
        app.execute(key, 1, ctx -> null);
        assertThat(backplane.stepper().runUntilIdle()).isEqualTo(1);
    }

    // ---------------------------------------------------------------- the default retention

    @Test
    void rule16_anIdleObjectIsReleasedOnceIdleForTwoRetentions_whenItWentIdleWithNoSweepPending() {
        start(RETENTION);
        run("k"); // idle at t = 0: listed, the sweep scheduled for t = R

        clock.advance(RETENTION.multipliedBy(2).minus(NANO)); // the sweep at R marked it
        assertThat(app.objectCount()).isEqualTo(1);
        clock.advance(NANO); // the sweep at 2R finds it still idle and marked
        assertThat(app.objectCount()).isZero();
        assertThat(app.statistics().objects()).isZero();
    }

    @Test
    void rule16_anIdleObjectIsKeptForAtLeastOneRetention_evenWhenASweepComesRightAfterIt() {
        start(RETENTION);
        run("first"); // the sweep is scheduled for t = R
        clock.advance(RETENTION.minus(NANO));
        run("late"); // idle 1 ns before the sweep, which marks it

        clock.advance(NANO); // t = R: "first" marked, "late" marked
        clock.advance(RETENTION.minus(NANO));
        assertThat(app.objectCount()).as("both kept until the sweep at 2R").isEqualTo(2);
        clock.advance(NANO); // t = 2R: "late" has been idle for R + 1 ns
        assertThat(app.objectCount()).isZero();
    }

    @Test
    void rule16_aRequestWithinTheRetentionUsesTheKeptObjectAndStartsItsIdleTimeOver() {
        start(RETENTION);
        run("k");
        clock.advance(RETENTION.multipliedBy(3).dividedBy(2)); // marked by the sweep at R
        assertThat(app.objectCount()).isEqualTo(1);

        run("k"); // at 1.5R: the same object, idle again; the use cleared the sweep's mark
        assertThat(app.objectCount()).isEqualTo(1);
        clock.advance(RETENTION.multipliedBy(3).dividedBy(2).minus(NANO)); // the sweep at 2R marks it again
        assertThat(app.objectCount()).isEqualTo(1);
        clock.advance(NANO); // the sweep at 3R releases it
        assertThat(app.objectCount()).isZero();
    }

    @Test
    void rule16_aMillionDistinctKeysWithTheRetentionLeaveNoObjectsBehind() {
        start(RETENTION);
        long[] ran = new long[1];
        int maxAlive = 0;
        for (int base = 0; base < KEYS; base += BATCH) {
            for (int i = base; i < base + BATCH; i++) {
                app.execute(i, 1 + (i & 3), ctx -> ++ran[0]);
            }
            assertThat(backplane.stepper().runUntilIdle()).isEqualTo(BATCH);
            maxAlive = Math.max(maxAlive, app.objectCount());
            clock.advance(RETENTION); // a batch per retention: the next sweep marks it, the one after releases it
        }
        assertThat(maxAlive).as("this batch and the one before, which the next sweep releases").isEqualTo(2 * BATCH);
        IdleObjectRetention.pass(clock);

        assertThat(ran[0]).isEqualTo(KEYS);
        assertThat(app.objectCount()).isZero();
        assertThat(app.statistics().counts().completed()).isEqualTo(KEYS);
        assertThat(backplane.isIdle()).isTrue();
    }

    @Test
    void rule16_anIdleObjectPinnedBeforeTheSweepOutlivesAnySweeps_andIsReleasedOnceIdleAfterItsLastUnpin() {
        start(RETENTION);
        run("pinned"); // idle and listed: the sweep at R marks it
        clock.advance(RETENTION);
        ObjectHandle handle = app.object("pinned"); // the same object, now pinned: the mark goes

        clock.advance(RETENTION.multipliedBy(10)); // the sweep visits it pinned and unlists it
        assertThat(app.objectCount()).isEqualTo(1);
        CompletableFuture<String> viaHandle = handle.submit(1, ctx -> "via handle");
        backplane.stepper().runUntilIdle();
        assertThat(viaHandle.join()).as("still the live object of its key").isEqualTo("via handle");

        handle.release(); // idle and unpinned at t = 11R: listed again, the sweep at 12R marks it
        clock.advance(RETENTION.multipliedBy(2).minus(NANO));
        assertThat(app.objectCount()).isEqualTo(1);
        clock.advance(NANO);
        assertThat(app.objectCount()).isZero();
    }

    @Test
    void rule16_anIdleObjectThatThenWaitsForAReplyOutlivesAnySweeps_andIsReleasedOnceIdleAfterIt() {
        start(RETENTION);
        run("waiter"); // idle and listed
        CompletableFuture<String> reply = new CompletableFuture<>();
        CompletableFuture<String> waiter = app.submit("waiter", 1,
                ctx -> ctx.awaitReply(reply, (c, value, failure) -> "got " + value));
        backplane.stepper().runUntilIdle(); // WAITING, still listed: the sweeps find it in use
        for (int i = 0; i < BATCH; i++) {
            app.execute(i, 1, ctx -> "x"); // keys that come and go keep the sweeps going
        }
        backplane.stepper().runUntilIdle();
        clock.advance(Duration.ofSeconds(5));
        assertThat(app.objectCount()).isEqualTo(1);
        assertThat(app.statistics().waitingObjects()).isEqualTo(1);

        reply.complete("pong");
        backplane.stepper().runUntilIdle();
        assertThat(waiter.join()).isEqualTo("got pong");
        assertThat(app.objectCount()).isEqualTo(1); // idle now: kept for the retention
        IdleObjectRetention.pass(clock);
        assertThat(app.objectCount()).isZero();
    }

    @Test
    void rule16_anObjectEmptiedByCancelQueuedIsReleasedOnceIdleForTheRetention() {
        start(RETENTION);
        CompletableFuture<String> queued = app.submit("k", 1, ctx -> "never");
        assertThat(app.cancelQueued("k")).isEqualTo(1);
        assertThat(queued).isCompletedExceptionally();
        assertThat(app.objectCount()).isEqualTo(1);

        IdleObjectRetention.pass(clock);
        assertThat(app.objectCount()).isZero();
    }

    // ---------------------------------------------------------------- a retention of zero

    @Test
    void rule16_aMillionDistinctKeysLeaveNoObjectsBehindAndNeverMoreThanABatchAlive() {
        start();
        long[] ran = new long[1];
        int maxAlive = 0;
        for (int base = 0; base < KEYS; base += BATCH) {
            for (int i = base; i < base + BATCH; i++) {
                app.execute(i, 1 + (i & 3), ctx -> ++ran[0]);
            }
            maxAlive = Math.max(maxAlive, app.objectCount());
            assertThat(app.objectCount()).isEqualTo(BATCH);
            assertThat(backplane.stepper().runUntilIdle()).isEqualTo(BATCH);
            assertThat(app.objectCount()).isZero();
        }

        assertThat(ran[0]).isEqualTo(KEYS);
        assertThat(maxAlive).isEqualTo(BATCH);
        assertThat(app.objectCount()).isZero();
        ComponentStatistics stats = app.statistics();
        assertThat(stats.objects()).isZero();
        assertThat(stats.outstanding()).isZero();
        assertThat(stats.counts().completed()).isEqualTo(KEYS);
        assertThat(backplane.statistics().readyObjects()).isZero();
        assertThat(backplane.isIdle()).isTrue();
    }

    @Test
    void rule16_withRetentionZero_anObjectIsReleasedAsSoonAsItsLastActionRuns() {
        start();
        app.submit("k", 1, ctx -> "1");
        app.submit("k", 1, ctx -> "2");
        app.submit("other", 1, ctx -> "3");
        assertThat(app.objectCount()).isEqualTo(2);

        backplane.stepper().runNext(); // k's first action: k still has work
        assertThat(app.objectCount()).isEqualTo(2);
        backplane.stepper().runNext(); // other's only action
        assertThat(app.objectCount()).isEqualTo(1);
        backplane.stepper().runNext(); // k's last action
        assertThat(app.objectCount()).isZero();

        // The key is served again by a fresh object.
        CompletableFuture<String> again = app.submit("k", 1, ctx -> "again");
        assertThat(app.objectCount()).isEqualTo(1);
        backplane.stepper().runUntilIdle();
        assertThat(again.join()).isEqualTo("again");
        assertThat(app.objectCount()).isZero();
    }

    @Test
    void rule16_anObjectPinnedByAHandleStaysUntilReleased() {
        start();
        ObjectHandle handle = app.object("pinned");
        assertThat(app.objectCount()).isEqualTo(1);

        CompletableFuture<String> viaHandle = handle.submit(1, ctx -> "via handle");
        CompletableFuture<String> viaKey = app.submit("pinned", 1, ctx -> "via key");
        app.submit("loose", 1, ctx -> "loose");
        backplane.stepper().runUntilIdle();

        assertThat(viaHandle.join()).isEqualTo("via handle");
        assertThat(viaKey.join()).isEqualTo("via key");
        assertThat(app.objectCount()).isEqualTo(1);
        assertThat(app.statistics().objects()).isEqualTo(1);

        handle.release();

        assertThat(app.objectCount()).isZero();
    }

    @Test
    void rule16_twoHandlesPinTheSameObjectUntilBothAreReleased() {
        start();
        ObjectHandle first = app.object("k");
        ObjectHandle second = app.object("k");
        StringBuilder order = new StringBuilder();
        first.submit(1, ctx -> order.append("1"));
        second.submit(1, ctx -> order.append("2"));
        app.submit("k", 1, ctx -> order.append("3"));
        backplane.stepper().runUntilIdle();
        assertThat(order).hasToString("123"); // one object, one queue

        first.release();
        assertThat(app.objectCount()).isEqualTo(1);
        first.release(); // idempotent: must not unpin twice
        assertThat(app.objectCount()).isEqualTo(1);
        second.release();
        assertThat(app.objectCount()).isZero();
    }

    @Test
    void rule16_aHandleReleasedWhileWorkIsQueuedLetsTheObjectGoWhenTheWorkIsDone() {
        start();
        ObjectHandle handle = app.object("k");
        CompletableFuture<String> queued = handle.submit(1, ctx -> "done");
        handle.release();
        assertThat(app.objectCount()).isEqualTo(1);

        backplane.stepper().runUntilIdle();

        assertThat(queued.join()).isEqualTo("done");
        assertThat(app.objectCount()).isZero();
    }

    @Test
    void rule16_anObjectWaitingForAReplyIsNeverReleased() {
        start();
        CompletableFuture<String> reply = new CompletableFuture<>();
        CompletableFuture<String> waiter = app.submit("waiter", 1,
                ctx -> ctx.awaitReply(reply, (c, value, failure) -> "got " + value));
        backplane.stepper().runUntilIdle();
        assertThat(app.objectCount()).isEqualTo(1);
        assertThat(app.statistics().waitingObjects()).isEqualTo(1);

        // Plenty of other keys come and go; the waiting object stays.
        for (int i = 0; i < BATCH; i++) {
            app.execute(i, 1, ctx -> "x");
        }
        backplane.stepper().runUntilIdle();
        clock.advance(java.time.Duration.ofSeconds(5)); // real ticks pass too
        assertThat(app.objectCount()).isEqualTo(1);
        // Work queued to it meanwhile waits behind the reply (and keeps it alive).
        CompletableFuture<String> behind = app.submit("waiter", 1, ctx -> "behind");
        assertThat(backplane.stepper().runUntilIdle()).isZero();
        assertThat(app.objectCount()).isEqualTo(1);

        reply.complete("pong");
        backplane.stepper().runUntilIdle();

        assertThat(waiter.join()).isEqualTo("got pong");
        assertThat(behind.join()).isEqualTo("behind");
        assertThat(app.objectCount()).isZero();
        assertThat(app.statistics().waitingObjects()).isZero();
    }

    @Test
    void rule16_aPinnedObjectWaitingForAReplyIsReleasedOnlyAfterBoth() {
        start();
        ObjectHandle handle = app.object("k");
        CompletableFuture<String> reply = new CompletableFuture<>();
        CompletableFuture<String> waiter = handle.submit(1, ctx -> ctx.awaitReply(reply, (c, value, failure) -> value));
        backplane.stepper().runUntilIdle();

        handle.release();
        assertThat(app.objectCount()).isEqualTo(1); // still waiting

        reply.complete("v");
        backplane.stepper().runUntilIdle();
        assertThat(waiter.join()).isEqualTo("v");
        assertThat(app.objectCount()).isZero();
    }
}
