package io.appbackplane.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.appbackplane.spring.annotation.AppComponent;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Import;

/**
 * A component at its operation limit pauses only the partitions feeding it, for longer than {@code
 * max.poll.interval.ms}, without its consumer leaving the group; another topic keeps flowing; the
 * partitions resume below the low-water mark and every held-back record runs.
 */
class KafkaBackPressureTest {

    static final CompletableFuture<Void> GATE = new CompletableFuture<>();
    static final AtomicInteger SLOW_STARTED = new AtomicInteger();
    static final AtomicInteger SLOW_DONE = new AtomicInteger();
    static final AtomicInteger FAST_DONE = new AtomicInteger();
    static final int MAX_POLL_INTERVAL_MS = 3_000;

    @AppComponent("slow")
    static class Slow {
        @KafkaEndpoint(topics = "slow")
        CompletableFuture<Void> onRecord(ConsumerRecord<String, String> record) {
            SLOW_STARTED.incrementAndGet();
            return GATE.thenRun(SLOW_DONE::incrementAndGet); // waits without holding a thread
        }
    }

    @AppComponent("fast")
    static class Fast {
        @KafkaEndpoint(topics = "fast")
        void onRecord(ConsumerRecord<String, String> record) {
            FAST_DONE.incrementAndGet();
        }
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import({Slow.class, Fast.class})
    static class App {}

    @Test
    void aFullComponentPausesOnlyItsPartitionsLongerThanMaxPollIntervalWithoutLeavingTheGroup() throws Exception {
        TestBroker.createTopics(3, "slow", "fast");
        try (Node node = Node.start("bp", App.class, "backplane.kafka.group-id=back-pressure",
                "backplane.components.slow.operation-limit=20",
                "spring.kafka.consumer.properties.max.poll.interval.ms=" + MAX_POLL_INTERVAL_MS)) {
            RecordDispatcher slow = node.dispatcher("slow", "onRecord");
            RecordDispatcher fast = node.dispatcher("fast", "onRecord");
            KafkaHandOverTest.send("slow", 300, 300);
            await().atMost(TestBroker.patience()).until(() -> slow.throttle().isPaused());
            KafkaHandOverTest.send("fast", 500, 50);
            await().atMost(TestBroker.patience()).until(() -> FAST_DONE.get() == 500);
            // held paused for more than max.poll.interval.ms (measured by the throttle, not slept)
            await().atMost(TestBroker.patience()).pollInterval(Duration.ofMillis(100))
                    .until(() -> slow.throttle().pausedNanos() > MAX_POLL_INTERVAL_MS * 1_500_000L);
            double pausedSeconds = slow.throttle().pausedNanos() / 1e9;
            int startedWhilePaused = SLOW_STARTED.get();
            int outstanding = node.context.getBean(io.appbackplane.spring.autoconfigure.BackplaneRegistry.class)
                    .get("default").component("slow").orElseThrow().outstanding();
            assertThat(slow.throttle().isPaused()).isTrue();
            assertThat(slow.handovers.get()).isZero(); // never revoked: still in the group
            assertThat(fast.throttle().pauses()).isZero(); // the other topic was never paused
            assertThat(startedWhilePaused).isLessThanOrEqualTo(20);
            assertThat(outstanding).isLessThanOrEqualTo(20);

            GATE.complete(null);
            await().atMost(TestBroker.patience()).until(() -> SLOW_DONE.get() >= 300);
            await().atMost(TestBroker.patience()).until(() -> !slow.throttle().isPaused());
            System.out.printf("[back-pressure] operation limit 20, max.poll.interval.ms %d: slow paused %.1f s at the check"
                    + " (%.1f s in all, %d pauses), %d started while paused, fast topic %d/500 done meanwhile, never paused;"
                    + " hand-overs (rebalances) slow %d, fast %d; slow records done after resuming %d/300%n",
                    MAX_POLL_INTERVAL_MS, pausedSeconds, slow.throttle().pausedNanos() / 1e9, slow.throttle().pauses(),
                    startedWhilePaused, FAST_DONE.get(), slow.handovers.get(), fast.handovers.get(), SLOW_DONE.get());
            assertThat(SLOW_DONE.get()).isEqualTo(300); // no record ran twice
            assertThat(slow.handovers.get()).isZero();
            assertThat(fast.handovers.get()).isZero();
            await().atMost(TestBroker.patience()).until(() ->
                    TestBroker.committed("back-pressure").values().stream().mapToLong(Long::longValue).sum() == 800);
        }
    }
}
