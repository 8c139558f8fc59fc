package io.appbackplane.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.appbackplane.spring.annotation.AppComponent;
import io.appbackplane.spring.annotation.ObjectKey;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Import;
import org.springframework.kafka.core.KafkaTemplate;

/**
 * No record can stall a partition: records whose values are an application type (dead-lettered as
 * their original bytes, whatever the producer's serializer), a key expression that throws from the
 * payload's own code, a dead-letter publish that fails every attempt, and unreadable records at the
 * end of a partition each end with the partition's committed offset at its end, and each
 * dead-lettered record is logged (rate-limited) with its coordinates and reason.
 */
class KafkaPoisonRecordTest {

    static final Set<String> DONE = ConcurrentHashMap.newKeySet();

    @AppComponent("poison")
    static class Poison {
        /** Values are Orders (OrderDeserializer); the producer's value serializer stays Boot's default (String). */
        @KafkaEndpoint(topics = {"poison-json", "poison-no-dlt", "poison-tail", "poison-idle"})
        void onOrder(ConsumerRecord<?, ?> record, Order order) {
            if (order.quantity() < 0) {
                throw new IllegalArgumentException("negative quantity " + order.quantity());
            }
            DONE.add(record.topic() + "@" + record.offset());
        }

        /**
         * As {@link #onOrder}, on an endpoint of its own: an endpoint's dead-letter log has its own
         * rate limit, which the other tests' dead-lettered records must not have used up.
         */
        @KafkaEndpoint(topics = "poison-many")
        void onManyOrders(ConsumerRecord<?, ?> record, Order order) {
            onOrder(record, order);
        }

        @KafkaEndpoint(topics = "poison-key", key = "payload.customerId()")
        void onKeyedOrder(@ObjectKey String customer, ConsumerRecord<?, ?> record) {
            DONE.add(record.topic() + "@" + record.offset());
        }
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(Poison.class)
    static class App {}

    static Node node;
    static ListAppender<ILoggingEvent> log = new ListAppender<>();

    @BeforeAll
    static void start() {
        TestBroker.createTopics(1, "poison-json", "poison-json-dlt", "poison-no-dlt", "poison-tail", "poison-tail-dlt",
                "poison-key", "poison-key-dlt", "poison-many", "poison-many-dlt", "poison-idle"); // no poison-no-dlt-dlt: its dead-letter publishes fail
        node = Node.start("poison", App.class, "backplane.kafka.group-id=poison",
                "spring.kafka.consumer.value-deserializer=" + Order.OrderDeserializer.class.getName(),
                "spring.kafka.producer.properties.max.block.ms=500",
                "backplane.kafka.dead-letter.attempts=2",
                "backplane.kafka.dead-letter.retry-delay=50ms");
        log.start(); // after the start: Boot's logging set-up would drop an appender attached before it
        ((Logger) LoggerFactory.getLogger(RecordDispatcher.class)).addAppender(log);
    }

    @AfterAll
    static void stop() {
        ((Logger) LoggerFactory.getLogger(RecordDispatcher.class)).detachAppender(log);
        if (node != null) {
            node.close();
        }
    }

    @Test
    void aFailedRecordWithAnApplicationTypeValueIsDeadLetteredAsItsOriginalBytesAndThePartitionCommitsToItsEnd() {
        KafkaTemplate<byte[], byte[]> producer = TestBroker.bytesTemplate();
        for (int i = 0; i < 10; i++) {
            producer.send("poison-json", bytes("c" + i), Order.bytes("c" + i, i == 4 ? -1 : i));
        }
        producer.flush();

        List<ConsumerRecord<byte[], byte[]>> dead = readAll("poison-json-dlt", 1);
        await().atMost(TestBroker.patience()).until(() -> committed("poison-json") == 10);
        assertThat(dead).singleElement().satisfies(r -> {
            assertThat(r.value()).isEqualTo(Order.bytes("c4", -1));
            assertThat(r.key()).isEqualTo(bytes("c4"));
            assertThat(header(r, "kafka_dlt-exception-message")).contains("negative quantity -1");
        });
        assertThat(DONE).filteredOn(d -> d.startsWith("poison-json@")).hasSize(9);
        await().atMost(TestBroker.patience()).untilAsserted(() -> assertThat(partitionView("poison-json-0"))
                .containsEntry("committedOffset", 10L).containsEntry("acknowledgedOffset", 10L));
    }

    @Test
    void theActuatorViewListsEveryAssignedPartitionBeforeAnyRecordArrives() {
        await().atMost(TestBroker.patience()).untilAsserted(() -> assertThat(partitionView("poison-idle-0"))
                .as("a partition assigned to the endpoint, with no record yet").isNotNull()
                .containsEntry("committedOffset", -1L).containsEntry("inFlight", 0));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> partitionView(String partition) {
        Map<String, Object> endpoint = (Map<String, Object>) node.registrar().describe().get("poison.onOrder");
        return (Map<String, Object>) ((Map<String, Object>) endpoint.get("partitions")).get(partition);
    }

    @Test
    void aDeadLetterPublishThatFailsEveryAttemptIsSkippedLoggedAndCountedAndThePartitionGoesOn() {
        KafkaTemplate<byte[], byte[]> producer = TestBroker.bytesTemplate();
        for (int i = 0; i < 5; i++) {
            producer.send("poison-no-dlt", bytes("n" + i), Order.bytes("n" + i, i == 1 ? -1 : i));
        }
        producer.flush();

        await().atMost(TestBroker.patience()).until(() -> committed("poison-no-dlt") == 5);
        assertThat(DONE).filteredOn(d -> d.startsWith("poison-no-dlt@")).hasSize(4);
        assertThat(messages()).anySatisfy(m -> assertThat(m).contains("poison-no-dlt-0@1",
                "could not be published to its dead-letter topic in 2 attempts", "skipping it", "negative quantity -1"));
    }

    @Test
    void unreadableRecordsAtTheEndOfAPartitionAreDeadLetteredAndCommitted() {
        KafkaTemplate<byte[], byte[]> producer = TestBroker.bytesTemplate();
        for (int i = 0; i < 5; i++) {
            producer.send("poison-tail", bytes("t" + i), Order.bytes("t" + i, i));
        }
        producer.send("poison-tail", bytes("t5"), "no colon".getBytes(StandardCharsets.UTF_8));
        producer.send("poison-tail", bytes("t6"), "nor here".getBytes(StandardCharsets.UTF_8));
        producer.flush();

        List<ConsumerRecord<byte[], byte[]>> dead = readAll("poison-tail-dlt", 2);
        assertThat(dead).extracting(ConsumerRecord::value)
                .containsExactly("no colon".getBytes(StandardCharsets.UTF_8), "nor here".getBytes(StandardCharsets.UTF_8));
        await().atMost(TestBroker.patience()).until(() -> committed("poison-tail") == 7);
    }

    @Test
    void aKeyExpressionThatThrowsFromThePayloadsOwnCodeDeadLettersTheRecordOnceAndLogsWhy() {
        KafkaTemplate<byte[], byte[]> producer = TestBroker.bytesTemplate();
        for (int i = 0; i < 10; i++) {
            producer.send("poison-key", null, Order.bytes(i == 1 ? "-" : "k" + i, i)); // record 1 has no customer
        }
        producer.flush();

        List<ConsumerRecord<byte[], byte[]>> dead = readAll("poison-key-dlt", 1);
        await().atMost(TestBroker.patience()).until(() -> committed("poison-key") == 10);
        assertThat(DONE).filteredOn(d -> d.startsWith("poison-key@")).hasSize(9);
        assertThat(dead).singleElement().satisfies(r -> {
            assertThat(r.value()).isEqualTo(Order.bytes("-", 1));
            assertThat(header(r, "kafka_dlt-exception-message")).contains("payload.customerId()", "NullPointerException");
        });
        assertThat(messages()).anySatisfy(m -> assertThat(m).contains("poison-key-0@1", "goes to the dead-letter topic",
                "payload.customerId()", "NullPointerException"));
    }

    @Test
    void manyDeadLetteredRecordsAreEachCountedAndLoggedWithTheirCoordinatesAtALimitedRate() {
        KafkaTemplate<byte[], byte[]> producer = TestBroker.bytesTemplate();
        for (int i = 0; i < 30; i++) {
            producer.send("poison-many", bytes("m" + i), Order.bytes("m" + i, -1));
        }
        producer.flush();

        assertThat(readAll("poison-many-dlt", 30)).hasSize(30);
        await().atMost(TestBroker.patience()).until(() -> committed("poison-many") == 30);
        List<String> lines = messages().stream().filter(m -> m.contains("record poison-many-0@")).toList();
        assertThat(lines).as("log lines for 30 dead-lettered records").isNotEmpty().hasSizeLessThan(30);
        assertThat(lines.get(0)).contains("goes to the dead-letter topic", "failed 3 times", "negative quantity -1");
    }

    private static List<String> messages() {
        return new ArrayList<>(log.list).stream().map(ILoggingEvent::getFormattedMessage).toList();
    }

    private static long committed(String topic) {
        return TestBroker.committed("poison").getOrDefault(new TopicPartition(topic, 0), -1L);
    }

    static List<ConsumerRecord<byte[], byte[]>> readAll(String topic, int expected) {
        List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, TestBroker.bootstrapServers(),
                ConsumerConfig.GROUP_ID_CONFIG, topic + "-reader", ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"),
                new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            consumer.subscribe(List.of(topic));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (records.size() < expected && System.nanoTime() < deadline) {
                consumer.poll(Duration.ofMillis(200)).forEach(records::add);
            }
        }
        return records;
    }

    static String header(ConsumerRecord<?, ?> record, String name) {
        Header header = record.headers().lastHeader(name);
        return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
