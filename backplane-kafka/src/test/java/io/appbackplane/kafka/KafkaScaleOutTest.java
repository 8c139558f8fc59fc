package io.appbackplane.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.appbackplane.spring.annotation.AppComponent;
import io.appbackplane.spring.annotation.ObjectKey;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Import;
import org.springframework.kafka.core.KafkaTemplate;

/**
 * Two nodes (two application contexts in this JVM) share a 6-partition topic: every record is
 * processed, per key in offset order (checked in the action), and every committed offset's record
 * had completed (checked against the group's committed offsets while the stream runs).
 */
class KafkaScaleOutTest {

    static final KeyLedger LEDGER = new KeyLedger();

    @AppComponent("orders")
    static class Orders {
        private final String node;

        Orders(@Value("${node.name}") String node) {
            this.node = node;
        }

        @KafkaEndpoint(topics = "${test.topic}", priority = 2)
        void onRecord(@ObjectKey String key, String value, ConsumerRecord<String, String> record) {
            LEDGER.begin(node, record);
            LEDGER.end(node, record);
        }
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(Orders.class)
    static class App {}

    @Test
    void twoNodesProcessEveryRecordPerKeyInOrderAndCommitOnlyCompletedRecords() throws Exception {
        int records = 100_000;
        int keys = 1_000;
        String topic = "scale-out";
        String group = "scale-out-group";
        TestBroker.createTopics(6, topic);
        String[] props = {"test.topic=" + topic, "backplane.kafka.group-id=" + group};
        long start = System.nanoTime();
        try (Node a = Node.start("a", App.class, props); Node b = Node.start("b", App.class, props)) {
            KafkaTemplate<byte[], byte[]> producer = TestBroker.bytesTemplate();
            List<CompletableFuture<?>> sent = new ArrayList<>();
            for (int i = 0; i < records; i++) {
                int key = i % keys;
                sent.add(producer.send(topic, ("k" + key).getBytes(StandardCharsets.UTF_8),
                        Long.toString(i / keys).getBytes(StandardCharsets.UTF_8)));
            }
            producer.flush();
            CompletableFuture.allOf(sent.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
            int[] checks = {0};
            await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(200)).until(() -> {
                LEDGER.checkCommitted(TestBroker.committed(group));
                checks[0]++;
                return LEDGER.processed.get() >= records;
            });
            await().atMost(TestBroker.patience()).until(() ->
                    TestBroker.committed(group).values().stream().mapToLong(Long::longValue).sum() == records);
            LEDGER.checkCommitted(TestBroker.committed(group));
            double seconds = (System.nanoTime() - start) / 1e9;
            System.out.printf("[scale-out] %d records over %d keys, 6 partitions, 2 nodes: processed %d (a %s, b %s),"
                    + " duplicates %d, committed-offset checks %d, %.1f s%n", records, keys, LEDGER.processed.get(),
                    LEDGER.byNode.get("a"), LEDGER.byNode.get("b"), LEDGER.duplicates.get(), checks[0], seconds);
            for (Node node : List.of(a, b)) {
                RecordDispatcher d = node.dispatcher("orders", "onRecord");
                System.out.printf("[scale-out] node %s: completed %d, hand-overs %d (max %.1f ms), redelivered %d%n", node.name,
                        d.completed.get(), d.handovers.get(), d.maxHandoverNanos.get() / 1e6, d.abandonedAtRevoke.get());
            }
            assertThat(LEDGER.violations()).isEmpty();
            assertThat(LEDGER.processed.get()).isEqualTo(records);
            assertThat(LEDGER.byNode.get("a").get()).isPositive();
            assertThat(LEDGER.byNode.get("b").get()).isPositive();
        }
    }
}
