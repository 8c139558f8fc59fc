package io.appbackplane.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.appbackplane.Backplane;
import io.appbackplane.BackplaneComponent;
import io.appbackplane.BackplanePolicy;
import io.appbackplane.BackplaneRejectedException;
import io.appbackplane.ComponentSpec;
import io.appbackplane.ComponentState;
import io.appbackplane.ManualClock;
import io.appbackplane.spring.autoconfigure.BackplaneRegistry;
import io.appbackplane.spring.metrics.BackplaneMeters;
import io.appbackplane.spring.metrics.BackplaneMetrics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The meters the Grafana dashboard needs beside the original ones: component states, rejections by
 * reason and queue time by priority (a step-mode backplane, so the values are exact).
 */
class LiveViewMetersTest {

    private final ManualClock clock = new ManualClock();
    private final Backplane backplane = Backplane.builder("shop").policy(BackplanePolicy.builder().priorities(3).build())
            .clock(clock).stepMode().build();
    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();

    @AfterEach
    void close() {
        backplane.close();
    }

    @Test
    void componentStateIsOneForTheCurrentStateAndZeroForTheOthers() {
        backplane.install(ComponentSpec.named("orders"));
        new BackplaneMetrics(BackplaneRegistry.of(backplane)).bindTo(meters);
        assertThat(state("orders", ComponentState.START)).isEqualTo(1.0);

        backplane.moveTo(ComponentState.PRIMARY);
        backplane.stepper().runUntilIdle();
        // A fresh binding: its statistics cache has not read the backplane yet (the first one's may be 100 ms old).
        meters.clear();
        new BackplaneMetrics(BackplaneRegistry.of(backplane)).bindTo(meters);

        assertThat(state("orders", ComponentState.PRIMARY)).isEqualTo(1.0);
        assertThat(state("orders", ComponentState.START)).isZero();
        assertThat(meters.find(BackplaneMeters.COMPONENT_STATE).tag("component", "orders").gauges())
                .hasSize(ComponentState.values().length);
    }

    @Test
    void rejectionsAreCountedByReason_andQueueTimeByPriority() {
        BackplaneComponent orders = backplane.install(ComponentSpec.named("orders").withOperationLimit(1));
        new BackplaneMetrics(BackplaneRegistry.of(backplane)).bindTo(meters);
        orders.submit("a", 2, ctx -> "a");
        assertThatThrownBy(() -> orders.submit("b", 2, ctx -> "b")).isInstanceOf(BackplaneRejectedException.class);
        clock.advance(Duration.ofMillis(30));
        backplane.stepper().runUntilIdle(); // "a" waited 30 ms at priority 2; no meter was read before this point

        assertThat(meters.get(BackplaneMeters.REJECTIONS).tag("reason", "COMPONENT_LIMIT").functionCounter().count()).isEqualTo(1.0);
        assertThat(meters.get(BackplaneMeters.REJECTIONS).tag("reason", "STATE").functionCounter().count()).isZero();
        assertThat(meters.find(BackplaneMeters.REJECTIONS).functionCounters()).hasSize(BackplaneRejectedException.Reason.values().length);
        assertThat(meters.get(BackplaneMeters.PRIORITY_QUEUE).tag("priority", "2").functionTimer().count()).isEqualTo(1.0);
        assertThat(meters.get(BackplaneMeters.PRIORITY_QUEUE).tag("priority", "2").functionTimer().totalTime(TimeUnit.MILLISECONDS))
                .isEqualTo(30.0);
        assertThat(meters.get(BackplaneMeters.PRIORITY_QUEUE).tag("priority", "0").functionTimer().count()).isZero();
    }

    private double state(String component, ComponentState state) {
        return meters.get(BackplaneMeters.COMPONENT_STATE).tag("component", component).tag("state", state.name()).gauge().value();
    }
}
