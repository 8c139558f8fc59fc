package io.appbackplane.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.appbackplane.spring.annotation.AppComponent;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Import;

/**
 * Partitions reported lost (not revoked: the consumer was dropped from the group, as when a node
 * closes during a cooperative rebalance) while records are queued in the backplane: the queued
 * records must not start on the old owner, since the new owner runs them again; only records
 * already running may overlap, and nothing of the lost assignment is committed. The loss is
 * triggered through the container's rebalance listener (Kafka's own trigger is a timing race).
 */
class KafkaLostPartitionsTest {

    /** The first record of each key waits on a gate the test opens; the key's later records queue behind it. */
    static final List<CompletableFuture<Void>> GATES = new CopyOnWriteArrayList<>();
    static final Map<String, AtomicInteger> RAN = new ConcurrentHashMap<>(); // "node/key#seq" -> runs

    @AppComponent("gated")
    static class Gated {
        private final String node;

        Gated(@Value("${node.name}") String node) {
            this.node = node;
        }

        @KafkaEndpoint(topics = "lost")
        CompletableFuture<Void> onRecord(ConsumerRecord<String, String> record) {
            RAN.computeIfAbsent(node + "/" + record.key() + "#" + record.value(), k -> new AtomicInteger()).incrementAndGet();
            if (node.equals("a") && record.value().equals("0")) {
                CompletableFuture<Void> gate = new CompletableFuture<>();
                GATES.add(gate);
                return gate;
            }
            return CompletableFuture.completedFuture(null);
        }
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(Gated.class)
    static class GatedApp {}

    @Test
    void recordsQueuedWhenPartitionsAreLostDoNotRunOnTheOldOwner() throws Exception {
        int keys = 20;
        int perKey = 10;
        int records = keys * perKey;
        String group = "lost-group";
        TestBroker.createTopics(6, "lost", "lost-dlt");
        String[] props = {"backplane.kafka.group-id=" + group};
        RecordDispatcher dispatcher;
        try (Node a = Node.start("a", GatedApp.class, props)) {
            KafkaHandOverTest.send("lost", records, keys);
            dispatcher = a.dispatcher("gated", "onRecord");
            RecordDispatcher d = dispatcher;
            // every record received; the first of each key running (waiting on its gate), the rest queued behind it
            await().atMost(TestBroker.patience()).until(() -> GATES.size() == keys && d.feeds().values().stream()
                    .mapToInt(f -> f.progress.snapshot().inFlight()).sum() == records);
            Set<TopicPartition> owned = Set.copyOf(d.feeds().keySet());

            d.onPartitionsLost(null, owned);
            GATES.forEach(gate -> gate.complete(null)); // the running records finish after the loss

            await().atMost(TestBroker.patience()).until(() -> d.throttle().component().outstanding() == 0);
            long ranOnA = RAN.keySet().stream().filter(k -> k.startsWith("a/")).count();
            System.out.printf("[lost] %d records in flight on %d lost partitions: %d were running (may overlap), %d cancelled;"
                    + " ran on the old owner: %d%n", d.abandonedAtRevoke.get(), owned.size(), d.runningAtLoss.get(),
                    d.cancelledAfterMove.get(), ranOnA);
            assertThat(ranOnA).as("records that ran on the old owner: only those running at the loss").isEqualTo(keys);
            assertThat(d.runningAtLoss.get()).isEqualTo(keys);
            assertThat(d.abandonedAtRevoke.get()).isEqualTo(records);
            assertThat(d.cancelledAfterMove.get()).isEqualTo(records - keys);
            MeterRegistry meters = a.bean(MeterRegistry.class);
            assertThat(meters.get(BackplaneKafkaMeters.RUNNING_WHEN_LOST).tag("endpoint", "onRecord").functionCounter().count())
                    .isEqualTo(keys);
            assertThat(meters.get(BackplaneKafkaMeters.CANCELLED_AFTER_HANDOVER).tag("endpoint", "onRecord").functionCounter()
                    .count()).isEqualTo(records - keys);
            assertThat(meters.get(BackplaneKafkaMeters.RECORDS).tag("outcome", "redelivered").functionCounter().count())
                    .isEqualTo(records);
            assertThat(d.deadLettered.get()).isZero(); // a moved partition is not a failure of its records
            assertThat(TestBroker.committed(group).values()).allMatch(offset -> offset == 0);
        }
        try (Node b = Node.start("b", GatedApp.class, props)) {
            await().atMost(TestBroker.patience()).until(() ->
                    TestBroker.committed(group).values().stream().mapToLong(Long::longValue).sum() == records);
            assertThat(RAN.keySet().stream().filter(k -> k.startsWith("b/")).count()).isEqualTo(records);
            assertThat(RAN.values()).allMatch(runs -> runs.get() == 1); // once per node: never twice on one
            assertThat(b.dispatcher("gated", "onRecord").completed.get()).isEqualTo(records);
        }
    }
}
