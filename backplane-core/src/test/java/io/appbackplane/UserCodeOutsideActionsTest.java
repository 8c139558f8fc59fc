package io.appbackplane;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Rule 15 with real workers: user code that runs around an action rather than
 * in it (an object key's or a result's {@code toString()}, used in log and error messages) cannot
 * wedge its object in RUNNING, and a worker that dies of an error is replaced and counted.
 */
class UserCodeOutsideActionsTest {

    private static final AtomicInteger BACKPLANES = new AtomicInteger();
    private static final Duration WAIT = Duration.ofSeconds(20);

    private Backplane backplane;

    @AfterEach
    void close() {
        if (backplane != null) {
            backplane.close();
        }
    }

    private BackplaneComponent start(int threads) {
        BackplanePolicy policy = BackplanePolicy.builder().threads(threads).build();
        backplane = Backplane.builder("guarded-" + BACKPLANES.incrementAndGet()).policy(policy).build();
        return backplane.install(ComponentSpec.named("app"));
    }

    /** A key whose {@code toString()} throws what it is given; equal by name, so it names one object. */
    private record HostileKey(String name, RuntimeException runtime, Error error) {
        @Override
        public String toString() {
            if (error != null) {
                throw error;
            }
            throw runtime;
        }
    }

    /** A result whose {@code toString()} throws. */
    private static final class HostileResult {
        @Override
        public String toString() {
            throw new IllegalStateException("result toString fails");
        }
    }

    @Test
    void aKeyWhoseToStringThrows_inTheUnobservedFailureLog_doesNotWedgeItsObject() throws Exception {
        BackplaneComponent app = start(1);
        HostileKey key = new HostileKey("k", new IllegalStateException("key toString fails"), null);
        app.execute(key, 1, ctx -> {
            throw new IllegalArgumentException("the action fails; nobody awaits it, so it is logged with its key");
        });

        assertThat(app.submit(key, 1, ctx -> "next").get(WAIT.toSeconds(), SECONDS)).isEqualTo("next");
        await().atMost(WAIT).until(() -> backplane.isIdle());
    }

    @Test
    void aResultWhoseToStringThrows_inTheMisuseMessage_failsItsRequestAndDoesNotWedgeItsObject() throws Exception {
        BackplaneComponent app = start(1);
        CompletableFuture<Object> misused = app.submit("o", 1, ctx -> {
            ctx.awaitReply(new CompletableFuture<String>(), (c, value, failure) -> value);
            return new HostileResult(); // must return the awaitReply call's null
        });

        Assertions.assertThatThrownBy(() -> misused.get(WAIT.toSeconds(), SECONDS))
                .isInstanceOf(ExecutionException.class)
                .hasCauseInstanceOf(IllegalStateException.class)
                .hasMessageContaining("must return that call's value");
        assertThat(app.submit("o", 1, ctx -> "next").get(WAIT.toSeconds(), SECONDS)).isEqualTo("next");
    }

    @Test
    void aWorkerThatDiesOfAnError_isReplacedAndCounted_andItsObjectRunsOn() throws Exception {
        BackplaneComponent app = start(2);
        HostileKey key = new HostileKey("k", null, new OutOfMemoryError("simulated: thrown by a key's toString"));
        app.execute(key, 1, ctx -> {
            throw new IllegalArgumentException("the action fails; logging it with its key kills the worker");
        });

        assertThat(app.submit(key, 1, ctx -> "next").get(WAIT.toSeconds(), SECONDS)).isEqualTo("next");
        await().atMost(WAIT).untilAsserted(() -> {
            BackplaneStatistics stats = backplane.statistics();
            assertThat(stats.workersReplaced()).isEqualTo(1);
            assertThat(stats.threads()).isEqualTo(2);
        });
        assertThat(IdleWorkers.workers(backplane)).hasSize(2);
    }
}
