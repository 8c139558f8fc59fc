package io.appbackplane.spring.liveview;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.appbackplane.Backplane;
import io.appbackplane.BackplaneComponent;
import io.appbackplane.BackplaneListener;
import io.appbackplane.BackplanePolicy;
import io.appbackplane.BackplaneRejectedException;
import io.appbackplane.ComponentSpec;
import io.appbackplane.ComponentState;
import io.appbackplane.CpuLimit;
import io.appbackplane.ManualClock;
import io.appbackplane.spring.autoconfigure.BackplaneRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** What the sampler makes of two snapshots a second apart, in step mode with a manual clock. */
class LiveViewSamplerTest {

    private final ManualClock clock = new ManualClock();
    private final AtomicLong nanos = new AtomicLong();
    private final SlowActionLog slowActions = new SlowActionLog(Clock.fixed(Instant.ofEpochSecond(1_000), ZoneOffset.UTC));
    private Backplane backplane;

    @AfterEach
    void close() {
        backplane.close();
    }

    private LiveViewSampler sampler(Duration history) {
        backplane = Backplane.builder("shop")
                .policy(BackplanePolicy.builder().priorities(3).cpuLimit(CpuLimit.parse("2"))
                        .slowActionThreshold(Duration.ofMillis(50)).build())
                .clock(clock)
                .stepMode()
                .listener(slowActions)
                .build();
        return new LiveViewSampler(BackplaneRegistry.of(backplane), slowActions, history,
                Clock.fixed(Instant.ofEpochSecond(1_000), ZoneOffset.UTC), nanos::get);
    }

    @Test
    void aFrameGivesRatesPerSecondQueueWaitPercentilesPerPriorityRejectionsByReasonAndTheComponents() {
        LiveViewSampler sampler = sampler(Duration.ofMinutes(5));
        backplane.install(ComponentSpec.named("stock"));
        BackplaneComponent orders = backplane.install(ComponentSpec.named("orders").withOperationLimit(5).dependsOn("stock"));
        backplane.moveTo(ComponentState.PRIMARY);
        backplane.stepper().runUntilIdle();
        sampler.sample(); // the first snapshot: no frame yet
        assertThat(sampler.view(null, true).backplanes().get(0).frames()).isEmpty();

        for (int i = 0; i < 4; i++) {
            orders.submit("o" + i, 1, ctx -> "done");
        }
        clock.advance(Duration.ofMillis(8));
        orders.submit("slow", 0, ctx -> {
            clock.advance(Duration.ofMillis(60));
            return "slow";
        });
        assertThatThrownBy(() -> orders.submit("o5", 1, ctx -> "never")).isInstanceOf(BackplaneRejectedException.class);
        assertThatThrownBy(() -> orders.submit("o6", 1, ctx -> "never")).isInstanceOf(BackplaneRejectedException.class);
        backplane.stepper().runUntilIdle(); // priority 0 first (waited 0 ms), then the four at priority 1 (waited 68 ms)
        nanos.addAndGet(2_000_000_000L); // two seconds later
        sampler.sample();

        LiveViewData.BackplaneView view = sampler.view(null, true).backplanes().get(0);
        assertThat(view.name()).isEqualTo("shop");
        assertThat(view.state()).isEqualTo("PRIMARY");
        assertThat(view.priorities()).isEqualTo(3);
        assertThat(view.components()).extracting(LiveViewData.ComponentView::name).containsExactly("shop", "stock", "orders");
        assertThat(view.components().get(2).dependencies()).containsExactly("stock");
        assertThat(view.components()).allSatisfy(c -> assertThat(c.state()).isEqualTo("PRIMARY"));
        assertThat(view.frames()).hasSize(1);
        LiveViewFrame frame = view.frames().get(0);
        assertThat(frame.t()).isEqualTo(1_000_000L);
        assertThat(frame.actionsPerSecond()).containsEntry("orders", 2.5); // 5 actions in 2 s
        assertThat(frame.rejectionsPerSecond()).containsEntry("COMPONENT_LIMIT", 1.0).containsEntry("STATE", 0.0);
        assertThat(frame.queueWaitP50Ms().get(1)).isBetween(68.0, 68.0 * 1.25);
        assertThat(frame.queueWaitP99Ms().get(1)).isBetween(68.0, 68.0 * 1.25);
        assertThat(frame.queueWaitP50Ms().get(0)).isLessThan(0.01); // ran at once
        assertThat(frame.queueWaitP50Ms().get(2)).isNull(); // nothing ran at priority 2
        assertThat(frame.cpuLimitCores()).isEqualTo(2.0);
        assertThat(frame.readyDepth()).containsExactly(0, 0, 0);
        assertThat(view.slowActions()).singleElement().satisfies(slow -> {
            assertThat(slow.component()).isEqualTo("orders");
            assertThat(slow.object()).isEqualTo("slow");
            assertThat(slow.runMs()).isEqualTo(60.0);
            assertThat(slow.thresholdMs()).isEqualTo(50.0);
        });
    }

    @Test
    void keepsOnlyTheHistory_andAnswersOnlyFramesAfterSince() {
        LiveViewSampler sampler = sampler(Duration.ofSeconds(10));
        for (int i = 0; i < 15; i++) {
            nanos.addAndGet(1_000_000_000L);
            sampler.sample();
        }
        assertThat(sampler.view(null, true).backplanes().get(0).frames()).hasSize(10);
        assertThat(sampler.view(1_000_000L, true).backplanes().get(0).frames()).isEmpty(); // the fixed clock: all frames at t = 1 000 000
        assertThat(sampler.view(999_999L, true).backplanes().get(0).frames()).hasSize(10);
        assertThat(sampler.view(null, true).instance()).isEqualTo(sampler.view(null, true).instance());
    }

    @Test
    void slowActionLog_keepsTheMostRecentOnesOnly_andListsTheSlowestFirst() {
        sampler(Duration.ofMinutes(1));
        for (int i = 0; i < SlowActionLog.CAPACITY + 10; i++) {
            slowActions.onSlowAction(new BackplaneListener.SlowAction("shop", "c", "k" + i, 1, Duration.ofMillis(i), Duration.ofMillis(1)));
        }
        assertThat(slowActions.slowest("shop", 0, 3)).extracting(e -> e.action().objectKey())
                .containsExactly("k" + (SlowActionLog.CAPACITY + 9), "k" + (SlowActionLog.CAPACITY + 8), "k" + (SlowActionLog.CAPACITY + 7));
        assertThat(slowActions.slowest("shop", 0, 1000)).hasSizeLessThanOrEqualTo(SlowActionLog.CAPACITY)
                .noneMatch(e -> e.action().objectKey().equals("k0"));
        assertThat(slowActions.slowest("other", 0, 10)).isEmpty();
    }
}
