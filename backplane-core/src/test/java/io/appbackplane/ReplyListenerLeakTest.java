package io.appbackplane;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.appbackplane.Stepper.Kind;
import java.lang.ref.WeakReference;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 13, defect 8: a wait for a reply registers a listener on the user's stage, and a
 * CompletableFuture cannot remove a dependent. A wait that ends without the stage completing
 * (timeout, shutdown) must leave nothing on the stage that keeps its object, key, request or
 * handler reachable, however often it happens on one long-lived stage. Step mode on a manual
 * clock: the timeouts fire when the test moves the clock.
 */
class ReplyListenerLeakTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(1);
    private static final Duration GC_WAIT = Duration.ofSeconds(30);

    private final ManualClock clock = new ManualClock();
    private Backplane backplane;
    private BackplaneComponent app;

    @AfterEach
    void close() {
        if (backplane != null) {
            backplane.close();
        }
    }

    private void start() {
        backplane = Backplane.builder("leak")
                .policy(BackplanePolicy.builder().priorities(3).build())
                .clock(clock)
                .stepMode()
                .build();
        app = backplane.install(ComponentSpec.named("app"));
    }

    /** What one timed-out wait must let go of, watched through weak references. */
    private record Watched(WeakReference<Object> key, WeakReference<Object> handler, WeakReference<Object> request) {
        boolean allCollected() {
            return key.get() == null && handler.get() == null && request.get() == null;
        }
    }

    /**
     * One wait with a timeout on {@code stage}, run to its end: the action waits, the clock passes
     * the timeout, the handler sees the {@link ReplyTimeoutException}, the request completes and the
     * idle object is released. Only weak references to what it allocated leave this method.
     */
    private Watched waitAndTimeOut(CompletableFuture<String> stage) throws Exception {
        Object key = new Object();
        List<Throwable> seen = new ArrayList<>();
        ReplyHandler<String, String> handler = (ctx, reply, failure) -> {
            seen.add(failure);
            return "timed out";
        };
        CompletableFuture<String> request = app.submit(key, 1, ctx -> ctx.awaitReply(stage, TIMEOUT, handler));
        assertThat(backplane.stepper().runNext().kind()).isEqualTo(Kind.RAN);
        clock.advance(TIMEOUT);
        assertThat(backplane.stepper().runNext().kind()).isEqualTo(Kind.RAN);
        assertThat(request.get()).isEqualTo("timed out");
        assertThat(seen).singleElement().isInstanceOf(ReplyTimeoutException.class);
        IdleObjectRetention.pass(clock);
        assertThat(app.objectCount()).isZero();
        return new Watched(new WeakReference<>(key), new WeakReference<>(handler), new WeakReference<>(request));
    }

    @Test
    void aTimedOutWaitLeavesNothingOnTheStageThatKeepsItsObjectRequestOrHandlerReachable() throws Exception {
        start();
        CompletableFuture<String> stage = new CompletableFuture<>(); // long-lived, never completes

        Watched watched = waitAndTimeOut(stage);

        await().atMost(GC_WAIT).until(() -> {
            System.gc();
            return watched.allCollected();
        });
        assertThat(stage.isDone()).isFalse(); // the stage itself stays reachable all along
    }

    @Test
    void tenThousandTimedOutWaitsOnOneStageKeepNoneOfTheirKeysRequestsOrHandlersReachable() throws Exception {
        start();
        CompletableFuture<String> stage = new CompletableFuture<>();

        List<Watched> watched = new ArrayList<>();
        for (int i = 0; i < 10_000; i++) {
            watched.add(waitAndTimeOut(stage));
        }

        // A CompletableFuture cannot remove a dependent: the first wait's record stays on the stage,
        // cleared; after its timeout the stage got one shared listener that every later wait joined.
        assertThat(stage.getNumberOfDependents()).isEqualTo(2);
        await().atMost(GC_WAIT).until(() -> {
            System.gc();
            return watched.stream().allMatch(Watched::allCollected);
        });
        stage.complete("at last"); // nobody waits any more: no handler runs again, the dependents go
        assertThat(backplane.stepper().runNext()).isEqualTo(Stepper.Step.IDLE);
        assertThat(stage.getNumberOfDependents()).isZero();
    }

    @Test
    void waitsThatJoinedAStagesSharedListenerGetItsReply() throws Exception {
        start();
        CompletableFuture<String> stage = new CompletableFuture<>();
        waitAndTimeOut(stage); // from now on the stage has a shared listener
        List<CompletableFuture<String>> requests = new ArrayList<>();
        for (int i = 0; i < 40; i++) { // past the shared list's first purges
            requests.add(app.submit("k" + i, 1, ctx -> ctx.awaitReply(stage, TIMEOUT, (c, reply, failure) -> "got " + reply)));
            assertThat(backplane.stepper().runNext().kind()).isEqualTo(Kind.RAN);
        }
        assertThat(stage.getNumberOfDependents()).isEqualTo(2);

        stage.complete("pong");
        for (int i = 0; i < 40; i++) {
            assertThat(backplane.stepper().runNext().kind()).isEqualTo(Kind.RAN);
        }
        assertThat(requests).allSatisfy(r -> assertThat(r).isCompletedWithValue("got pong"));
        clock.advance(TIMEOUT.multipliedBy(2)); // their timeouts were cancelled
        assertThat(backplane.stepper().runNext()).isEqualTo(Stepper.Step.IDLE);
        assertThat(stage.getNumberOfDependents()).isZero();
    }

    @Test
    void aFailedStageReachesTheHandlersOfWaitsThatJoinedItsSharedListener() throws Exception {
        start();
        CompletableFuture<String> stage = new CompletableFuture<>();
        waitAndTimeOut(stage);
        CompletableFuture<String> request = app.submit("k", 1,
                ctx -> ctx.awaitReply(stage, (c, reply, failure) -> "failed " + failure.getMessage()));
        backplane.stepper().runNext();

        stage.completeExceptionally(new IllegalStateException("no pong"));
        backplane.stepper().runNext();
        assertThat(request).isCompletedWithValue("failed no pong");
    }

    @Test
    void aStageWithASharedListenerIsNotKeptReachableByIt() throws Exception {
        start();
        CompletableFuture<String> stage = new CompletableFuture<>();
        waitAndTimeOut(stage);
        WeakReference<CompletableFuture<String>> dropped = new WeakReference<>(stage);
        stage = null; // the user lets go of the stage that nobody will complete

        await().atMost(GC_WAIT).until(() -> {
            System.gc();
            return dropped.get() == null;
        });
    }

    @Test
    void aReplyThatArrivesBeforeItsTimeoutReachesItsHandlerAndCancelsTheTimeout() throws Exception {
        start();
        CompletableFuture<String> stage = new CompletableFuture<>();
        CompletableFuture<String> request = app.submit("k", 1,
                ctx -> ctx.awaitReply(stage, TIMEOUT, (c, reply, failure) -> failure == null ? "got " + reply : "failed " + failure));
        backplane.stepper().runNext();
        stage.complete("pong");
        assertThat(backplane.stepper().runNext().kind()).isEqualTo(Kind.RAN);
        assertThat(request.get()).isEqualTo("got pong");

        clock.advance(TIMEOUT.multipliedBy(2)); // the cancelled timeout never fires
        assertThat(backplane.stepper().runNext()).isEqualTo(Stepper.Step.IDLE);
        assertThat(stage.getNumberOfDependents()).isZero();
    }

    @Test
    void aFailedReplyWithATimeoutReachesItsHandler() throws Exception {
        start();
        CompletableFuture<String> stage = new CompletableFuture<>();
        CompletableFuture<String> request = app.submit("k", 1,
                ctx -> ctx.awaitReply(stage, TIMEOUT, (c, reply, failure) -> "failed " + failure.getMessage()));
        backplane.stepper().runNext();
        stage.completeExceptionally(new IllegalStateException("no pong"));
        backplane.stepper().runNext();
        assertThat(request.get()).isEqualTo("failed no pong");
    }

    @Test
    void aWaitEndedByShutdownLeavesNothingOnTheStageThatKeepsItsRequestOrHandlerReachable() throws Exception {
        start();
        CompletableFuture<String> stage = new CompletableFuture<>();
        Watched watched = waitWithoutTimeoutThenShutDown(stage);

        await().atMost(GC_WAIT).until(() -> {
            System.gc();
            return watched.allCollected();
        });
        assertThat(stage.getNumberOfDependents()).isEqualTo(1); // the JDK's node stays, holding nothing of ours
    }

    private Watched waitWithoutTimeoutThenShutDown(CompletableFuture<String> stage) {
        Object key = new Object();
        List<Object> replies = new ArrayList<>();
        ReplyHandler<String, String> handler = (ctx, reply, failure) -> {
            replies.add(reply);
            return "handled";
        };
        CompletableFuture<String> request = app.submit(key, 1, ctx -> ctx.awaitReply(stage, handler));
        backplane.stepper().runNext();
        backplane.close();
        backplane = null; // the closed backplane's component map would keep the abandoned object (and key)
        app = null;
        assertThat(request).failsWithin(Duration.ZERO).withThrowableOfType(ExecutionException.class)
                .havingCause().isInstanceOf(BackplaneShutdownException.class);
        assertThat(replies).isEmpty();
        return new Watched(new WeakReference<>(key), new WeakReference<>(handler), new WeakReference<>(request));
    }
}
