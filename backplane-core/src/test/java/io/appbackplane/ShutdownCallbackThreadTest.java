package io.appbackplane;

import static org.assertj.core.api.Assertions.assertThat;

import io.appbackplane.Backplane.ShutdownReport;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * No caller's callback runs on the backplane's timer thread, also when a shutdown deadline fails
 * queued requests: a callback that blocks there would hold up real ticks, reply timeouts and the
 * next shutdown deadline itself. Were the drain deadline to complete the failed futures on {@code
 * backplane-<name>-timer}, a callback blocked there would keep the backplane from ever reaching its
 * DOWN deadline.
 */
class ShutdownCallbackThreadTest {

    private static final String NAME = "callbacks";

    private Backplane backplane;
    /** Released by the test; blocks the caller's callback until then (at most 30 s, should the test fail first). */
    private final CountDownLatch releaseCallback = new CountDownLatch(1);

    @AfterEach
    void close() {
        releaseCallback.countDown();
        if (backplane != null) {
            backplane.close();
        }
    }

    @Test
    void aCallbackBlockedAtTheDrainDeadline_runsOffTheTimerThread_andDoesNotDelayTheDownDeadline() throws Exception {
        CountDownLatch aRunning = new CountDownLatch(1);
        CountDownLatch releaseA = new CountDownLatch(1);
        CountDownLatch callbackEntered = new CountDownLatch(1);
        AtomicReference<Thread> callbackThread = new AtomicReference<>();
        backplane = Backplane.builder(NAME).policy(BackplanePolicy.builder().threads(1).build()).build();
        // Its DOWN hook leaves a request waiting for a reply that never comes: only the DOWN deadline ends the shutdown.
        BackplaneComponent app = backplane.install(ComponentSpec.named("app").onEnter(ComponentState.DOWN,
                (ctx, from, to) -> ctx.component().submit("waiter", 0, c -> c.awaitReply(new CompletableFuture<>(),
                        (c2, value, failure) -> value))));
        backplane.moveTo(ComponentState.PRIMARY).get(10, TimeUnit.SECONDS);

        app.submit("key", 0, ctx -> {
            aRunning.countDown();
            return releaseA.await(30, TimeUnit.SECONDS); // holds the only worker past the drain deadline
        });
        assertThat(aRunning.await(10, TimeUnit.SECONDS)).isTrue();
        CompletableFuture<Object> queued = app.submit("key", 0, ctx -> "never runs");
        queued.whenComplete((value, failure) -> {
            callbackThread.set(Thread.currentThread());
            callbackEntered.countDown();
            try {
                releaseCallback.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });

        CompletableFuture<ShutdownReport> report = backplane.shutdown(Duration.ofMillis(100), Duration.ofMillis(300));

        assertThat(callbackEntered.await(10, TimeUnit.SECONDS)).as("the drain deadline failed the queued request").isTrue();
        assertThat(queued).isCompletedExceptionally();
        releaseA.countDown(); // the worker runs the DOWN transition next, then idles until the DOWN deadline
        // The callback is still blocked: the DOWN deadline comes all the same.
        ShutdownReport done = report.get(10, TimeUnit.SECONDS);
        assertThat(releaseCallback.getCount()).as("the callback is still blocked").isEqualTo(1);
        assertThat(done.completedWhileDraining()).as("the running action").isEqualTo(1);
        // The queued request, and the waiter the DOWN hook left (or, on a slow machine whose worker
        // had not run the DOWN transition by the DOWN deadline, that transition itself).
        assertThat(done.failedAtShutdown()).isGreaterThanOrEqualTo(2);
        assertThat(callbackThread.get().getName()).doesNotStartWith("backplane-");
    }
}
