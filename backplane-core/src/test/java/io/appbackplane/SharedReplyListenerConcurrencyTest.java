package io.appbackplane;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.RepeatedTest;

/**
 * Issue 13, defect 8, on real workers: many objects wait on one stage with short timeouts while
 * others join its shared listener and the stage completes at a moment no thread controls. Every
 * request completes exactly once (its reply or its timeout, never both, never neither), and what
 * stays on the stage is bounded by the waits that registered before its first timeout.
 */
class SharedReplyListenerConcurrencyTest {

    private static final int BATCH = 100;
    private Backplane backplane;

    @AfterEach
    void close() {
        if (backplane != null) {
            backplane.close();
        }
    }

    @RepeatedTest(5)
    void waitsTimingOutAndJoiningWhileTheStageCompletes_eachGetExactlyOneOutcome() throws Exception {
        backplane = Backplane.builder("shared-replies").policy(BackplanePolicy.builder().threads(2).priorities(3).build()).build();
        BackplaneComponent app = backplane.install(ComponentSpec.named("app"));
        CompletableFuture<String> stage = new CompletableFuture<>();
        ConcurrentHashMap<Integer, AtomicInteger> outcomes = new ConcurrentHashMap<>();

        // Ten batches that all time out: the first registers on the stage, the rest join its shared listener.
        for (int batch = 0; batch < 10; batch++) {
            List<CompletableFuture<String>> timingOut = submitWaits(app, stage, batch * BATCH, Duration.ofMillis(1), outcomes);
            CompletableFuture.allOf(timingOut.toArray(CompletableFuture[]::new)).get(10, TimeUnit.SECONDS);
            assertThat(timingOut).allSatisfy(r -> assertThat(r).isCompletedWithValue("timed out"));
        }
        assertThat(stage.getNumberOfDependents()).isLessThanOrEqualTo(BATCH + 1);

        // Waits with timeouts around the moment the stage completes: each gets one of the two outcomes.
        List<CompletableFuture<String>> racing = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            racing.addAll(submitWaits(app, stage, (10 + i) * BATCH, Duration.ofMillis(1 + i), outcomes));
        }
        stage.complete("pong");
        CompletableFuture.allOf(racing.toArray(CompletableFuture[]::new)).get(10, TimeUnit.SECONDS);
        assertThat(racing).allSatisfy(r -> assertThat(r.get()).isIn("timed out", "got pong"));

        assertThat(outcomes).hasSize(15 * BATCH).allSatisfy((id, count) -> assertThat(count.get()).as("outcomes of wait %d", id).isOne());
        assertThat(stage.getNumberOfDependents()).isZero();
    }

    private static List<CompletableFuture<String>> submitWaits(BackplaneComponent app, CompletableFuture<String> stage, int firstId,
            Duration timeout, ConcurrentHashMap<Integer, AtomicInteger> outcomes) {
        List<CompletableFuture<String>> requests = new ArrayList<>();
        for (int id = firstId; id < firstId + BATCH; id++) {
            int wait = id;
            requests.add(app.submit("k" + (id % 37), 1, ctx -> ctx.awaitReply(stage, timeout, (c, reply, failure) -> {
                outcomes.computeIfAbsent(wait, w -> new AtomicInteger()).incrementAndGet();
                return failure instanceof ReplyTimeoutException ? "timed out" : "got " + reply;
            })));
        }
        return requests;
    }
}
