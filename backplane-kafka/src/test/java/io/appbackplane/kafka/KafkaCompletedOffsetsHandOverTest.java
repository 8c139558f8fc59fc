package io.appbackplane.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.appbackplane.spring.annotation.AppComponent;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Import;
import org.springframework.kafka.core.KafkaTemplate;

/**
 * Completed offsets beyond the first gap travel in the commit metadata: a slow record at offset 0
 * holds the committed offset back while the 1,000 records after it (other keys) complete; the node
 * closes (its hand-over commits offset 0 with the 1,000 completed offsets in the metadata); the next
 * owner runs the slow record again and none of the 1,000.
 */
class KafkaCompletedOffsetsHandOverTest {

    static final int LATER = 1_000;
    static final Map<Long, AtomicInteger> RUNS = new ConcurrentHashMap<>();
    static final List<CompletableFuture<Void>> HELD = new CopyOnWriteArrayList<>();

    @AppComponent("completed")
    static class Completed {
        private final String node;

        Completed(@Value("${node.name}") String node) {
            this.node = node;
        }

        @KafkaEndpoint(topics = "completed-offsets")
        CompletableFuture<Void> onRecord(ConsumerRecord<String, String> record) {
            RUNS.computeIfAbsent(record.offset(), o -> new AtomicInteger()).incrementAndGet();
            if (record.key().equals("slow") && node.equals("first")) {
                CompletableFuture<Void> held = new CompletableFuture<>(); // still running when the first node hands over
                HELD.add(held);
                return held;
            }
            return CompletableFuture.completedFuture(null);
        }
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(Completed.class)
    static class App {}

    @Test
    void theNextOwnerRunsOnlyTheRecordThatHadNotCompleted() throws Exception {
        TestBroker.createTopics(1, "completed-offsets", "completed-offsets-dlt");
        KafkaTemplate<byte[], byte[]> producer = TestBroker.bytesTemplate();
        List<CompletableFuture<?>> sent = new ArrayList<>();
        for (int i = 0; i <= LATER; i++) {
            String key = i == 0 ? "slow" : "k" + (i % 50);
            sent.add(producer.send("completed-offsets", key.getBytes(StandardCharsets.UTF_8),
                    Integer.toString(i).getBytes(StandardCharsets.UTF_8)));
        }
        producer.flush();
        CompletableFuture.allOf(sent.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);

        String group = "completed-offsets";
        TopicPartition tp = new TopicPartition("completed-offsets", 0);
        String[] props = {"backplane.kafka.group-id=" + group, "backplane.kafka.revoke-timeout=500ms",
                "spring.lifecycle.timeout-per-shutdown-phase=2s"};
        Node first = Node.start("first", App.class, props);
        try {
            await().atMost(TestBroker.patience()).until(() -> RUNS.size() == LATER + 1);
        } finally {
            first.close(); // hands the partition over with offset 0 still running
        }
        OffsetAndMetadata handedOver = committed(group, tp);
        System.out.printf("[completed-offsets] handed over at %s%n", handedOver);
        assertThat(RUNS.values()).allMatch(runs -> runs.get() == 1);

        try (Node second = Node.start("second", App.class, props)) {
            await().atMost(TestBroker.patience()).until(() -> RUNS.get(0L).get() == 2);
            await().atMost(TestBroker.patience()).until(() -> TestBroker.committed(group).getOrDefault(tp, 0L) == LATER + 1);
            Map<?, ?> view = (Map<?, ?>) second.registrar().describe().get("completed.onRecord");
            System.out.printf("[completed-offsets] after the hand-over: offset 0 ran %d times, offsets 1..%d ran %d times in all;"
                    + " the second node skipped %s as already completed; committed %d%n", RUNS.get(0L).get(), LATER,
                    RUNS.entrySet().stream().filter(e -> e.getKey() > 0).mapToInt(e -> e.getValue().get()).sum(),
                    view.get("alreadyCompleted"), TestBroker.committed(group).get(tp));
            assertThat(RUNS.entrySet()).filteredOn(e -> e.getKey() > 0).allMatch(e -> e.getValue().get() == 1);
            assertThat(view.get("alreadyCompleted")).isEqualTo((long) LATER);
            assertThat(handedOver.offset()).isZero();
            assertThat(handedOver.metadata()).startsWith("bp1:"); // the completed offsets (CompletedOffsetsTest reads the format)
        } finally {
            HELD.forEach(f -> f.complete(null)); // late completions of the first node change nothing
        }
    }

    private static OffsetAndMetadata committed(String group, TopicPartition tp) throws Exception {
        try (Admin admin = TestBroker.admin()) {
            return admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get(10, TimeUnit.SECONDS).get(tp);
        }
    }
}
