package io.appbackplane;

import static org.assertj.core.api.Assertions.assertThat;

import io.appbackplane.Stepper.Kind;
import io.appbackplane.Stepper.Step;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Rule 8 in step mode: an action waits for an asynchronous reply without holding a worker; the
 * reply is delivered at the head of its object's queue, before newer requests; one outstanding
 * reply per object; timeouts and failures reach the handler; a waiting object is never released.
 */
class ReplyRuleTest {

    private final ManualClock clock = new ManualClock();
    private final List<String> ran = new ArrayList<>();
    private Backplane backplane;
    private BackplaneComponent app;

    @AfterEach
    void close() {
        if (backplane != null) {
            backplane.close();
        }
    }

    private void start() {
        backplane = Backplane.builder("test")
                .policy(BackplanePolicy.builder().priorities(3).build())
                .clock(clock)
                .stepMode()
                .build();
        app = backplane.install(ComponentSpec.named("app"));
    }

    private Step step() {
        return backplane.stepper().runNext();
    }

    private CompletableFuture<Object> submitLabel(String key, int priority, String label) {
        return app.submit(key, priority, ctx -> {
            ran.add(label);
            return label;
        });
    }

    /** Submits an action on {@code key} that waits for {@code reply}; its handler returns "handled:" + reply. */
    private CompletableFuture<String> submitWaiting(String key, int priority, CompletableFuture<String> reply) {
        return app.submit(key, priority, ctx -> {
            ran.add("waiter");
            return ctx.awaitReply(reply, (c, value, failure) -> {
                ran.add("handler(" + value + ")");
                return "handled:" + value;
            });
        });
    }

    @Test
    void rule8_aWaitingObjectIsOnTheWaitQueueAndNewRequestsQueueButDoNotRun() {
        start();
        CompletableFuture<String> reply = new CompletableFuture<>();
        CompletableFuture<String> request = submitWaiting("A", 1, reply);

        assertThat(step()).isEqualTo(new Step(Kind.RAN, "app", "A", 1));
        assertThat(request).isNotDone();
        assertThat(backplane.statistics().waitingObjects()).isEqualTo(1);
        assertThat(app.statistics().waitingObjects()).isEqualTo(1);
        assertThat(backplane.statistics().readyObjects()).isZero();
        assertThat(step()).isEqualTo(Step.IDLE); // no worker is held while waiting

        CompletableFuture<Object> newer1 = submitLabel("A", 1, "A-newer1");
        CompletableFuture<Object> newer2 = submitLabel("A", 0, "A-newer2"); // even a more urgent one waits
        submitLabel("B", 2, "B1");
        assertThat(backplane.statistics().readyObjects()).isEqualTo(1); // only B
        assertThat(step()).isEqualTo(new Step(Kind.RAN, "app", "B", 2)); // other objects keep running
        assertThat(step()).isEqualTo(Step.IDLE);
        assertThat(newer1).isNotDone();
        assertThat(newer2).isNotDone();
        assertThat(backplane.statistics().waitingObjects()).isEqualTo(1);
        assertThat(backplane.statistics().outstanding()).isEqualTo(3);
        assertThat(backplane.isIdle()).isFalse();
        assertThat(ran).containsExactly("waiter", "B1");
    }

    @Test
    void rule8_theReplyOvertakesNewerRequestsAndCompletesTheOriginalRequest() throws Exception {
        start();
        CompletableFuture<String> reply = new CompletableFuture<>();
        CompletableFuture<String> request = submitWaiting("A", 1, reply);
        step();
        CompletableFuture<Object> newer1 = submitLabel("A", 1, "A-newer1");
        CompletableFuture<Object> newer2 = submitLabel("A", 1, "A-newer2");

        reply.complete("pong"); // from the test thread, as from any other thread
        assertThat(backplane.statistics().waitingObjects()).isZero();
        assertThat(backplane.statistics().readyObjects()).isEqualTo(1);

        assertThat(step()).isEqualTo(new Step(Kind.RAN, "app", "A", 1));
        assertThat(request).isCompletedWithValue("handled:pong");
        assertThat(newer1).isNotDone();
        assertThat(backplane.stepper().runUntilIdle()).isEqualTo(2);
        assertThat(ran).containsExactly("waiter", "handler(pong)", "A-newer1", "A-newer2");
        assertThat(newer2.get()).isEqualTo("A-newer2");

        ActionCounts counts = app.statistics().counts();
        assertThat(counts.submitted()).isEqualTo(3);
        assertThat(counts.completed()).isEqualTo(3);
        assertThat(counts.actionsRun()).isEqualTo(4); // the waiter and its handler are one request, two actions
        assertThat(backplane.isIdle()).isTrue();
    }

    @Test
    void rule8_theReplyHandlerRunsAtThePriorityOfTheActionThatWaited() {
        start();
        CompletableFuture<String> reply = new CompletableFuture<>();
        submitWaiting("A", 1, reply);
        step();
        submitLabel("A", 2, "A-newer");
        submitLabel("B", 2, "B1");
        reply.complete("pong");

        // A is ready at priority 1 (its reply's), ahead of B which was ready at priority 2 first.
        assertThat(backplane.statistics().priorities().get(1).readyDepth()).isEqualTo(1);
        assertThat(backplane.statistics().priorities().get(2).readyDepth()).isEqualTo(1);
        assertThat(step()).isEqualTo(new Step(Kind.RAN, "app", "A", 1));
        backplane.stepper().runUntilIdle();
        assertThat(ran).containsExactly("waiter", "handler(pong)", "B1", "A-newer");
    }

    @Test
    void rule8_aSecondAwaitReplyInTheSameActionThrowsIllegalStateException() {
        start();
        CompletableFuture<String> first = new CompletableFuture<>();
        CompletableFuture<String> second = new CompletableFuture<>();
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        CompletableFuture<String> request = app.submit("A", 1, ctx -> {
            String result = ctx.awaitReply(first, (c, value, failure) -> "first:" + value);
            try {
                ctx.awaitReply(second, (c, value, failure) -> "second:" + value);
            } catch (IllegalStateException e) {
                thrown.set(e);
            }
            return result;
        });
        step();
        assertThat(thrown.get())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("'A'")
                .hasMessageContaining("at most one outstanding reply");

        second.complete("2"); // never awaited: ignored
        assertThat(step()).isEqualTo(Step.IDLE);
        first.complete("1");
        assertThat(step().ran()).isTrue();
        assertThat(request).isCompletedWithValue("first:1");
    }

    @Test
    void rule8_anActionThatAwaitsAReplyButReturnsAValueFailsItsRequest() {
        start();
        CompletableFuture<String> reply = new CompletableFuture<>();
        CompletableFuture<String> request = app.submit("A", 1, ctx -> {
            ctx.awaitReply(reply, (c, value, failure) -> "handled");
            return "oops";
        });
        submitLabel("A", 1, "A-next");

        step();
        assertThat(request).isCompletedExceptionally();
        assertThatCause(request)
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("must return that call's value")
                .hasMessageContaining("oops");
        // The reply is dropped: the object does not wait and its next request runs.
        assertThat(backplane.statistics().waitingObjects()).isZero();
        assertThat(step()).isEqualTo(new Step(Kind.RAN, "app", "A", 1));
        reply.complete("late");
        assertThat(step()).isEqualTo(Step.IDLE);
        assertThat(ran).containsExactly("A-next");
        assertThat(app.statistics().counts().failed()).isEqualTo(1);
    }

    @Test
    void rule8_aReplyTimeoutIsDeliveredAsReplyTimeoutExceptionAndALateReplyIsIgnored() {
        start();
        CompletableFuture<String> reply = new CompletableFuture<>();
        List<Throwable> failures = new ArrayList<>();
        CompletableFuture<String> request = app.submit("A", 1, ctx -> ctx.awaitReply(reply, Duration.ofSeconds(5),
                (c, value, failure) -> {
                    failures.add(failure);
                    ran.add("handler(" + value + ")");
                    if (failure instanceof Exception e) {
                        throw e;
                    }
                    return value;
                }));
        step(); // waits from t = 0
        submitLabel("A", 1, "A-newer");

        clock.advance(Duration.ofMillis(4999));
        assertThat(step()).isEqualTo(Step.IDLE);
        assertThat(backplane.statistics().waitingObjects()).isEqualTo(1);

        clock.advance(Duration.ofMillis(1)); // t = 5 s: the timeout is delivered like a reply
        assertThat(backplane.statistics().waitingObjects()).isZero();
        reply.complete("late"); // after the timeout: ignored
        assertThat(step()).isEqualTo(new Step(Kind.RAN, "app", "A", 1));
        assertThat(failures).singleElement().isInstanceOfSatisfying(ReplyTimeoutException.class, e -> {
            assertThat(e.timeout()).isEqualTo(Duration.ofSeconds(5));
            assertThat(e.objectKey()).isEqualTo("A");
            assertThat(e).hasMessageContaining("'A'").hasMessageContaining("'app'");
        });
        assertThatCause(request).isInstanceOf(ReplyTimeoutException.class);

        assertThat(backplane.stepper().runUntilIdle()).isEqualTo(1);
        assertThat(ran).containsExactly("handler(null)", "A-newer");
        clock.advance(Duration.ofSeconds(10));
        assertThat(step()).isEqualTo(Step.IDLE);
        assertThat(failures).hasSize(1);
    }

    @Test
    void rule8_aReplyArrivingInTimeCancelsItsTimeout() {
        start();
        CompletableFuture<String> reply = new CompletableFuture<>();
        List<String> handled = new ArrayList<>();
        CompletableFuture<String> request = app.submit("A", 1, ctx -> ctx.awaitReply(reply, Duration.ofSeconds(5),
                (c, value, failure) -> {
                    handled.add(value + "/" + failure);
                    return value;
                }));
        step();
        clock.advance(Duration.ofSeconds(1));
        reply.complete("pong");
        step();
        assertThat(request).isCompletedWithValue("pong");

        clock.advance(Duration.ofSeconds(10)); // past the timeout: nothing more is delivered
        assertThat(step()).isEqualTo(Step.IDLE);
        assertThat(handled).containsExactly("pong/null");
    }

    @Test
    void rule8_aFailedReplyPassesItsCauseToTheHandler() {
        start();
        CompletableFuture<String> reply = new CompletableFuture<>();
        AtomicReference<Throwable> seen = new AtomicReference<>();
        CompletableFuture<String> request = app.submit("A", 1, ctx -> ctx.awaitReply(reply, (c, value, failure) -> {
            seen.set(failure);
            return "recovered from " + failure.getMessage();
        }));
        step();
        IOException cause = new IOException("connection reset");
        reply.completeExceptionally(cause);
        step();
        assertThat(seen.get()).isSameAs(cause);
        assertThat(request).isCompletedWithValue("recovered from connection reset");
    }

    @Test
    void rule8_aFailureOfADerivedReplyStageReachesTheHandlerUnwrapped() {
        start();
        CompletableFuture<String> source = new CompletableFuture<>();
        AtomicReference<Throwable> seen = new AtomicReference<>();
        IllegalArgumentException cause = new IllegalArgumentException("bad reply");
        app.submit("A", 1, ctx -> ctx.awaitReply(source.thenApply(s -> {
            throw cause;
        }), (c, value, failure) -> {
            seen.set(failure);
            return null;
        }));
        step();
        source.complete("x");
        step();
        assertThat(seen.get()).isSameAs(cause); // not the CompletionException the stage carries
    }

    @Test
    void rule8_chainedRepliesRunInOrderAndTheLastHandlerCompletesTheRequest() {
        start();
        CompletableFuture<String> first = new CompletableFuture<>();
        CompletableFuture<String> second = new CompletableFuture<>();
        CompletableFuture<String> request = app.submit("A", 2, ctx -> {
            ran.add("start");
            return ctx.awaitReply(first, (c1, v1, f1) -> {
                ran.add("first(" + v1 + ")");
                return c1.awaitReply(second, (c2, v2, f2) -> {
                    ran.add("second(" + v2 + ")");
                    return v1 + "+" + v2;
                });
            });
        });
        step();
        submitLabel("A", 2, "A-newer");
        first.complete("1");
        assertThat(step()).isEqualTo(new Step(Kind.RAN, "app", "A", 2));
        assertThat(request).isNotDone();
        assertThat(backplane.statistics().waitingObjects()).isEqualTo(1); // waiting again
        assertThat(step()).isEqualTo(Step.IDLE);

        second.complete("2");
        assertThat(backplane.stepper().runUntilIdle()).isEqualTo(2);
        assertThat(ran).containsExactly("start", "first(1)", "second(2)", "A-newer");
        assertThat(request).isCompletedWithValue("1+2");
    }

    @Test
    void rule8_anObjectWaitingForAReplyIsNeverReleasedAndIsReleasedOnceIdleAfterwards() {
        start();
        CompletableFuture<String> reply = new CompletableFuture<>();
        submitWaiting("A", 1, reply);
        step();
        assertThat(app.objectCount()).isEqualTo(1);
        clock.advance(Duration.ofSeconds(30)); // real ticks go by
        assertThat(backplane.stepper().runUntilIdle()).isZero();
        assertThat(app.objectCount()).isEqualTo(1);
        assertThat(app.statistics().objects()).isEqualTo(1);

        reply.complete("pong");
        assertThat(app.objectCount()).isEqualTo(1);
        step();
        IdleObjectRetention.pass(clock);
        assertThat(app.objectCount()).isZero();
        assertThat(backplane.statistics().waitingObjects()).isZero();
        assertThat(backplane.isIdle()).isTrue();
    }

    @Test
    void rule8_aReplyAlreadyCompleteWhenAwaitedStillRunsAsTheObjectsNextAction() {
        start();
        CompletableFuture<String> request = submitWaiting("A", 1, CompletableFuture.completedFuture("ready"));
        submitLabel("A", 1, "A-newer");
        step();
        assertThat(backplane.statistics().waitingObjects()).isZero();
        assertThat(backplane.stepper().runUntilIdle()).isEqualTo(2);
        assertThat(ran).containsExactly("waiter", "handler(ready)", "A-newer");
        assertThat(request).isCompletedWithValue("handled:ready");
    }

    private static org.assertj.core.api.AbstractThrowableAssert<?, ? extends Throwable> assertThatCause(
            CompletableFuture<?> future) {
        try {
            future.get();
        } catch (ExecutionException e) {
            return assertThat(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        throw new AssertionError("expected " + future + " to have failed");
    }
}
