package io.appbackplane;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.appbackplane.BackplaneRejectedException.Reason;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Rule 17's per-priority queue-wait histograms and the rejections counted by reason. */
class QueueWaitAndRejectionStatisticsTest {

    private final ManualClock clock = new ManualClock();
    private Backplane backplane;

    @AfterEach
    void close() {
        if (backplane != null) {
            backplane.close();
        }
    }

    @Test
    void queueWait_isCountedPerPriorityInTheHistogramOfThePriorityTheActionRanAt() {
        backplane = Backplane.builder("q").policy(BackplanePolicy.builder().priorities(3).build()).clock(clock).stepMode().build();
        BackplaneComponent app = backplane.install(ComponentSpec.named("app"));
        CompletableFuture<String> a = app.submit("a", 1, ctx -> "a");
        CompletableFuture<String> b = app.submit("b", 1, ctx -> "b");
        clock.advance(Duration.ofMillis(5));
        assertThat(backplane.stepper().runNext().ran()).isTrue(); // waited 5 ms
        clock.advance(Duration.ofMillis(20));
        assertThat(backplane.stepper().runNext().ran()).isTrue(); // waited 25 ms
        assertThat(a).isCompleted();
        assertThat(b).isCompleted();

        PriorityStatistics p1 = backplane.statistics().priorities().get(1);
        assertThat(p1.queueWait().total()).isEqualTo(2);
        assertThat(p1.queueWait().percentile(0.5)).isBetween(Duration.ofMillis(5), Duration.ofNanos(6_250_000));
        assertThat(p1.queueWait().percentile(0.99)).isBetween(Duration.ofMillis(25), Duration.ofNanos(31_250_000));
        assertThat(backplane.statistics().priorities().get(0).queueWait().total()).isZero();
        assertThat(backplane.statistics().priorities().get(2).queueWait().total()).isZero();
    }

    @Test
    void rejectionsByReason_countEachReasonAndAddUpToTheTotalRejected() {
        backplane = Backplane.builder("r").policy(BackplanePolicy.builder().operationLimit(3).admissionReserve(0).build()).clock(clock).stepMode().build();
        BackplaneComponent small = backplane.install(ComponentSpec.named("small").withOperationLimit(1).withAdmissionReserve(0));
        BackplaneComponent big = backplane.install(ComponentSpec.named("big"));
        ActionEndpoint<String, String> primaryOnly = big.endpoint(EndpointSpec.named("primaryOnly", (ctx, q) -> q));

        small.submit("s", 1, ctx -> "s1");
        assertThatThrownBy(() -> small.submit("s", 1, ctx -> "s2")).isInstanceOfSatisfying(BackplaneRejectedException.class,
                e -> assertThat(e.reason()).isEqualTo(Reason.COMPONENT_LIMIT));
        assertThatThrownBy(() -> primaryOnly.call("not yet")).isInstanceOfSatisfying(BackplaneRejectedException.class,
                e -> assertThat(e.reason()).isEqualTo(Reason.STATE));
        big.submit("b", 1, ctx -> "b1");
        big.submit("b", 1, ctx -> "b2");
        assertThatThrownBy(() -> big.submit("b", 1, ctx -> "b3")).isInstanceOfSatisfying(BackplaneRejectedException.class,
                e -> assertThat(e.reason()).isEqualTo(Reason.BACKPLANE_LIMIT));
        backplane.shutdown(Duration.ZERO);
        assertThatThrownBy(() -> big.submit("b", 1, ctx -> "b4")).isInstanceOfSatisfying(BackplaneRejectedException.class,
                e -> assertThat(e.reason()).isEqualTo(Reason.CLOSED));

        BackplaneStatistics stats = backplane.statistics();
        assertThat(stats.rejectionsByReason()).isEqualTo(Map.of(Reason.COMPONENT_LIMIT, 1L, Reason.BACKPLANE_LIMIT, 1L,
                Reason.CLOSED, 1L, Reason.STATE, 1L, Reason.OFFLOAD_LIMIT, 0L));
        assertThat(stats.rejectionsByReason().keySet()).containsExactly(Reason.values());
        // Admission rejections add up to the components' rejected requests (offload rejections are of calls, not requests).
        assertThat(stats.rejectionsByReason().entrySet().stream().filter(e -> e.getKey() != Reason.OFFLOAD_LIMIT)
                .mapToLong(Map.Entry::getValue).sum()).isEqualTo(stats.totals().rejected());
    }
}
