package io.appbackplane.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.appbackplane.spring.annotation.AppComponent;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Import;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.listener.MessageListenerContainer;

/**
 * A slow key cannot grow a partition's memory without bound: with {@code
 * backplane.kafka.max-uncommitted} = 50, a key whose record waits on a latch holds the committed
 * offset at 0 while the other keys' records complete behind it; the partition takes exactly 50
 * records (fetches of 500 notwithstanding), is paused, and stays so; once the latch opens, every
 * record runs exactly once (the records refused at the full window are read again, not run twice)
 * and the committed offset reaches the end.
 */
class KafkaPartitionWindowTest {

    static final int WINDOW = 50;
    static final int RECORDS = 1_000;
    static final CompletableFuture<Void> GATE = new CompletableFuture<>();
    static final Map<Long, AtomicInteger> RUNS = new ConcurrentHashMap<>();

    @AppComponent("window")
    static class Window {
        @KafkaEndpoint(topics = "window")
        CompletableFuture<Void> onRecord(ConsumerRecord<String, String> record) {
            RUNS.computeIfAbsent(record.offset(), o -> new AtomicInteger()).incrementAndGet();
            // the slow key waits for the gate without holding a thread; its later records queue behind it
            return record.key().equals("slow") ? GATE : CompletableFuture.completedFuture(null);
        }
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(Window.class)
    static class App {}

    @Test
    void aSlowKeyFillsThePartitionsWindowWhichPausesItUntilTheKeyCompletes() throws Exception {
        TestBroker.createTopics(1, "window", "window-dlt");
        KafkaTemplate<byte[], byte[]> producer = TestBroker.bytesTemplate();
        List<CompletableFuture<?>> sent = new ArrayList<>();
        for (int i = 0; i < RECORDS; i++) {
            String key = i % 100 == 0 ? "slow" : "k" + (i % 20);
            sent.add(producer.send("window", key.getBytes(StandardCharsets.UTF_8), Integer.toString(i).getBytes(StandardCharsets.UTF_8)));
        }
        producer.flush();
        CompletableFuture.allOf(sent.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);

        TopicPartition tp = new TopicPartition("window", 0);
        try (Node node = Node.start("window", App.class, "backplane.kafka.group-id=window",
                "backplane.kafka.max-uncommitted=" + WINDOW, "spring.kafka.consumer.max-poll-records=500")) {
            RecordDispatcher dispatcher = node.dispatcher("window", "onRecord");
            MessageListenerContainer container = node.registrar().registrations().get(0).container();
            await().atMost(TestBroker.patience()).until(() -> received(dispatcher, tp) > WINDOW
                    || received(dispatcher, tp) == WINDOW && container.isPartitionPaused(tp));
            // Nothing is committed while offset 0 waits, so every record received is uncommitted: the
            // count received is the window's size, and it only grows, so its value now is its maximum.
            assertThat(received(dispatcher, tp)).isEqualTo(WINDOW);
            assertThat(container.isPartitionPaused(tp)).isTrue();
            // it stays paused and takes nothing more while the consumer keeps polling
            await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(5))
                    .until(() -> received(dispatcher, tp) == WINDOW && container.isPartitionPaused(tp));
            assertThat(RUNS.keySet()).allMatch(offset -> offset < WINDOW);
            assertThat(TestBroker.committed("window").getOrDefault(tp, 0L)).isZero();
            assertThat(node.bean(MeterRegistry.class).get("backplane.kafka.uncommitted").tag("partition", "0").gauge().value())
                    .isEqualTo(WINDOW);
            @SuppressWarnings("unchecked")
            Map<String, Object> view = (Map<String, Object>) ((Map<String, Object>) ((Map<String, Object>) node.registrar()
                    .describe().get("window.onRecord")).get("partitions")).get("window-0");
            assertThat(view).containsEntry("uncommitted", WINDOW).containsEntry("windowFull", true);

            GATE.complete(null);
            await().atMost(TestBroker.patience()).until(() -> RUNS.size() == RECORDS);
            await().atMost(TestBroker.patience()).until(() -> TestBroker.committed("window").getOrDefault(tp, 0L) == RECORDS);
            assertThat(RUNS.values()).allMatch(runs -> runs.get() == 1);
            await().atMost(TestBroker.patience()).until(() -> !container.isPartitionPaused(tp));
            System.out.printf("[window] max-uncommitted %d, %d records: paused with %d received while offset 0 waited;"
                    + " window pauses %s; after the gate opened all ran once and %d were committed%n", WINDOW, RECORDS, WINDOW,
                    node.bean(MeterRegistry.class).get("backplane.kafka.window.pauses").functionCounter().count(),
                    TestBroker.committed("window").get(tp));
        }
    }

    private static long received(RecordDispatcher dispatcher, TopicPartition tp) {
        PartitionFeed feed = dispatcher.feeds().get(tp);
        return feed == null ? 0 : feed.progress.snapshot().received();
    }
}
