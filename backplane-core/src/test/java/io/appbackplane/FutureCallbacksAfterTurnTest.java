package io.appbackplane;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 13, defect 6: the callbacks a submitter attaches to a returned future ({@code thenApply},
 * {@code whenComplete}, ...) run after the object's turn has ended, never while the object is
 * still RUNNING, and their time is charged to the CPU budget and shown in the statistics. With
 * real workers and with the step driver.
 *
 * <p>Each test makes sure the callback is attached before the action ends (the action waits for a
 * latch the test counts down after attaching it), so the callback runs on the thread that completes
 * the future, not on the test's.
 */
class FutureCallbacksAfterTurnTest {

    private static final AtomicInteger BACKPLANES = new AtomicInteger();
    private static final Duration WAIT = Duration.ofSeconds(20);

    private Backplane backplane;

    @AfterEach
    void close() {
        if (backplane != null) {
            backplane.close();
        }
    }

    private BackplaneComponent start(BackplanePolicy policy, BackplaneClock clock) {
        Backplane.Builder builder = Backplane.builder("callbacks-" + BACKPLANES.incrementAndGet()).policy(policy);
        if (clock != null) {
            builder.clock(clock);
        }
        backplane = builder.build();
        return backplane.install(ComponentSpec.named("app"));
    }

    /** Submits an action on {@code key} that ends only once {@code attached} is counted down. */
    private static CompletableFuture<Object> submitHeld(BackplaneComponent app, String key, CountDownLatch attached) {
        return app.submit(key, 1, ctx -> {
            assertThat(attached.await(WAIT.toSeconds(), SECONDS)).as("callback attached").isTrue();
            return "first";
        });
    }

    @Test
    void aBlockingCallback_doesNotKeepItsObjectRunning_theNextActionOnTheKeyRunsMeanwhile() throws Exception {
        BackplaneComponent app = start(BackplanePolicy.builder().threads(2).build(), null);
        CountDownLatch attached = new CountDownLatch(1);
        CountDownLatch callbackEntered = new CountDownLatch(1);
        CountDownLatch releaseCallback = new CountDownLatch(1);
        CompletableFuture<Object> first = submitHeld(app, "k", attached);
        CompletableFuture<Void> callback = first.thenRun(() -> {
            callbackEntered.countDown();
            try {
                // A caller's callback that blocks (the defect's case) until the test lets it go; its
                // bound outlasts the test's wait for the next action below, so that it cannot free the
                // object in time for that wait to succeed.
                releaseCallback.await(3 * WAIT.toSeconds(), SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        attached.countDown();
        try {
            assertThat(callbackEntered.await(WAIT.toSeconds(), SECONDS)).as("callback entered").isTrue();
            // The worker blocked in the callback no longer holds "k": the other worker runs its next action.
            assertThat(app.submit("k", 1, ctx -> "second").get(WAIT.toSeconds(), SECONDS)).isEqualTo("second");
        } finally {
            releaseCallback.countDown();
        }
        callback.get(WAIT.toSeconds(), SECONDS);
    }

    @Test
    void aCallbackThatSubmitsToTheSameKeyAndWaits_seesItRun_withoutDeadlock() throws Exception {
        BackplaneComponent app = start(BackplanePolicy.builder().threads(2).build(), null);
        CountDownLatch attached = new CountDownLatch(1);
        CompletableFuture<Object> first = submitHeld(app, "k", attached);
        CompletableFuture<Object> chained = first.thenApply(value -> {
            try {
                // Bounded, so that the unfixed code fails the test instead of hanging it.
                return value + "," + app.submit("k", 1, ctx -> "second").get(WAIT.toSeconds(), SECONDS);
            } catch (Exception e) {
                throw new IllegalStateException("the follow-up on the same key did not run: " + e, e);
            }
        });
        attached.countDown();

        assertThat(chained.get(2 * WAIT.toSeconds(), SECONDS)).isEqualTo("first,second");
    }

    @Test
    void aCallbacksTime_isChargedToTheCpuBudget_andShownInTheStatistics() throws Exception {
        ManualClock clock = new ManualClock();
        BackplanePolicy policy = BackplanePolicy.builder()
                .threads(1)
                .cpuLimit(CpuLimit.ofCores(1))
                .integrationPeriod(Duration.ofHours(1)) // no tick resets the use during the test
                .build();
        BackplaneComponent app = start(policy, clock);
        CountDownLatch attached = new CountDownLatch(1);
        CompletableFuture<Object> first = submitHeld(app, "k", attached);
        CompletableFuture<Void> callback = first.thenRun(() -> clock.advance(Duration.ofMillis(300))); // 300 ms of "work"
        attached.countDown();
        callback.get(WAIT.toSeconds(), SECONDS);

        // Charged when the callbacks end, before the worker looks for work again.
        await().atMost(WAIT).untilAsserted(() -> {
            BackplaneStatistics.Cpu cpu = backplane.statistics().cpu();
            assertThat(cpu.futureCallbackTime()).isEqualTo(Duration.ofMillis(300));
            assertThat(cpu.usedThisPeriod()).isEqualTo(Duration.ofMillis(300)); // the action took no time on this clock
        });
    }

    @Test
    void inStepMode_callbacksRunAtTheEndOfTheStep_afterTheObjectLeftRunning_andAreCharged() throws Exception {
        ManualClock clock = new ManualClock();
        BackplanePolicy policy = BackplanePolicy.builder()
                .actionsPerTurn(1)
                .cpuLimit(CpuLimit.ofCores(1))
                .integrationPeriod(Duration.ofHours(1))
                .build();
        backplane = Backplane.builder("callbacks-step-" + BACKPLANES.incrementAndGet())
                .policy(policy).clock(clock).stepMode().build();
        BackplaneComponent app = backplane.install(ComponentSpec.named("app"));
        Stepper stepper = backplane.stepper();
        CompletableFuture<Object> first = app.submit("k", 1, ctx -> "first");
        int[] readySeenByCallback = {-1};
        AtomicReference<CompletableFuture<Object>> second = new AtomicReference<>();
        first.thenRun(() -> {
            clock.advance(Duration.ofMillis(300));
            second.set(app.submit("k", 1, ctx -> "second"));
            // "k" has left RUNNING: the new action makes it READY at once, as for any idle object.
            readySeenByCallback[0] = backplane.statistics().readyObjects();
        });

        assertThat(stepper.runNext().ran()).isTrue();
        assertThat(first).isCompletedWithValue("first");
        assertThat(readySeenByCallback[0]).isEqualTo(1);
        assertThat(backplane.statistics().cpu().futureCallbackTime()).isEqualTo(Duration.ofMillis(300));
        assertThat(backplane.statistics().cpu().usedThisPeriod()).isEqualTo(Duration.ofMillis(300));

        assertThat(stepper.runNext().ran()).isTrue();
        assertThat(second.get().get(0, TimeUnit.SECONDS)).isEqualTo("second");
    }
}
