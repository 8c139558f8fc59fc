package io.appbackplane.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.appbackplane.Backplane;
import io.appbackplane.BackplaneComponent;
import io.appbackplane.BackplanePolicy;
import io.appbackplane.ComponentSpec;
import io.appbackplane.ReplyTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Replies racing their timeouts on real threads: two workers, the system
 * clock's timer thread firing 1 ms timeouts, and a replier thread completing each reply at
 * whatever moment it gets to it (before the wait is registered, during it, or after its timeout).
 * Every request's handler runs exactly once, with the reply or a {@link ReplyTimeoutException};
 * afterwards no timeout timer is left. Half the waits share one long-lived stage that never
 * completes, as many objects waiting on one "ready" signal would.
 */
class ReplyTimeoutRaceTest {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final Object NO_CALL = new Object();

    private DefaultBackplane backplane;

    @AfterEach
    void close() {
        if (backplane != null) {
            backplane.close();
        }
    }

    @Test
    void everyWaitEndsExactlyOnceAndLeavesNoTimer() throws Exception {
        race(20_000);
    }

    @Test
    @Tag("stress")
    void everyWaitEndsExactlyOnceUnderALongRace() throws Exception {
        race(500_000);
    }

    private void race(int waits) throws Exception {
        backplane = (DefaultBackplane) Backplane.builder("reply-race")
                .policy(BackplanePolicy.builder().threads(2).build())
                .build();
        BackplaneComponent app = backplane.install(ComponentSpec.named("app").withOperationLimit(2 * waits));
        int timersBefore = backplane.timers().pending(); // the real tick
        CompletableFuture<Object> longLived = new CompletableFuture<>(); // never completes
        AtomicIntegerArray calls = new AtomicIntegerArray(waits);
        AtomicReferenceArray<Object> seen = new AtomicReferenceArray<>(waits);
        BlockingQueue<CompletableFuture<Object>> toReply = new LinkedBlockingQueue<>();
        CompletableFuture<Object> stop = new CompletableFuture<>();
        Thread replier = new Thread(() -> {
            try {
                for (CompletableFuture<Object> reply; (reply = toReply.take()) != stop; ) {
                    reply.complete("pong");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "replier");
        replier.start();

        List<CompletableFuture<Object>> requests = new ArrayList<>(waits);
        for (int i = 0; i < waits; i++) {
            int id = i;
            seen.set(id, NO_CALL);
            CompletableFuture<Object> reply = new CompletableFuture<>();
            CompletableFuture<Object> stage = id % 2 == 0 ? reply : longLived;
            requests.add(app.submit("k" + id, 3, ctx -> ctx.awaitReply(stage, Duration.ofMillis(1), (c, value, failure) -> {
                calls.incrementAndGet(id);
                seen.set(id, failure != null ? failure : value);
                return null;
            })));
            if (stage == reply) {
                toReply.add(reply);
            }
        }
        toReply.add(stop);

        CompletableFuture.allOf(requests.toArray(CompletableFuture[]::new)).get(WAIT.toSeconds(), TimeUnit.SECONDS);
        replier.join(WAIT.toMillis());
        int replies = 0;
        for (int i = 0; i < waits; i++) {
            assertThat(calls.get(i)).as("handler calls of wait %d", i).isEqualTo(1);
            Object outcome = seen.get(i);
            if ("pong".equals(outcome)) {
                assertThat(i % 2).as("only the replied stages answer").isZero();
                replies++;
            } else {
                assertThat(outcome).as("outcome of wait %d", i).isInstanceOf(ReplyTimeoutException.class);
            }
        }
        assertThat(replies).as("some replies won their race").isPositive();
        await().atMost(WAIT).until(() -> backplane.timers().pending() <= timersBefore);
        backplane.checkInvariants();
    }
}
