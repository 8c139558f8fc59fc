package io.appbackplane;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link ActionContext#offload}: a blocking call runs off the workers and comes back to its object
 * as a reply. Runs on every JDK the build targets: on 21+ the calls run on virtual threads, on 17
 * on platform threads.
 */
class OffloadTest {

    private static final long WAIT = 30;

    private Backplane backplane;

    @AfterEach
    void close() {
        if (backplane != null) {
            backplane.close();
        }
    }

    private BackplaneComponent start(BackplanePolicy.Builder policy) {
        backplane = Backplane.builder("offload").policy(policy.threads(1).build()).build();
        return backplane.install(ComponentSpec.named("app"));
    }

    @Test
    void aBlockingCallHoldsNoWorker_withOneWorkerAnotherKeyRunsWhileTheCallIsParked() throws Exception {
        BackplaneComponent app = start(BackplanePolicy.builder());
        CountDownLatch callStarted = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        CompletableFuture<String> blocked = app.submit("a", 1, ctx -> ctx.offload(() -> {
            callStarted.countDown();
            release.await(WAIT, TimeUnit.SECONDS); // the blocking call, parked on a latch
            return "row";
        }, (c, row, failure) -> "a got " + row));
        try {
            assertThat(callStarted.await(WAIT, TimeUnit.SECONDS)).isTrue();
            // the only worker is free: another key's action runs to completion while the call blocks
            assertThat(app.submit("b", 1, ctx -> "b ran").get(WAIT, TimeUnit.SECONDS)).isEqualTo("b ran");
            assertThat(blocked).isNotDone();
        } finally {
            release.countDown();
        }
        assertThat(blocked.get(WAIT, TimeUnit.SECONDS)).isEqualTo("a got row");
    }

    @Test
    void perKeyOrderHolds_aLaterRequestForTheKeyRunsAfterTheHandler() throws Exception {
        BackplaneComponent app = start(BackplanePolicy.builder());
        List<String> ran = new CopyOnWriteArrayList<>();
        CountDownLatch callStarted = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        CompletableFuture<Object> first = app.submit("k", 1, ctx -> {
            ran.add("first");
            return ctx.offload(() -> {
                callStarted.countDown();
                release.await(WAIT, TimeUnit.SECONDS);
                return "done";
            }, (c, value, failure) -> {
                ran.add("first's handler");
                return value;
            });
        });
        assertThat(callStarted.await(WAIT, TimeUnit.SECONDS)).isTrue();
        CompletableFuture<String> second = app.submit("k", 1, ctx -> {
            ran.add("second");
            return "second";
        });
        CompletableFuture<String> other = app.submit("other", 1, ctx -> "other");
        assertThat(other.get(WAIT, TimeUnit.SECONDS)).isEqualTo("other"); // the worker ran other work meanwhile
        assertThat(second).isNotDone();
        release.countDown();
        assertThat(second.get(WAIT, TimeUnit.SECONDS)).isEqualTo("second");
        assertThat(first.get(WAIT, TimeUnit.SECONDS)).isEqualTo("done");
        assertThat(ran).containsExactly("first", "first's handler", "second");
    }

    /** Stands in for a blocking client in the docs' example. */
    static final class Jdbc {
        String queryName(String customer) {
            return customer.equals("c-7") ? "Ada" : null;
        }
    }

    @Test
    void theDocumentedExample() throws Exception {
        BackplaneComponent customers = start(BackplanePolicy.builder());
        Jdbc jdbc = new Jdbc();
        // docs:getting-started:offload BEGIN
        CompletableFuture<String> name = customers.submit("c-7", 1, ctx -> ctx.offload(
                () -> jdbc.queryName("c-7"),                 // blocking: runs on an offload thread, no worker held
                (c, row, failure) -> failure == null ? row : "unknown: " + failure.getMessage()));
        // docs:getting-started:offload END
        assertThat(name.get(WAIT, TimeUnit.SECONDS)).isEqualTo("Ada");
    }

    @Test
    void theCallsFailureIsTheHandlersFailure() throws Exception {
        BackplaneComponent app = start(BackplanePolicy.builder());
        CompletableFuture<String> result = app.submit("a", 1, ctx -> ctx.offload(() -> {
            throw new java.io.IOException("connection refused");
        }, (c, value, failure) -> "handled " + failure.getMessage()));
        assertThat(result.get(WAIT, TimeUnit.SECONDS)).isEqualTo("handled connection refused");
    }

    @Test
    void whenThreadsAndQueueAreFull_theHandlerIsToldWithARejection_andTheCallNeverRuns() throws Exception {
        BackplaneComponent app = start(BackplanePolicy.builder().offloadThreads(1).offloadQueue(0));
        CountDownLatch callStarted = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        CompletableFuture<String> holding = app.submit("a", 1, ctx -> ctx.offload(() -> {
            callStarted.countDown();
            release.await(WAIT, TimeUnit.SECONDS);
            return "a";
        }, (c, value, failure) -> value));
        try {
            assertThat(callStarted.await(WAIT, TimeUnit.SECONDS)).isTrue();
            CountDownLatch secondRan = new CountDownLatch(1);
            CompletableFuture<String> rejected = app.submit("b", 1, ctx -> ctx.offload(() -> {
                secondRan.countDown();
                return "b";
            }, (c, value, failure) -> {
                if (failure != null) {
                    throw (Exception) failure;
                }
                return value;
            }));
            assertThatThrownBy(() -> rejected.get(WAIT, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                    .cause().isInstanceOf(RejectedExecutionException.class)
                    .hasMessageContaining("backplane 'offload' runs 1 blocking calls already and 0 more wait")
                    .hasMessageContaining("offload-threads and offload-queue")
                    .isInstanceOfSatisfying(BackplaneRejectedException.class, busy -> {
                        assertThat(busy.reason()).isEqualTo(BackplaneRejectedException.Reason.OFFLOAD_LIMIT);
                        assertThat(busy.isRetryable()).isTrue();
                        assertThat(busy.component()).isEqualTo("app");
                    });
            assertThat(secondRan.getCount()).as("the rejected call never ran").isEqualTo(1);
            assertThat(backplane.statistics().rejectionsByReason())
                    .containsEntry(BackplaneRejectedException.Reason.OFFLOAD_LIMIT, 1L);
        } finally {
            release.countDown();
        }
        assertThat(holding.get(WAIT, TimeUnit.SECONDS)).isEqualTo("a");
    }

    @Test
    void aTimeout_reachesTheHandlerAsReplyTimeoutException() throws Exception {
        BackplaneComponent app = start(BackplanePolicy.builder());
        CountDownLatch release = new CountDownLatch(1);
        try {
            CompletableFuture<String> result = app.submit("a", 1, ctx -> ctx.offload(() -> {
                release.await(WAIT, TimeUnit.SECONDS);
                return "late";
            }, Duration.ofMillis(50), (c, value, failure) -> failure.getClass().getSimpleName()));
            assertThat(result.get(WAIT, TimeUnit.SECONDS)).isEqualTo("ReplyTimeoutException");
        } finally {
            release.countDown();
        }
    }

    @Test
    void theCallRunsOnAVirtualThreadWhereTheJdkHasThem_andOnAPlatformThreadWhenThePolicySaysSo() throws Exception {
        BackplaneComponent app = start(BackplanePolicy.builder());
        boolean jdkHasVirtualThreads = Runtime.version().feature() >= 21;
        assertThat(app.submit("a", 1, ctx -> ctx.offload(OffloadTest::onVirtualThread, (c, v, f) -> v)).get(WAIT, TimeUnit.SECONDS))
                .isEqualTo(jdkHasVirtualThreads);
        backplane.close();

        app = start(BackplanePolicy.builder().offloadThreadKind(OffloadThreads.PLATFORM));
        assertThat(app.submit("a", 1, ctx -> ctx.offload(OffloadTest::onVirtualThread, (c, v, f) -> v)).get(WAIT, TimeUnit.SECONDS))
                .isFalse();
        if (!jdkHasVirtualThreads) {
            assertThatThrownBy(() -> BackplanePolicy.builder().offloadThreadKind(OffloadThreads.VIRTUAL))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("allowed: AUTO, PLATFORM");
        }
    }

    @Test
    void aShutdownDrainsOffloadedCalls_theirRequestsCompleteAndTheOffloadsStartedDuringTheDrainRunToo() throws Exception {
        BackplaneComponent app = start(BackplanePolicy.builder());
        CountDownLatch callStarted = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        CompletableFuture<String> inFlight = app.submit("a", 1, ctx -> ctx.offload(() -> {
            callStarted.countDown();
            release.await(WAIT, TimeUnit.SECONDS);
            return "a";
        }, (c, value, failure) -> value));
        assertThat(callStarted.await(WAIT, TimeUnit.SECONDS)).isTrue();
        // queued behind a's reply: it offloads only once the drain has begun
        CompletableFuture<String> queued = app.submit("a", 1, ctx -> ctx.offload(() -> "b", (c, value, failure) -> {
            if (failure != null) {
                throw (Exception) failure;
            }
            return value;
        }));
        CompletableFuture<Backplane.ShutdownReport> shutdown = backplane.shutdown(Duration.ofSeconds(WAIT));
        release.countDown();
        assertThat(inFlight.get(WAIT, TimeUnit.SECONDS)).isEqualTo("a");
        assertThat(queued.get(WAIT, TimeUnit.SECONDS)).isEqualTo("b");
        shutdown.get(WAIT, TimeUnit.SECONDS);
    }

    @Test
    void badPolicyValuesAreRejectedNamingTheSettingAndTheRange() {
        assertThatThrownBy(() -> BackplanePolicy.builder().offloadThreads(0)).hasMessageContaining("offload-threads = 0")
                .hasMessageContaining("allowed: 1..65536");
        assertThatThrownBy(() -> BackplanePolicy.builder().offloadQueue(-1)).hasMessageContaining("offload-queue = -1")
                .hasMessageContaining("allowed: 0..");
    }

    private static boolean onVirtualThread() throws Exception {
        if (Runtime.version().feature() < 21) {
            return false;
        }
        return (Boolean) Thread.class.getMethod("isVirtual").invoke(Thread.currentThread());
    }
}
