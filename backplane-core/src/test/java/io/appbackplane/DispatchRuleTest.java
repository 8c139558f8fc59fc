package io.appbackplane;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Rule 10 (dispatch in the caller's thread, digester objects) and rule 12's pool lifecycle (how a pool serves its requests: {@link PoolBacklogTest}). */
class DispatchRuleTest {

    private final ManualClock clock = new ManualClock();
    private final Backplane backplane = Backplane.builder("dispatch")
            .policy(BackplanePolicy.builder().priorities(4).build())
            .clock(clock)
            .stepMode()
            .build();
    private final BackplaneComponent app = backplane.install(ComponentSpec.named("app"));
    private final List<String> ran = new ArrayList<>();

    @AfterEach
    void close() {
        backplane.close();
    }

    @Test
    void rule10_submitQueuesInTheCallersThreadAndReturnsBeforeTheActionRuns() {
        CompletableFuture<String> result = app.submit("k", 1, ctx -> "done");
        assertThat(result).isNotDone();
        assertThat(backplane.statistics().readyObjects()).isEqualTo(1); // already in a ready queue
        backplane.stepper().runUntilIdle();
        assertThat(result).isCompletedWithValue("done");
    }

    @Test
    void rule10_digesterDecidesObjectAndPriorityInsideTheBackplane() {
        Digester<String, String> byUrgency = (ctx, message) -> {
            ran.add("digest " + message);
            String[] parts = message.split(":");
            int priority = parts[0].equals("urgent") ? 0 : 3;
            return Digester.Dispatch.to(parts[1], priority, work -> {
                ran.add(message);
                return "handled " + message + " on " + work.objectKey() + " at " + work.priority();
            });
        };
        CompletableFuture<String> bulk = app.digest("bulk:b", byUrgency);
        CompletableFuture<String> urgent = app.digest("urgent:u", byUrgency);

        Stepper.Step first = backplane.stepper().runNext();
        assertThat(first.objectKey()).isSameAs(BackplaneComponent.DIGESTER_KEY);
        assertThat(first.priority()).isEqualTo(BackplaneComponent.DIGESTER_PRIORITY);
        backplane.stepper().runUntilIdle();

        // The digester ran first for both; the urgent request then overtook the earlier bulk one.
        assertThat(ran).containsExactly("digest bulk:b", "digest urgent:u", "urgent:u", "bulk:b");
        assertThat(urgent).isCompletedWithValue("handled urgent:u on u at 0");
        assertThat(bulk).isCompletedWithValue("handled bulk:b on b at 3");
    }

    @Test
    void rule10_aFailingDigesterFailsTheCallersFuture() {
        CompletableFuture<String> result = app.digest("x", (ctx, message) -> {
            throw new IllegalArgumentException("cannot route " + message);
        });
        backplane.stepper().runUntilIdle();
        assertThat(result).isCompletedExceptionally();
        assertThatThrownBy(result::join).hasRootCauseMessage("cannot route x");
    }

    @Test
    void rule12_samePoolNameReturnsTheSamePoolAndReleaseUnpinsIt() {
        ObjectPool pool = app.pool("p", 2);
        assertThat(app.pool("p", 2)).isSameAs(pool);
        assertThatThrownBy(() -> app.pool("p", 3))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("has 2 objects, not 3");
        assertThatThrownBy(() -> app.pool("q", 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("allowed: 1..1024");

        pool.release();

        IdleObjectRetention.pass(clock);
        assertThat(app.objectCount()).isZero();
        assertThatThrownBy(() -> pool.submit(1, ctx -> null)).isInstanceOf(ObjectReleasedException.class);
        assertThat(app.pool("p", 3).size()).isEqualTo(3);
    }
}
