package io.appbackplane;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** {@link ActionTracer}: called at acceptance (submitting thread), before and after each action, tokens passed on. */
class ActionTracerTest {

    private final List<String> calls = new CopyOnWriteArrayList<>();
    private Backplane backplane;

    @AfterEach
    void close() {
        if (backplane != null) {
            backplane.close();
        }
    }

    /** Records each call; tokens name the call that made them. */
    private final class Recording implements ActionTracer {
        @Override
        public Object actionQueued(BackplaneComponent component, int priority) {
            calls.add("queued " + component.name() + " " + priority + " on " + Thread.currentThread().getName());
            return "q";
        }

        @Override
        public Object actionStarting(Object queued, BackplaneComponent component, int priority) {
            calls.add("starting " + queued + " " + component.name() + " " + priority);
            return "r";
        }

        @Override
        public void actionEnded(Object running, Throwable failure) {
            calls.add("ended " + running + " " + (failure == null ? "ok" : failure.getMessage()));
        }

        @Override
        public void actionDropped(Object queued, Throwable reason) {
            calls.add("dropped " + queued + " " + reason.getClass().getSimpleName());
        }

        @Override
        public Object followUpRegistered(BackplaneComponent component, int priority) {
            calls.add("follow-up " + component.name() + " " + priority + " inside " + inside);
            return "f";
        }
    }

    /** What the running action is, for the follow-up call to see; set by the actions below. */
    private volatile String inside = "nothing";

    @Test
    void aReplyHandlerAndAContinuationGetTheTokenOfTheirRegistration_madeInsideTheActionThatRegisteredThem() {
        backplane = Backplane.builder("t").clock(new ManualClock()).stepMode().actionTracer(new Recording()).build();
        BackplaneComponent app = backplane.install(ComponentSpec.named("app"));
        backplane.stepper().runUntilIdle();
        calls.clear();
        CompletableFuture<String> reply = new CompletableFuture<>();
        CompletableFuture<String> done = app.submit("a", 2, ctx -> {
            inside = "the first step";
            ctx.awaitReply(reply, (c, value, failure) -> {
                inside = "the reply handler";
                return c.yieldTo(next -> {
                    inside = "the continuation";
                    return value + " then continued";
                });
            });
            return null;
        });
        backplane.stepper().runUntilIdle();
        reply.complete("replied");
        backplane.stepper().runUntilIdle();

        assertThat(done).isCompletedWithValue("replied then continued");
        assertThat(calls).filteredOn(c -> !c.startsWith("queued")).containsExactly(
                "starting q app 2",
                "follow-up app 2 inside the first step",
                "ended r ok",
                "starting f app 2",
                "follow-up app 2 inside the reply handler",
                "ended r ok",
                "starting f app 2",
                "ended r ok");
    }

    @Test
    void anActionCancelledWhileQueuedIsDroppedNotStarted() {
        backplane = Backplane.builder("t").clock(new ManualClock()).stepMode().actionTracer(new Recording()).build();
        BackplaneComponent app = backplane.install(ComponentSpec.named("app"));
        backplane.stepper().runUntilIdle();
        calls.clear();
        CompletableFuture<String> first = app.submit("a", 1, ctx -> "one");
        CompletableFuture<String> second = app.submit("a", 1, ctx -> "two");

        assertThat(app.cancelQueued("a")).isEqualTo(2);
        assertThat(first).isCompletedExceptionally();
        assertThat(second).isCompletedExceptionally();
        assertThat(calls).filteredOn(c -> !c.startsWith("queued"))
                .containsExactly("dropped q CancellationException", "dropped q CancellationException");
        backplane.stepper().runUntilIdle();
        assertThat(calls).noneMatch(c -> c.startsWith("starting"));
    }

    @Test
    void actionsFailedByShutdownBeforeTheyRanAreDroppedNotStarted() {
        backplane = Backplane.builder("t").clock(new ManualClock()).stepMode().actionTracer(new Recording()).build();
        BackplaneComponent app = backplane.install(ComponentSpec.named("app"));
        backplane.stepper().runUntilIdle();
        calls.clear();
        CompletableFuture<String> queued = app.submit("a", 1, ctx -> "never");

        backplane.shutdown(Duration.ZERO, Duration.ofSeconds(5));
        assertThat(queued).isCompletedExceptionally();
        assertThat(calls).contains("dropped q BackplaneShutdownException").noneMatch(c -> c.startsWith("starting q"));
    }

    @Test
    void eachActionIsQueuedOnTheSubmittingThreadThenStartedAndEndedWithItsFailure() {
        backplane = Backplane.builder("t").clock(new ManualClock()).stepMode().actionTracer(new Recording()).build();
        BackplaneComponent app = backplane.install(ComponentSpec.named("app"));
        backplane.stepper().runUntilIdle();
        calls.clear(); // the component's own state transitions are actions too
        String me = Thread.currentThread().getName();
        CompletableFuture<String> ok = app.submit("a", 1, ctx -> "done");
        CompletableFuture<String> failed = app.submit("b", 2, ctx -> {
            throw new IllegalStateException("broken");
        });
        assertThat(calls).containsExactly("queued app 1 on " + me, "queued app 2 on " + me);
        backplane.stepper().runUntilIdle();
        assertThat(ok).isCompletedWithValue("done");
        assertThat(failed).isCompletedExceptionally();
        assertThat(calls).containsExactly("queued app 1 on " + me, "queued app 2 on " + me,
                "starting q app 1", "ended r ok", "starting q app 2", "ended r broken");
    }

    @Test
    void aThrowingTracerNeverReachesTheRequest() {
        backplane = Backplane.builder("t").clock(new ManualClock()).stepMode().actionTracer(new ActionTracer() {
            @Override
            public Object actionQueued(BackplaneComponent component, int priority) {
                throw new IllegalStateException("tracer defect");
            }

            @Override
            public Object actionStarting(Object queued, BackplaneComponent component, int priority) {
                throw new IllegalStateException("tracer defect");
            }

            @Override
            public void actionEnded(Object running, Throwable failure) {
                throw new IllegalStateException("tracer defect");
            }
        }).build();
        BackplaneComponent app = backplane.install(ComponentSpec.named("app"));
        CompletableFuture<String> a = app.submit("a", 0, ctx -> "done");
        backplane.stepper().runUntilIdle();
        assertThat(a).isCompletedWithValue("done");
    }
}
