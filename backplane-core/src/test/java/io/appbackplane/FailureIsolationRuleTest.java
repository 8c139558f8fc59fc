package io.appbackplane;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Rule 15: a failing action fails its own request and nothing else. */
class FailureIsolationRuleTest {

    private final ManualClock clock = new ManualClock();
    private Backplane backplane;
    private final List<String> ran = new ArrayList<>();

    @AfterEach
    void close() {
        if (backplane != null) {
            backplane.close();
        }
    }

    private BackplaneComponent startStepMode(BackplaneListener... listeners) {
        Backplane.Builder builder = Backplane.builder("test").clock(clock).stepMode();
        for (BackplaneListener listener : listeners) {
            builder.listener(listener);
        }
        backplane = builder.build();
        return backplane.install(ComponentSpec.named("app"));
    }

    @Test
    void rule15_aThrowingActionFailsOnlyItsOwnFutureAndTheObjectsLaterActionsRunInOrder() {
        BackplaneComponent app = startStepMode();
        RuntimeException runtime = new IllegalArgumentException("runtime");
        Exception checked = new IOException("checked");
        Error overflow = new StackOverflowError("overflow");
        Error assertion = new AssertionError("assertion");

        CompletableFuture<String> ok1 = app.submit("o", 1, ctx -> record("ok1"));
        CompletableFuture<String> failsRuntime = app.submit("o", 1, ctx -> { ran.add("runtime"); throw runtime; });
        CompletableFuture<String> failsChecked = app.submit("o", 1, ctx -> { ran.add("checked"); throw checked; });
        CompletableFuture<String> ok2 = app.submit("o", 1, ctx -> record("ok2"));
        CompletableFuture<String> failsOverflow = app.submit("o", 1, ctx -> { ran.add("overflow"); throw overflow; });
        CompletableFuture<String> failsAssertion = app.submit("o", 1, ctx -> { ran.add("assertion"); throw assertion; });
        CompletableFuture<String> ok3 = app.submit("o", 1, ctx -> record("ok3"));

        assertThat(backplane.stepper().runUntilIdle()).isEqualTo(7);

        assertThat(ran).containsExactly("ok1", "runtime", "checked", "ok2", "overflow", "assertion", "ok3");
        assertThat(ok1.join()).isEqualTo("ok1");
        assertThat(ok2.join()).isEqualTo("ok2");
        assertThat(ok3.join()).isEqualTo("ok3");
        assertThat(failureOf(failsRuntime)).isSameAs(runtime);
        assertThat(failureOf(failsChecked)).isSameAs(checked);
        assertThat(failureOf(failsOverflow)).isSameAs(overflow);
        assertThat(failureOf(failsAssertion)).isSameAs(assertion);
        ActionCounts counts = app.statistics().counts();
        assertThat(counts.failed()).isEqualTo(4);
        assertThat(counts.completed()).isEqualTo(3);
        assertThat(counts.actionsRun()).isEqualTo(7);
        assertThat(backplane.statistics().priorities().get(1).counts().failed()).isEqualTo(4);
        assertThat(backplane.statistics().totals().failed()).isEqualTo(4);
        assertThat(backplane.isIdle()).isTrue();
        IdleObjectRetention.pass(clock);
        assertThat(app.objectCount()).isZero(); // not wedged: released like any idle object
    }

    @Test
    void rule15_aRealStackOverflowInAnActionIsContained() {
        BackplaneComponent app = startStepMode();
        CompletableFuture<Integer> overflow = app.submit("o", 1, ctx -> recurse(0));
        CompletableFuture<String> after = app.submit("o", 1, ctx -> record("after"));

        backplane.stepper().runUntilIdle();

        assertThat(failureOf(overflow)).isInstanceOf(StackOverflowError.class);
        assertThat(after.join()).isEqualTo("after");
    }

    @Test
    void rule15_otherObjectsAreNotAffected() {
        BackplaneComponent app = startStepMode();
        CompletableFuture<String> bad = app.submit("bad", 1, ctx -> { throw new IllegalStateException("bad"); });
        CompletableFuture<String> good = app.submit("good", 1, ctx -> record("good"));
        CompletableFuture<String> badAgain = app.submit("bad", 1, ctx -> record("bad recovered"));

        backplane.stepper().runUntilIdle();

        assertThat(failureOf(bad)).hasMessage("bad");
        assertThat(good.join()).isEqualTo("good");
        assertThat(badAgain.join()).isEqualTo("bad recovered");
    }

    @Test
    void rule15_aFailingReplyHandlerFailsItsRequestAndTheObjectGoesOn() {
        BackplaneComponent app = startStepMode();
        CompletableFuture<String> reply = new CompletableFuture<>();
        IllegalStateException handlerFailure = new IllegalStateException("handler");
        CompletableFuture<String> waiter = app.submit("o", 1, ctx -> ctx.awaitReply(reply, (c, value, failure) -> {
            ran.add("handler " + value);
            throw handlerFailure;
        }));
        backplane.stepper().runUntilIdle();
        CompletableFuture<String> next = app.submit("o", 1, ctx -> record("next"));
        assertThat(backplane.stepper().runUntilIdle()).isZero(); // the object waits; the new request queues behind

        reply.complete("r");
        backplane.stepper().runUntilIdle();

        assertThat(ran).containsExactly("handler r", "next");
        assertThat(failureOf(waiter)).isSameAs(handlerFailure);
        assertThat(next.join()).isEqualTo("next");
        assertThat(app.statistics().counts().failed()).isEqualTo(1);
        assertThat(backplane.statistics().waitingObjects()).isZero();
    }

    @Test
    void rule15_anActionThatAsksForAReplyAndThenThrowsDoesNotLeaveItsObjectWaiting() {
        BackplaneComponent app = startStepMode();
        CompletableFuture<String> reply = new CompletableFuture<>();
        CompletableFuture<String> failing = app.submit("o", 1, ctx -> {
            ctx.awaitReply(reply, (c, value, failure) -> "handled");
            throw new IllegalStateException("after awaitReply");
        });
        CompletableFuture<String> next = app.submit("o", 1, ctx -> record("next"));

        backplane.stepper().runUntilIdle();

        assertThat(failureOf(failing)).hasMessage("after awaitReply");
        assertThat(next.join()).isEqualTo("next");
        assertThat(backplane.statistics().waitingObjects()).isZero();
        reply.complete("late"); // ignored: nobody waits for it
        assertThat(backplane.stepper().runUntilIdle()).isZero();
        assertThat(ran).containsExactly("next");
        assertThat(backplane.isIdle()).isTrue();
    }

    @Test
    void rule15_executeFailuresReachTheListenerAndAreCounted() {
        List<String> unobserved = new CopyOnWriteArrayList<>();
        List<Throwable> failures = new CopyOnWriteArrayList<>();
        BackplaneComponent app = startStepMode(new BackplaneListener() {
            @Override
            public void onUnobservedFailure(String component, Object objectKey, Throwable failure) {
                unobserved.add(component + "/" + objectKey);
                failures.add(failure);
            }
        });
        IOException checked = new IOException("fire and forget");
        AssertionError error = new AssertionError("error too");

        app.execute("x", 1, ctx -> { throw checked; });
        app.execute("y", 2, ctx -> { throw error; });
        app.execute("x", 1, ctx -> record("x ok"));
        backplane.stepper().runUntilIdle();

        assertThat(unobserved).containsExactly("app/x", "app/y");
        assertThat(failures).containsExactly(checked, error);
        assertThat(ran).containsExactly("x ok");
        assertThat(app.statistics().counts().failed()).isEqualTo(2);
        assertThat(app.statistics().counts().completed()).isEqualTo(1);
    }

    @Test
    void rule15_aSubmittedFailureIsNotReportedAsUnobserved() {
        List<Throwable> failures = new CopyOnWriteArrayList<>();
        BackplaneComponent app = startStepMode(new BackplaneListener() {
            @Override
            public void onUnobservedFailure(String component, Object objectKey, Throwable failure) {
                failures.add(failure);
            }
        });
        CompletableFuture<String> observed = app.submit("x", 1, ctx -> { throw new IllegalStateException("seen"); });
        backplane.stepper().runUntilIdle();

        assertThat(failureOf(observed)).hasMessage("seen");
        assertThat(failures).isEmpty();
    }

    @Test
    void rule15_aThrowingListenerDoesNotHurtTheBackplane() {
        List<Throwable> secondListener = new CopyOnWriteArrayList<>();
        BackplaneComponent app = startStepMode(
                new BackplaneListener() {
                    @Override
                    public void onUnobservedFailure(String component, Object objectKey, Throwable failure) {
                        throw new IllegalStateException("listener broke");
                    }
                },
                new BackplaneListener() {
                    @Override
                    public void onUnobservedFailure(String component, Object objectKey, Throwable failure) {
                        secondListener.add(failure);
                    }
                });
        app.execute("x", 1, ctx -> { throw new IllegalStateException("action broke"); });
        CompletableFuture<String> after = app.submit("x", 1, ctx -> record("after"));

        backplane.stepper().runUntilIdle();

        assertThat(secondListener).singleElement().satisfies(f -> assertThat(f).hasMessage("action broke"));
        assertThat(after.join()).isEqualTo("after");
        assertThat(backplane.isIdle()).isTrue();
    }

    @Test
    void rule15_withWorkerThreadsAThrowingActionDoesNotKillTheWorker() throws Exception {
        backplane = Backplane.builder("isolation")
                .policy(BackplanePolicy.builder().threads(1).build())
                .build();
        BackplaneComponent app = backplane.install(ComponentSpec.named("app"));
        List<Thread> threads = new CopyOnWriteArrayList<>();

        CompletableFuture<String> runtime = app.submit("a", 1, ctx -> {
            threads.add(Thread.currentThread());
            throw new IllegalStateException("boom");
        });
        CompletableFuture<String> error = app.submit("b", 1, ctx -> {
            threads.add(Thread.currentThread());
            throw new AssertionError("error");
        });
        CompletableFuture<String> later = app.submit("c", 1, ctx -> {
            threads.add(Thread.currentThread());
            return "still alive";
        });
        CompletableFuture<String> sameObject = app.submit("a", 1, ctx -> "a goes on");

        assertThat(later.get(10, TimeUnit.SECONDS)).isEqualTo("still alive");
        assertThat(sameObject.get(10, TimeUnit.SECONDS)).isEqualTo("a goes on");
        assertThat(failureOf(runtime)).isInstanceOf(IllegalStateException.class).hasMessage("boom");
        assertThat(failureOf(error)).isInstanceOf(AssertionError.class).hasMessage("error");
        assertThat(threads).hasSize(3).allSatisfy(t -> assertThat(t).isSameAs(threads.get(0)));
        assertThat(threads.get(0).getName()).startsWith("backplane-isolation-worker");
        assertThat(threads.get(0).isAlive()).isTrue();
        await().atMost(Duration.ofSeconds(10)).until(() -> backplane.statistics().idleThreads() == 1);
        assertThat(backplane.statistics().threads()).isEqualTo(1);
        assertThat(app.statistics().counts().failed()).isEqualTo(2);
        assertThat(app.statistics().counts().completed()).isEqualTo(2);
    }

    private String record(String label) {
        ran.add(label);
        return label;
    }

    private static int recurse(int depth) {
        return depth == Integer.MAX_VALUE ? depth : recurse(depth + 1) + 1;
    }

    private static Throwable failureOf(CompletableFuture<?> future) {
        assertThat(future).isDone();
        Throwable failure = future.handle((value, t) -> t).join();
        return failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
    }
}
