package io.appbackplane;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicReference;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The API contract at the edges: bad arguments, closed backplanes, released handles, stale contexts. */
class ArgumentValidationTest {

    private final ManualClock clock = new ManualClock();
    private final List<Backplane> backplanes = new ArrayList<>();

    @AfterEach
    void closeAll() {
        backplanes.forEach(Backplane::close);
    }

    private Backplane stepBackplane(BackplanePolicy policy) {
        Backplane backplane = Backplane.builder("test").policy(policy).clock(clock).stepMode().build();
        backplanes.add(backplane);
        return backplane;
    }

    private Backplane stepBackplane() {
        return stepBackplane(BackplanePolicy.defaults());
    }

    @Test
    void rule1_submitWithAPriorityOutsideZeroToPMinusOneNamesTheRange() {
        Backplane backplane = stepBackplane(BackplanePolicy.builder().priorities(4).build());
        BackplaneComponent app = backplane.install(ComponentSpec.named("app"));

        for (int bad : new int[] {-1, 4, Integer.MAX_VALUE, Integer.MIN_VALUE}) {
            assertThatThrownBy(() -> app.submit("k", bad, ctx -> "x"))
                    .isExactlyInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("priority " + bad)
                    .hasMessageContaining("allowed: 0..3");
            assertThatThrownBy(() -> app.execute("k", bad, ctx -> "x"))
                    .isExactlyInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("0..3");
        }
        ObjectHandle handle = app.object("pinned");
        assertThatThrownBy(() -> handle.submit(4, ctx -> "x"))
                .isExactlyInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("0..3");
        // A bad request is not a request: nothing counted, nothing created, nothing queued.
        assertThat(app.statistics().counts().submitted()).isZero();
        assertThat(app.objectCount()).isEqualTo(1); // only the pinned one
        assertThat(backplane.isIdle()).isTrue();
        assertThat(app.submit("k", 3, ctx -> "ok")).isNotNull();
        assertThat(app.submit("k", 0, ctx -> "ok")).isNotNull();
    }

    @Test
    void nullKeyOrActionFailsWithNullPointerExceptionSayingWhat() {
        Backplane backplane = stepBackplane();
        BackplaneComponent app = backplane.install(ComponentSpec.named("app"));

        assertNpe(() -> app.submit(null, 1, ctx -> "x"), "object key must not be null");
        assertNpe(() -> app.submit("k", 1, null), "action must not be null");
        assertNpe(() -> app.execute(null, 1, ctx -> "x"), "object key must not be null");
        assertNpe(() -> app.execute("k", 1, null), "action must not be null");
        assertNpe(() -> app.object(null), "object key must not be null");
        assertNpe(() -> app.cancelQueued(null), "object key must not be null");
        assertNpe(() -> app.schedule(null, 1, Duration.ofSeconds(1), ctx -> "x"), "object key must not be null");
        assertNpe(() -> app.schedule("k", 1, Duration.ofSeconds(1), null), "action must not be null");
        assertNpe(() -> app.object("k").submit(1, null), "action must not be null");
        assertNpe(() -> backplane.install(null), "component spec must not be null");
        assertNpe(() -> backplane.shutdown(null), "drainTimeout must not be null");
        assertNpe(() -> ComponentSpec.named(null), "component name must not be null");
        assertNpe(() -> ComponentSpec.named("c").withMakeRoom(null), "makeRoom must not be null");
        assertNpe(() -> Backplane.builder(null), "backplane name must not be null");
        assertNpe(() -> Backplane.builder("b").policy(null), "policy must not be null");
        assertNpe(() -> Backplane.builder("b").clock(null), "clock must not be null");
        assertNpe(() -> Backplane.builder("b").listener(null), "listener must not be null");
        assertThat(app.statistics().counts().submitted()).isZero();
        assertThat(backplane.isIdle()).isTrue();
    }

    @Test
    void anIdleObjectRetentionOutsideZeroOrOneMillisecondToOneHourIsRejectedWithTheAllowedValues() {
        ComponentSpec spec = ComponentSpec.named("c");
        for (Duration bad : List.of(Duration.ofNanos(-1), Duration.ofNanos(999_999), Duration.ofHours(1).plusNanos(1))) {
            assertThatThrownBy(() -> spec.withIdleObjectRetention(bad))
                    .as("%s", bad)
                    .isExactlyInstanceOf(IllegalArgumentException.class)
                    .hasMessageContainingAll(bad.toString(), "'c'", "allowed: 0 (released at once) or PT0.001S..PT1H");
        }
        assertNpe(() -> spec.withIdleObjectRetention(null), "idle-object-retention must not be null");
        for (Duration good : List.of(Duration.ZERO, Duration.ofMillis(1), Duration.ofHours(1))) {
            assertThat(spec.withIdleObjectRetention(good).idleObjectRetention()).isEqualTo(good);
        }
        assertThat(spec.idleObjectRetention()).isEqualTo(ComponentSpec.DEFAULT_IDLE_OBJECT_RETENTION);
    }

    @Test
    void blankNamesAndBadLimitsAreRejectedWithTheAllowedValues() {
        Backplane backplane = stepBackplane();
        assertThatThrownBy(() -> Backplane.builder(" "))
                .isExactlyInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("non-blank");
        assertThatThrownBy(() -> ComponentSpec.named(""))
                .isExactlyInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("non-blank");
        assertThatThrownBy(() -> ComponentSpec.named("c").withOperationLimit(0))
                .isExactlyInstanceOf(IllegalArgumentException.class)
                .hasMessageContainingAll("0", "'c'", "allowed: 1..2147483647");
        BackplaneComponent app = backplane.install(ComponentSpec.named("app"));
        assertThatThrownBy(() -> app.setOperationLimit(-3))
                .isExactlyInstanceOf(IllegalArgumentException.class)
                .hasMessageContainingAll("-3", "'app'", "allowed: 1..2147483647");
        assertThatThrownBy(() -> backplane.setThreads(0))
                .isExactlyInstanceOf(IllegalArgumentException.class)
                .hasMessageContainingAll("threads", "0", "1..4096");
        assertThatThrownBy(() -> backplane.setQuota(8, 10))
                .isExactlyInstanceOf(IllegalArgumentException.class)
                .hasMessageContainingAll("priority 8", "0..7");
        assertThatThrownBy(() -> backplane.setQuota(1, 0))
                .isExactlyInstanceOf(IllegalArgumentException.class)
                .hasMessageContainingAll("quota[1]", "1..2147483647");
        assertThat(backplane.policy().quota(1)).isEqualTo(100);
        assertThatThrownBy(() -> backplane.shutdown(Duration.ofSeconds(-1)))
                .isExactlyInstanceOf(IllegalArgumentException.class)
                .hasMessageContainingAll("PT-1S", "zero or positive");
        assertThat(backplane.isShutdown()).isFalse();
        assertThatThrownBy(() -> app.schedule("k", 1, Duration.ofMillis(-1), ctx -> "x"))
                .isExactlyInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("zero or positive");
        assertThatThrownBy(() -> app.scheduleAtFixedRate("k", 1, Duration.ZERO, Duration.ZERO, ctx -> "x"))
                .isExactlyInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("positive");
        assertThatThrownBy(() -> app.schedule("k", 9, Duration.ZERO, ctx -> "x"))
                .isExactlyInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("0..7");
    }

    @Test
    void installingTwoComponentsWithOneNameFailsNamingIt() {
        Backplane backplane = stepBackplane();
        BackplaneComponent first = backplane.install(ComponentSpec.named("orders"));

        assertThatThrownBy(() -> backplane.install(ComponentSpec.named("orders").withOperationLimit(5)))
                .isExactlyInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'orders'")
                .hasMessageContaining("unique");
        assertThat(backplane.components()).containsExactly(backplane.self(), first);
        assertThat(backplane.component("orders")).containsSame(first);
        assertThat(first.operationLimit()).isEqualTo(ComponentSpec.DEFAULT_OPERATION_LIMIT);
        assertThat(backplane.statistics().components()).hasSize(2); // the backplane's own component and 'orders'
    }

    @Test
    void submittingAfterShutdownIsRejectedAsClosedAndNotRetryable() {
        Backplane backplane = stepBackplane();
        BackplaneComponent app = backplane.install(ComponentSpec.named("app"));
        backplane.shutdown(Duration.ZERO);

        Throwable thrown = catchThrowable(() -> app.submit("k", 1, ctx -> "x"));

        assertThat(thrown).isExactlyInstanceOf(BackplaneRejectedException.class).hasMessageContaining("'test'");
        BackplaneRejectedException rejected = (BackplaneRejectedException) thrown;
        assertThat(rejected.reason()).isEqualTo(BackplaneRejectedException.Reason.CLOSED);
        assertThat(rejected.isRetryable()).isFalse();
        assertThat(rejected.backplane()).isEqualTo("test");
        assertThat(rejected.component()).isEqualTo("app");
        assertThatThrownBy(() -> app.execute("k", 1, ctx -> "x"))
                .isInstanceOfSatisfying(BackplaneRejectedException.class,
                        e -> assertThat(e.reason()).isEqualTo(BackplaneRejectedException.Reason.CLOSED));
        assertThatThrownBy(() -> backplane.install(ComponentSpec.named("late")))
                .isInstanceOfSatisfying(BackplaneRejectedException.class,
                        e -> assertThat(e.reason()).isEqualTo(BackplaneRejectedException.Reason.CLOSED));
        assertThat(app.statistics().counts().rejected()).isEqualTo(2);
        assertThat(app.statistics().counts().outstanding()).isZero();
        assertThat(app.objectCount()).isZero();
    }

    @Test
    void otherRejectionsAreRetryable() {
        for (BackplaneRejectedException.Reason reason : BackplaneRejectedException.Reason.values()) {
            assertThat(new BackplaneRejectedException(reason, "b", "c", "m").isRetryable())
                    .as(reason.name())
                    .isEqualTo(reason != BackplaneRejectedException.Reason.CLOSED);
        }
    }

    @Test
    void submittingThroughAReleasedHandleFailsWithObjectReleasedException() {
        Backplane backplane = stepBackplane();
        BackplaneComponent app = backplane.install(ComponentSpec.named("app"));
        ObjectHandle handle = app.object("session-1");
        CompletableFuture<String> before = handle.submit(1, ctx -> "ran on " + ctx.objectKey());
        backplane.stepper().runUntilIdle();
        assertThat(before.join()).isEqualTo("ran on session-1");

        handle.release();
        handle.release(); // idempotent

        assertThat(handle.isReleased()).isTrue();
        assertThatThrownBy(() -> handle.submit(1, ctx -> "x"))
                .isExactlyInstanceOf(ObjectReleasedException.class)
                .hasMessageContaining("'session-1'")
                .hasMessageContaining("component.object(key)");
        assertThat(app.statistics().counts().submitted()).isEqualTo(1);
        IdleObjectRetention.pass(clock);
        assertThat(app.objectCount()).isZero();
        // The key itself is still usable.
        ObjectHandle again = app.object("session-1");
        assertThat(again.isReleased()).isFalse();
        CompletableFuture<String> after = again.submit(1, ctx -> "again");
        backplane.stepper().runUntilIdle();
        assertThat(after.join()).isEqualTo("again");
        again.close();
        assertThat(again.isReleased()).isTrue();
        IdleObjectRetention.pass(clock);
        assertThat(app.objectCount()).isZero();
    }

    @Test
    void stepperOnABackplaneWithWorkerThreadsFailsWithIllegalStateException() {
        try (Backplane threaded = Backplane.builder("threaded")
                .policy(BackplanePolicy.builder().threads(1).build())
                .build()) {
            assertThatThrownBy(threaded::stepper)
                    .isExactlyInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("'threaded'")
                    .hasMessageContaining("stepMode()");
        }
    }

    @Test
    void usingAnActionContextAfterItsActionReturnedFailsWithIllegalStateException() {
        Backplane backplane = stepBackplane();
        BackplaneComponent app = backplane.install(ComponentSpec.named("app"));
        AtomicReference<ActionContext> kept = new AtomicReference<>();
        CompletableFuture<Object> done = app.submit("k", 2, ctx -> {
            kept.set(ctx);
            return ctx.objectKey() + "@" + ctx.priority() + "/" + ctx.component().name();
        });
        backplane.stepper().runUntilIdle();
        assertThat(done.join()).isEqualTo("k@2/app");
        ActionContext stale = kept.get();

        List<ThrowingCallable> uses = List.of(
                stale::objectKey,
                stale::priority,
                stale::component,
                stale::backplane,
                stale::shouldYield,
                () -> stale.yieldTo(ctx -> "more"),
                () -> stale.awaitReply(new CompletableFuture<String>(), (ctx, reply, failure) -> reply),
                () -> stale.awaitReply(new CompletableFuture<String>(), Duration.ofSeconds(1), (ctx, reply, failure) -> reply));
        for (ThrowingCallable use : uses) {
            assertThatThrownBy(use)
                    .isExactlyInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("no longer valid");
        }
        assertThat(backplane.isIdle()).isTrue();
        assertThat(backplane.statistics().waitingObjects()).isZero();
    }

    @Test
    void usingAnActionContextFromAnotherThreadWhileTheActionRunsFailsWithIllegalStateException() {
        Backplane backplane = stepBackplane();
        BackplaneComponent app = backplane.install(ComponentSpec.named("app"));
        CompletableFuture<Throwable> fromOtherThread = app.submit("k", 1, ctx -> {
            AtomicReference<Throwable> seen = new AtomicReference<>();
            Thread other = new Thread(() -> seen.set(catchThrowable(ctx::objectKey)));
            other.start();
            other.join();
            return seen.get();
        });
        backplane.stepper().runUntilIdle();
        assertThat(fromOtherThread.join())
                .isExactlyInstanceOf(IllegalStateException.class)
                .hasMessageContaining("worker thread");
    }

    @Test
    void awaitReplyRejectsANonPositiveTimeoutAndASecondReply() {
        Backplane backplane = stepBackplane();
        BackplaneComponent app = backplane.install(ComponentSpec.named("app"));
        CompletableFuture<Object> zeroTimeout = app.submit("a", 1,
                ctx -> ctx.awaitReply(new CompletableFuture<String>(), Duration.ZERO, (c, r, f) -> r));
        CompletableFuture<Object> twice = app.submit("b", 1, ctx -> {
            ctx.awaitReply(new CompletableFuture<String>(), (c, r, f) -> r);
            return ctx.awaitReply(new CompletableFuture<String>(), (c, r, f) -> r);
        });
        CompletableFuture<Object> returnsValue = app.submit("c", 1, ctx -> {
            ctx.awaitReply(new CompletableFuture<String>(), (c, r, f) -> r);
            return "not the awaitReply value";
        });
        backplane.stepper().runUntilIdle();

        assertThat(failureOf(zeroTimeout)).isExactlyInstanceOf(IllegalArgumentException.class)
                .hasMessageContainingAll("PT0S", "positive");
        assertThat(failureOf(twice)).isExactlyInstanceOf(IllegalStateException.class)
                .hasMessageContaining("at most one outstanding reply");
        assertThat(failureOf(returnsValue)).isExactlyInstanceOf(IllegalStateException.class)
                .hasMessageContaining("must return that call's value");
        // None of the three objects is left waiting for a reply nobody will deliver.
        assertThat(backplane.statistics().waitingObjects()).isZero();
        IdleObjectRetention.pass(clock);
        assertThat(app.objectCount()).isZero();
        assertThat(backplane.isIdle()).isTrue();
    }

    private static void assertNpe(ThrowingCallable call, String message) {
        assertThatThrownBy(call).isExactlyInstanceOf(NullPointerException.class).hasMessage(message);
    }

    private static Throwable failureOf(CompletableFuture<?> future) {
        assertThat(future).isDone();
        Throwable failure = future.handle((value, t) -> t).join();
        return failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
    }
}
