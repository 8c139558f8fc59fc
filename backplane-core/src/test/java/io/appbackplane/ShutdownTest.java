package io.appbackplane;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.appbackplane.Backplane.ShutdownReport;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Shutdown: nothing accepted is dropped silently; every future completes; the workers go away. */
class ShutdownTest {

    private final ManualClock clock = new ManualClock();
    private Backplane backplane;

    @AfterEach
    void close() {
        if (backplane != null) {
            backplane.close();
        }
    }

    private BackplaneComponent startStepMode() {
        backplane = Backplane.builder("test").clock(clock).stepMode().build();
        return backplane.install(ComponentSpec.named("app"));
    }

    @Test
    void shutdownWithZeroDrainTimeoutFailsEveryQueuedFutureAndReportsThem() {
        BackplaneComponent app = startStepMode();
        List<CompletableFuture<String>> futures = new ArrayList<>();
        futures.add(app.submit("a", 1, ctx -> "a1"));
        futures.add(app.submit("a", 1, ctx -> "a2"));
        futures.add(app.submit("b", 3, ctx -> "b1"));
        app.execute("c", 0, ctx -> "fire and forget");

        CompletableFuture<ShutdownReport> shutdown = backplane.shutdown(Duration.ZERO);

        assertThat(backplane.isShutdown()).isTrue();
        assertThat(shutdown).isCompletedWithValue(new ShutdownReport(0, 4));
        for (CompletableFuture<String> future : futures) {
            assertThat(failureOf(future)).isExactlyInstanceOf(BackplaneShutdownException.class)
                    .hasMessageContainingAll("'test'", "'app'", "shut down");
        }
        assertThat(backplane.shutdown(Duration.ofSeconds(5))).isSameAs(shutdown); // idempotent
        assertThat(backplane.stepper().runUntilIdle()).isZero();
        assertThat(backplane.isIdle()).isTrue();
        BackplaneStatistics stats = backplane.statistics();
        assertThat(stats.totals().failed()).isEqualTo(4);
        assertThat(stats.totals().outstanding()).isZero();
        assertThat(stats.readyObjects()).isZero();
        assertThatThrownBy(() -> app.submit("a", 1, ctx -> "late"))
                .isInstanceOfSatisfying(BackplaneRejectedException.class,
                        e -> assertThat(e.reason()).isEqualTo(BackplaneRejectedException.Reason.CLOSED));
    }

    @Test
    void shutdownOfAnIdleBackplaneCompletesAtOnce() {
        startStepMode();
        assertThat(backplane.shutdown(Duration.ofSeconds(30))).isCompletedWithValue(new ShutdownReport(0, 0));
    }

    @Test
    void withADrainTimeoutWorkRunBeforeTheDeadlineCompletesAndTheRestFailsAfterIt() {
        BackplaneComponent app = startStepMode();
        List<CompletableFuture<String>> futures = new ArrayList<>();
        for (int i = 1; i <= 4; i++) {
            String label = "a" + i;
            futures.add(app.submit("a", 1, ctx -> label));
        }

        CompletableFuture<ShutdownReport> shutdown = backplane.shutdown(Duration.ofSeconds(10));
        assertThat(shutdown).isNotDone();
        assertThatThrownBy(() -> app.submit("a", 1, ctx -> "late")).isInstanceOf(BackplaneRejectedException.class);

        assertThat(backplane.stepper().runNext().ran()).isTrue();
        clock.advance(Duration.ofSeconds(5));
        assertThat(backplane.stepper().runNext().ran()).isTrue();
        assertThat(futures.get(0).join()).isEqualTo("a1");
        assertThat(futures.get(1).join()).isEqualTo("a2");
        assertThat(futures.get(2)).isNotDone();
        clock.advance(Duration.ofSeconds(5).minusNanos(1));
        assertThat(shutdown).isNotDone();
        assertThat(futures.get(2)).isNotDone();

        clock.advance(Duration.ofNanos(1)); // the drain timeout elapses

        assertThat(shutdown).isCompletedWithValue(new ShutdownReport(2, 2));
        assertThat(failureOf(futures.get(2))).isExactlyInstanceOf(BackplaneShutdownException.class);
        assertThat(failureOf(futures.get(3))).isExactlyInstanceOf(BackplaneShutdownException.class);
        assertThat(backplane.stepper().runUntilIdle()).isZero();
        assertThat(app.statistics().counts()).satisfies(c -> {
            assertThat(c.completed()).isEqualTo(2);
            assertThat(c.failed()).isEqualTo(2);
            assertThat(c.rejected()).isEqualTo(1);
            assertThat(c.outstanding()).isZero();
        });
    }

    @Test
    void withADrainTimeoutShutdownCompletesAsSoonAsTheLastRequestFinishes() {
        BackplaneComponent app = startStepMode();
        CompletableFuture<String> one = app.submit("a", 1, ctx -> "1");
        CompletableFuture<String> two = app.submit("b", 1, ctx -> { throw new IllegalStateException("2"); });

        CompletableFuture<ShutdownReport> shutdown = backplane.shutdown(Duration.ofSeconds(10));
        backplane.stepper().runNext();
        assertThat(shutdown).isNotDone();
        backplane.stepper().runNext();

        assertThat(shutdown).isCompletedWithValue(new ShutdownReport(2, 0));
        assertThat(one.join()).isEqualTo("1");
        assertThat(failureOf(two)).isExactlyInstanceOf(IllegalStateException.class); // its own failure, not shutdown's
        clock.advance(Duration.ofSeconds(20)); // the cancelled deadline does nothing
        assertThat(shutdown).isCompletedWithValue(new ShutdownReport(2, 0));
    }

    @Test
    void aRequestWaitingForAReplyIsFailedAtShutdownAndTheLateReplyIsIgnored() {
        BackplaneComponent app = startStepMode();
        CompletableFuture<String> reply = new CompletableFuture<>();
        AtomicBoolean handlerRan = new AtomicBoolean();
        CompletableFuture<String> waiter = app.submit("w", 1, ctx -> ctx.awaitReply(reply, (c, value, failure) -> {
            handlerRan.set(true);
            return value;
        }));
        CompletableFuture<String> behind = app.submit("w", 1, ctx -> "behind");
        backplane.stepper().runUntilIdle();
        assertThat(backplane.statistics().waitingObjects()).isEqualTo(1);

        CompletableFuture<ShutdownReport> shutdown = backplane.shutdown(Duration.ZERO);

        assertThat(shutdown).isCompletedWithValue(new ShutdownReport(0, 2));
        assertThat(failureOf(waiter)).isExactlyInstanceOf(BackplaneShutdownException.class);
        assertThat(failureOf(behind)).isExactlyInstanceOf(BackplaneShutdownException.class);
        assertThat(backplane.statistics().waitingObjects()).isZero();
        reply.complete("too late");
        assertThat(backplane.stepper().runUntilIdle()).isZero();
        assertThat(handlerRan).isFalse();
        assertThat(backplane.isIdle()).isTrue();
    }

    @Test
    void aReplyWithATimeoutIsFailedAtShutdownAndItsTimeoutNeverFires() {
        BackplaneComponent app = startStepMode();
        AtomicBoolean handlerRan = new AtomicBoolean();
        CompletableFuture<String> waiter = app.submit("w", 1, ctx -> ctx.awaitReply(
                new CompletableFuture<String>(), Duration.ofSeconds(1), (c, value, failure) -> {
                    handlerRan.set(true);
                    return "timed out";
                }));
        backplane.stepper().runUntilIdle();

        backplane.shutdown(Duration.ZERO);
        clock.advance(Duration.ofSeconds(2));

        assertThat(failureOf(waiter)).isExactlyInstanceOf(BackplaneShutdownException.class);
        assertThat(backplane.stepper().runUntilIdle()).isZero();
        assertThat(handlerRan).isFalse();
    }

    @Test
    void aReplyArrivingWhileDrainingCompletesItsRequest() {
        BackplaneComponent app = startStepMode();
        CompletableFuture<String> reply = new CompletableFuture<>();
        CompletableFuture<String> waiter = app.submit("w", 1,
                ctx -> ctx.awaitReply(reply, (c, value, failure) -> "got " + value));
        backplane.stepper().runUntilIdle();

        CompletableFuture<ShutdownReport> shutdown = backplane.shutdown(Duration.ofSeconds(10));
        clock.advance(Duration.ofSeconds(3));
        reply.complete("pong");
        backplane.stepper().runUntilIdle();

        assertThat(waiter.join()).isEqualTo("got pong");
        assertThat(shutdown).isCompletedWithValue(new ShutdownReport(1, 0));
    }

    @Test
    void closeInStepModeFailsWhatIsLeftAtOnce() {
        BackplaneComponent app = startStepMode();
        CompletableFuture<String> queued = app.submit("a", 1, ctx -> "never");

        backplane.close();

        assertThat(failureOf(queued)).isExactlyInstanceOf(BackplaneShutdownException.class);
        assertThat(backplane.isShutdown()).isTrue();
        backplane.close(); // idempotent
    }

    @Test
    void aRequestAdmittedWhileShutdownSweepsIsNotLeftPending() {
        // The make-room hook runs after the closed check and before the request is queued: shutting
        // down there reproduces a submitter that races a shutdown(ZERO).
        backplane = Backplane.builder("test").clock(clock).stepMode().build();
        BackplaneComponent app = backplane.install(ComponentSpec.named("app").withOperationLimit(1)
                .withMakeRoom(component -> {
                    component.cancelQueued("old");
                    component.backplane().shutdown(Duration.ZERO);
                    return true;
                }));
        CompletableFuture<String> old = app.submit("old", 1, ctx -> "old");

        CompletableFuture<String> racing;
        try {
            racing = app.submit("new", 1, ctx -> "new");
        } catch (BackplaneRejectedException rejected) {
            racing = CompletableFuture.failedFuture(rejected); // rejecting it would be fine too
        }

        assertThat(old).isCompletedExceptionally();
        assertThat(racing).as("a request must not stay pending after shutdown").isDone();
        assertThat(backplane.isIdle()).isTrue();
    }

    @Test
    void closeUnderLoadWithWorkerThreadsCompletesEveryFutureAndStopsTheWorkers() throws Exception {
        backplane = Backplane.builder("closing").policy(BackplanePolicy.builder().threads(2).build()).build();
        BackplaneComponent app = backplane.install(ComponentSpec.named("app"));
        List<CompletableFuture<Integer>> futures = new ArrayList<>(); // the submitter's; read after join()
        CountDownLatch someAccepted = new CountDownLatch(1_000);
        AtomicBoolean sawClosed = new AtomicBoolean();
        Thread submitter = new Thread(() -> {
            for (int i = 0; ; i++) {
                int n = i;
                try {
                    futures.add(app.submit(n % 64, 1 + n % 3, ctx -> n));
                    someAccepted.countDown();
                } catch (BackplaneRejectedException e) {
                    if (e.reason() == BackplaneRejectedException.Reason.CLOSED) {
                        sawClosed.set(true);
                        return;
                    }
                    Thread.onSpinWait(); // at a limit: back off, as the exception says, and go on
                }
            }
        }, "test-submitter");
        submitter.start();
        assertThat(someAccepted.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(workerThreads("closing")).isNotEmpty();

        backplane.close();
        submitter.join(TimeUnit.SECONDS.toMillis(10));

        assertThat(submitter.isAlive()).isFalse();
        assertThat(sawClosed).isTrue();
        assertThat(futures).hasSizeGreaterThanOrEqualTo(1_000).allSatisfy(future -> {
            assertThat(future).isDone();
            if (future.isCompletedExceptionally()) {
                assertThat(failureOf(future)).isExactlyInstanceOf(BackplaneShutdownException.class);
            }
        });
        assertThat(backplane.isIdle()).isTrue();
        assertThat(backplane.statistics().totals().outstanding()).isZero();
        await().atMost(Duration.ofSeconds(10)).until(() -> workerThreads("closing").isEmpty());
    }

    @Test
    void shutdownWithZeroTimeoutUnderLoadWithWorkerThreadsFailsTheQueuedRestAndStopsTheWorkers() throws Exception {
        backplane = Backplane.builder("abrupt").policy(BackplanePolicy.builder().threads(2).build()).build();
        BackplaneComponent app = backplane.install(ComponentSpec.named("app"));
        CountDownLatch running = new CountDownLatch(2);
        CountDownLatch release = new CountDownLatch(1);
        List<CompletableFuture<Integer>> futures = new ArrayList<>();
        for (int key = 0; key < 2; key++) {
            futures.add(app.submit("blocker" + key, 1, ctx -> {
                running.countDown();
                return release.await(10, TimeUnit.SECONDS) ? -1 : -2;
            }));
        }
        assertThat(running.await(10, TimeUnit.SECONDS)).isTrue();
        for (int i = 0; i < 10_000; i++) {
            int n = i;
            futures.add(app.submit(i % 100, 2, ctx -> n));
        }

        CompletableFuture<ShutdownReport> shutdown = backplane.shutdown(Duration.ZERO);
        release.countDown();
        ShutdownReport report = shutdown.get(10, TimeUnit.SECONDS);

        assertThat(report.failedAtShutdown()).isEqualTo(10_000);
        assertThat(futures.get(0).join()).isEqualTo(-1); // running actions finish normally
        assertThat(futures.get(1).join()).isEqualTo(-1);
        assertThat(futures.subList(2, futures.size())).allSatisfy(future ->
                assertThat(failureOf(future)).isExactlyInstanceOf(BackplaneShutdownException.class));
        assertThat(backplane.isIdle()).isTrue();
        await().atMost(Duration.ofSeconds(10)).until(() -> workerThreads("abrupt").isEmpty());
    }

    private static List<Thread> workerThreads(String backplaneName) {
        String prefix = "backplane-" + backplaneName + "-worker";
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().startsWith(prefix) && t.isAlive())
                .toList();
    }

    private static Throwable failureOf(CompletableFuture<?> future) {
        assertThat(future).isDone();
        Throwable failure = future.handle((value, t) -> t).join();
        return failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
    }
}
