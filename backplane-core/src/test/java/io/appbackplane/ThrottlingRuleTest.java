package io.appbackplane;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.appbackplane.BackplaneRejectedException.Reason;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Rule 11: outstanding-operation limits, the make-room hook, and rejections that say "back off". */
class ThrottlingRuleTest {

    private final ManualClock clock = new ManualClock();
    private Backplane backplane;
    private final List<Thread> hookThreads = new ArrayList<>();

    @AfterEach
    void close() {
        if (backplane != null) {
            backplane.close();
        }
    }

    private Backplane start(BackplanePolicy policy) {
        backplane = Backplane.builder("test").policy(policy).clock(clock).stepMode().build();
        return backplane;
    }

    /** The plain limit: no admission reserve (AdmissionReserveRuleTest covers the reserve). */
    private BackplaneComponent startWith(ComponentSpec spec) {
        return start(BackplanePolicy.builder().admissionReserve(0).build()).install(spec);
    }

    @Test
    void rule11_atTheComponentLimitTheHookIsAskedInTheCallersThreadAndARefusalRejectsWithBackOff() {
        BackplaneComponent app = startWith(ComponentSpec.named("app").withOperationLimit(2).withMakeRoom(component -> {
            hookThreads.add(Thread.currentThread());
            assertThat(component.name()).isEqualTo("app");
            return false;
        }));
        CompletableFuture<String> first = app.submit("a", 1, ctx -> "first");
        CompletableFuture<String> second = app.submit("b", 1, ctx -> "second");
        assertThat(hookThreads).isEmpty();

        BackplaneRejectedException rejected = rejectionOf(() -> app.submit("c", 1, ctx -> "third"));

        assertThat(hookThreads).containsExactly(Thread.currentThread());
        assertThat(rejected).isNotNull();
        assertThat(rejected.reason()).isEqualTo(Reason.COMPONENT_LIMIT);
        assertThat(rejected.isRetryable()).isTrue();
        assertThat(rejected.component()).isEqualTo("app");
        assertThat(rejected.backplane()).isEqualTo("test");
        assertThat(rejected).hasMessageContainingAll("'app'", "limit (2)", "back off");
        // Nothing was queued for the rejected request.
        assertThat(app.objectCount()).isEqualTo(2);
        assertThat(app.outstanding()).isEqualTo(2);
        ActionCounts counts = app.statistics().counts();
        assertThat(counts.submitted()).isEqualTo(3);
        assertThat(counts.rejected()).isEqualTo(1);
        assertThat(counts.outstanding()).isEqualTo(2);
        assertThat(backplane.statistics().totals().rejected()).isEqualTo(1);
        assertThat(backplane.statistics().priorities().get(1).counts().rejected()).isEqualTo(1);
        assertThat(backplane.statistics().outstanding()).isEqualTo(2);

        // execute (fire-and-forget) is throttled the same way: the caller hears about it.
        assertThatThrownBy(() -> app.execute("c", 1, ctx -> "fourth"))
                .isInstanceOfSatisfying(BackplaneRejectedException.class,
                        e -> assertThat(e.reason()).isEqualTo(Reason.COMPONENT_LIMIT));
        assertThat(hookThreads).hasSize(2);

        backplane.stepper().runUntilIdle();
        assertThat(first.join()).isEqualTo("first");
        assertThat(second.join()).isEqualTo("second");
        assertThat(app.statistics().counts().rejected()).isEqualTo(2);
    }

    @Test
    void rule11_afterWorkCompletesSubmitsAreAcceptedAgain() {
        BackplaneComponent app = startWith(ComponentSpec.named("app").withOperationLimit(2));
        app.submit("a", 1, ctx -> "1");
        app.submit("a", 1, ctx -> "2");
        assertThatThrownBy(() -> app.submit("a", 1, ctx -> "3")).isInstanceOf(BackplaneRejectedException.class);

        assertThat(backplane.stepper().runNext().ran()).isTrue();
        CompletableFuture<String> third = app.submit("a", 1, ctx -> "3");
        assertThatThrownBy(() -> app.submit("a", 1, ctx -> "4")).isInstanceOf(BackplaneRejectedException.class);

        backplane.stepper().runUntilIdle();
        assertThat(third.join()).isEqualTo("3");
        assertThat(app.outstanding()).isZero();
        CompletableFuture<String> fifth = app.submit("a", 1, ctx -> "5");
        CompletableFuture<String> sixth = app.submit("a", 1, ctx -> "6");
        backplane.stepper().runUntilIdle();
        assertThat(fifth.join()).isEqualTo("5");
        assertThat(sixth.join()).isEqualTo("6");
        ActionCounts counts = app.statistics().counts();
        assertThat(counts.submitted()).isEqualTo(7);
        assertThat(counts.rejected()).isEqualTo(2);
        assertThat(counts.completed()).isEqualTo(5);
    }

    @Test
    void rule11_aHookThatCancelsQueuedWorkMakesRoomAndTheRequestIsAdmitted() {
        BackplaneComponent app = startWith(ComponentSpec.named("app").withOperationLimit(2).withMakeRoom(component -> {
            hookThreads.add(Thread.currentThread());
            return component.cancelQueued("stale") > 0;
        }));
        List<String> ran = new ArrayList<>();
        CompletableFuture<String> stale1 = app.submit("stale", 2, ctx -> { ran.add("stale1"); return "stale1"; });
        CompletableFuture<String> stale2 = app.submit("stale", 2, ctx -> { ran.add("stale2"); return "stale2"; });

        CompletableFuture<String> fresh = app.submit("fresh", 1, ctx -> { ran.add("fresh"); return "fresh"; });

        assertThat(hookThreads).containsExactly(Thread.currentThread());
        assertThat(failureOf(stale1)).isInstanceOf(CancellationException.class).hasMessageContaining("'stale'");
        assertThat(failureOf(stale2)).isInstanceOf(CancellationException.class);
        assertThat(app.outstanding()).isEqualTo(1);
        assertThat(app.objectCount()).isEqualTo(2); // the emptied object stays, idle, for the idle-object retention
        assertThat(backplane.stepper().runUntilIdle()).isEqualTo(1);
        assertThat(ran).containsExactly("fresh");
        assertThat(fresh.join()).isEqualTo("fresh");
        ActionCounts counts = app.statistics().counts();
        assertThat(counts.submitted()).isEqualTo(3);
        assertThat(counts.rejected()).isZero();
        assertThat(counts.failed()).isEqualTo(2);
        assertThat(counts.completed()).isEqualTo(1);
        assertThat(counts.outstanding()).isZero();
        IdleObjectRetention.pass(clock);
        assertThat(app.objectCount()).isZero();
    }

    @Test
    void rule11_aHookThatClaimsRoomButMakesNoneStillRejects() {
        BackplaneComponent app = startWith(ComponentSpec.named("app").withOperationLimit(1).withMakeRoom(component -> {
            hookThreads.add(Thread.currentThread());
            return true; // lies
        }));
        app.submit("a", 1, ctx -> "1");

        assertThatThrownBy(() -> app.submit("b", 1, ctx -> "2"))
                .isInstanceOfSatisfying(BackplaneRejectedException.class,
                        e -> assertThat(e.reason()).isEqualTo(Reason.COMPONENT_LIMIT));
        assertThat(hookThreads).hasSize(1); // asked once, not in a loop
        assertThat(app.outstanding()).isEqualTo(1);
        assertThat(backplane.statistics().outstanding()).isEqualTo(1);
    }

    @Test
    void rule11_aHookThatThrowsPropagatesAndLeavesTheCountsConsistent() {
        List<Throwable> hookFailures = List.of(new IllegalStateException("hook broke"), new AssertionError("hook erred"));
        BackplaneComponent app = startWith(ComponentSpec.named("app").withOperationLimit(1).withMakeRoom(component -> {
            Throwable failure = hookFailures.get(hookThreads.size());
            hookThreads.add(Thread.currentThread());
            if (failure instanceof Error error) {
                throw error;
            }
            throw (RuntimeException) failure;
        }));
        app.submit("a", 1, ctx -> "1");

        assertThatThrownBy(() -> app.submit("b", 1, ctx -> "2")).isSameAs(hookFailures.get(0));
        assertThatThrownBy(() -> app.submit("b", 1, ctx -> "2")).isSameAs(hookFailures.get(1));

        assertThat(app.outstanding()).isEqualTo(1);
        assertThat(backplane.statistics().outstanding()).isEqualTo(1);
        assertThat(app.objectCount()).isEqualTo(1);
        // submitted = rejected + completed + failed + outstanding, at every level.
        assertThat(app.statistics().counts().outstanding()).isEqualTo(1);
        assertThat(backplane.statistics().totals().outstanding()).isEqualTo(1);
        assertThat(backplane.statistics().priorities().get(1).counts().outstanding()).isEqualTo(1);
        assertThat(app.statistics().counts().rejected()).isEqualTo(2);
        backplane.stepper().runUntilIdle();
        assertThat(app.statistics().counts().outstanding()).isZero();
        assertThat(backplane.isIdle()).isTrue();
    }

    @Test
    void rule11_theBackplaneWideLimitRejectsWithBackplaneLimitWhicheverComponentAsks() {
        start(BackplanePolicy.builder().operationLimit(3).admissionReserve(0).build());
        BackplaneComponent orders = backplane.install(ComponentSpec.named("orders").withOperationLimit(10));
        BackplaneComponent billing = backplane.install(ComponentSpec.named("billing").withOperationLimit(10));
        orders.submit("o1", 1, ctx -> "o1");
        orders.submit("o2", 1, ctx -> "o2");
        billing.submit("b1", 1, ctx -> "b1");

        BackplaneRejectedException rejected = rejectionOf(() -> billing.submit("b2", 1, ctx -> "b2"));

        assertThat(rejected).isNotNull();
        assertThat(rejected.reason()).isEqualTo(Reason.BACKPLANE_LIMIT);
        assertThat(rejected.isRetryable()).isTrue();
        assertThat(rejected.backplane()).isEqualTo("test");
        assertThat(rejected).hasMessageContainingAll("'test'", "limit (3)", "back off");
        assertThatThrownBy(() -> orders.submit("o3", 1, ctx -> "o3"))
                .isInstanceOfSatisfying(BackplaneRejectedException.class,
                        e -> assertThat(e.reason()).isEqualTo(Reason.BACKPLANE_LIMIT));
        BackplaneStatistics stats = backplane.statistics();
        assertThat(stats.outstanding()).isEqualTo(3);
        assertThat(stats.totals().submitted()).isEqualTo(5);
        assertThat(stats.totals().rejected()).isEqualTo(2);
        assertThat(billing.statistics().counts().rejected()).isEqualTo(1);
        assertThat(orders.statistics().counts().rejected()).isEqualTo(1);
        assertThat(billing.outstanding()).isEqualTo(1);
        assertThat(orders.outstanding()).isEqualTo(2);

        backplane.stepper().runUntilIdle();
        CompletableFuture<String> later = billing.submit("b2", 1, ctx -> "b2");
        backplane.stepper().runUntilIdle();
        assertThat(later.join()).isEqualTo("b2");
    }

    @Test
    void rule11_aRequestWaitingForAReplyStillCountsAsOutstanding() {
        BackplaneComponent app = startWith(ComponentSpec.named("app").withOperationLimit(1));
        CompletableFuture<String> reply = new CompletableFuture<>();
        CompletableFuture<String> waiter = app.submit("w", 1,
                ctx -> ctx.awaitReply(reply, (c, value, failure) -> "got " + value));
        backplane.stepper().runUntilIdle();
        assertThat(waiter).isNotDone();
        assertThat(backplane.statistics().waitingObjects()).isEqualTo(1);

        assertThatThrownBy(() -> app.submit("other", 1, ctx -> "x"))
                .isInstanceOfSatisfying(BackplaneRejectedException.class,
                        e -> assertThat(e.reason()).isEqualTo(Reason.COMPONENT_LIMIT));
        assertThat(app.outstanding()).isEqualTo(1);

        reply.complete("pong");
        assertThat(app.outstanding()).isEqualTo(1); // delivered, the handler has not run yet
        backplane.stepper().runUntilIdle();
        assertThat(waiter.join()).isEqualTo("got pong");
        assertThat(app.outstanding()).isZero();
        CompletableFuture<String> admitted = app.submit("other", 1, ctx -> "x");
        backplane.stepper().runUntilIdle();
        assertThat(admitted.join()).isEqualTo("x");
    }

    @Test
    void rule11_raisingTheLimitAtRunTimeAdmitsMore() {
        BackplaneComponent app = startWith(ComponentSpec.named("app").withOperationLimit(1));
        app.submit("a", 1, ctx -> "1");
        assertThatThrownBy(() -> app.submit("a", 1, ctx -> "2")).isInstanceOf(BackplaneRejectedException.class);

        app.setOperationLimit(2);

        assertThat(app.operationLimit()).isEqualTo(2);
        assertThat(app.statistics().operationLimit()).isEqualTo(2);
        CompletableFuture<String> second = app.submit("a", 1, ctx -> "2");
        backplane.stepper().runUntilIdle();
        assertThat(second.join()).isEqualTo("2");
    }

    @Test
    void rule11_aHookThatRaisesTheLimitGetsTheRequestAdmittedUnderTheNewLimit() {
        BackplaneComponent app = startWith(ComponentSpec.named("app").withOperationLimit(1).withMakeRoom(component -> {
            component.setOperationLimit(2);
            return true;
        }));
        app.submit("a", 1, ctx -> "1");

        CompletableFuture<String> second = app.submit("a", 1, ctx -> "2");

        assertThat(app.operationLimit()).isEqualTo(2);
        assertThat(app.outstanding()).isEqualTo(2);
        backplane.stepper().runUntilIdle();
        assertThat(second.join()).isEqualTo("2");
    }

    @Test
    void rule11_aChangedLimitMovesEveryPrioritysShareWithTheReserve() {
        BackplaneComponent app = start(BackplanePolicy.builder().admissionReserve(0.1).build())
                .install(ComponentSpec.named("app").withOperationLimit(1000));
        assertThat(app.admissionThreshold(7)).isEqualTo(900);

        app.setOperationLimit(50);

        assertThat(app.admissionThreshold(0)).isEqualTo(50);
        assertThat(app.admissionThreshold(1)).isEqualTo(49); // 50 - ceil(50 x 0.1 x 1/7)
        assertThat(app.admissionThreshold(7)).isEqualTo(45);
    }

    private static BackplaneRejectedException rejectionOf(org.assertj.core.api.ThrowableAssert.ThrowingCallable call) {
        Throwable thrown = catchThrowable(call);
        assertThat(thrown).isInstanceOf(BackplaneRejectedException.class);
        return (BackplaneRejectedException) thrown;
    }

    private static Throwable failureOf(CompletableFuture<?> future) {
        assertThat(future).isDone();
        Throwable failure = future.handle((value, t) -> t).join();
        return failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
    }
}
