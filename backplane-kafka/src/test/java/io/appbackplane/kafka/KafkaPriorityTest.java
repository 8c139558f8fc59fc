package io.appbackplane.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.appbackplane.spring.annotation.AppComponent;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Import;
import org.springframework.kafka.core.KafkaTemplate;

/**
 * Under a flood on a bulk topic (priority 7, thousands of records queued in the backplane), records
 * of an urgent topic (priority 0) start within a small bound: they overtake the queued bulk work
 * at the next action boundary. Measured from the send to the start of the urgent action.
 */
class KafkaPriorityTest {

    static final AtomicInteger BULK_DONE = new AtomicInteger();
    static final Map<Integer, Long> URGENT_STARTED = new ConcurrentHashMap<>();
    static final Map<Integer, Integer> BULK_DONE_AT_URGENT = new ConcurrentHashMap<>();

    @AppComponent("bulk")
    static class Bulk {
        @KafkaEndpoint(topics = "bulk", priority = 7)
        void onRecord(ConsumerRecord<String, String> record) {
            long until = System.nanoTime() + 200_000; // 200 us of CPU per bulk record
            while (System.nanoTime() < until) {
                Thread.onSpinWait();
            }
            BULK_DONE.incrementAndGet();
        }
    }

    @AppComponent("urgent")
    static class Urgent {
        @KafkaEndpoint(topics = "urgent", priority = 0)
        void onRecord(ConsumerRecord<String, String> record) {
            int id = Integer.parseInt(record.value());
            URGENT_STARTED.put(id, System.nanoTime());
            BULK_DONE_AT_URGENT.put(id, BULK_DONE.get());
        }
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import({Bulk.class, Urgent.class})
    static class App {}

    @Test
    void urgentRecordsStartWithinABoundUnderABulkFlood() throws Exception {
        int bulk = 15_000;
        int urgent = 20;
        TestBroker.createTopics(6, "bulk", "urgent");
        KafkaHandOverTest.send("bulk", bulk, 1_000);
        try (Node node = Node.start("prio", App.class, "backplane.kafka.group-id=priorities",
                "backplane.configs.default.threads=2", "backplane.kafka.revoke-timeout=1s")) {
            io.appbackplane.BackplaneComponent bulkComponent = node.context
                    .getBean(io.appbackplane.spring.autoconfigure.BackplaneRegistry.class).get("default")
                    .component("bulk").orElseThrow();
            await().atMost(TestBroker.patience()).until(() -> bulkComponent.outstanding() > 2_000);
            KafkaTemplate<byte[], byte[]> producer = TestBroker.bytesTemplate();
            long[] latencyMicros = new long[urgent];
            int[] bulkQueued = new int[urgent];
            for (int i = 0; i < urgent; i++) {
                int id = i;
                bulkQueued[i] = bulkComponent.outstanding();
                long sent = System.nanoTime();
                producer.send("urgent", ("u" + i).getBytes(StandardCharsets.UTF_8),
                        Integer.toString(i).getBytes(StandardCharsets.UTF_8));
                producer.flush();
                await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(1)).until(() -> URGENT_STARTED.containsKey(id));
                latencyMicros[i] = (URGENT_STARTED.get(id) - sent) / 1_000;
            }
            int bulkDoneAfterUrgent = BULK_DONE.get();
            long[] sorted = latencyMicros.clone();
            Arrays.sort(sorted);
            System.out.printf("[priorities] %d bulk records (200 us CPU each, priority 7, 2 workers); %d urgent records"
                    + " (priority 0) sent one by one while %d..%d bulk requests were queued: send-to-start median %.1f ms,"
                    + " max %.1f ms; bulk done when the urgent records had all started: %d of %d%n", bulk, urgent,
                    Arrays.stream(bulkQueued).min().orElse(0), Arrays.stream(bulkQueued).max().orElse(0),
                    sorted[urgent / 2] / 1e3, sorted[urgent - 1] / 1e3, bulkDoneAfterUrgent, bulk);
            // the bulk backlog was still there: the urgent records overtook it rather than waiting it out
            assertThat(bulkDoneAfterUrgent).isLessThan(bulk);
            assertThat(Arrays.stream(bulkQueued).min().orElse(0)).isGreaterThan(100);
            // generous bound for a loaded 2-core machine; the backlog ahead of them would take seconds
            assertThat(sorted[urgent - 1]).isLessThan(2_000_000);
        }
    }
}
