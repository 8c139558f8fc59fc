package io.appbackplane;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** {@link ActionObserver}: every action's component, priority, queue wait and run time, on the backplane's clock. */
class ActionObserverTest {

    record Seen(String component, int priority, long queueNanos, long runNanos) {}

    private final ManualClock clock = new ManualClock();
    private Backplane backplane;

    @AfterEach
    void close() {
        if (backplane != null) {
            backplane.close();
        }
    }

    @Test
    void everyObserverSeesEachActionsQueueWaitAndRunTime() {
        List<Seen> first = new CopyOnWriteArrayList<>();
        List<Seen> second = new CopyOnWriteArrayList<>();
        backplane = Backplane.builder("o").policy(BackplanePolicy.builder().priorities(3).build()).clock(clock).stepMode()
                .actionObserver((c, p, q, r) -> first.add(new Seen(c.name(), p, q, r)))
                .actionObserver((c, p, q, r) -> second.add(new Seen(c.name(), p, q, r)))
                .build();
        BackplaneComponent app = backplane.install(ComponentSpec.named("app"));
        CompletableFuture<String> a = app.submit("a", 2, ctx -> {
            clock.advance(Duration.ofMillis(7)); // the action "runs" 7 ms
            return "a";
        });
        clock.advance(Duration.ofMillis(5)); // queued 5 ms
        assertThat(backplane.stepper().runNext().ran()).isTrue();

        assertThat(a).isCompletedWithValue("a");
        Seen expected = new Seen("app", 2, Duration.ofMillis(5).toNanos(), Duration.ofMillis(7).toNanos());
        assertThat(first).containsExactly(expected);
        assertThat(second).containsExactly(expected);
    }

    @Test
    void aThrowingObserverNeitherFailsTheRequestNorStopsTheNextObserver() {
        List<Seen> seen = new CopyOnWriteArrayList<>();
        backplane = Backplane.builder("t").clock(clock).stepMode()
                .actionObserver((c, p, q, r) -> {
                    throw new IllegalStateException("observer defect");
                })
                .actionObserver((c, p, q, r) -> seen.add(new Seen(c.name(), p, q, r)))
                .build();
        BackplaneComponent app = backplane.install(ComponentSpec.named("app"));
        CompletableFuture<String> a = app.submit("a", 0, ctx -> "done");
        assertThat(backplane.stepper().runNext().ran()).isTrue();

        assertThat(a).isCompletedWithValue("done");
        assertThat(seen).extracting(Seen::component).containsExactly("app");
    }
}
