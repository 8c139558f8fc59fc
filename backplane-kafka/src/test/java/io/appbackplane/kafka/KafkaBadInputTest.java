package io.appbackplane.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.appbackplane.spring.annotation.AppComponent;
import io.appbackplane.spring.annotation.ObjectKey;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Import;
import org.springframework.kafka.core.KafkaTemplate;

/**
 * Bad input never stops the rest: a record whose key cannot be read, one whose payload does not
 * deserialize and one whose action keeps failing each go to the dead-letter topic with the reason
 * in its headers, in their place in the partition's order (the offsets after them commit); a topic
 * that does not exist is reported by name while the endpoint's other topic flows.
 */
class KafkaBadInputTest {

    static final List<Long> GOOD = new CopyOnWriteArrayList<>();

    // docs:scale-out:endpoint BEGIN
    @AppComponent("accounts")
    static class Accounts {
        @KafkaEndpoint(topics = {"bad-input", "no-such-topic"})
        void onRecord(@ObjectKey Long account, Integer amount) {
            if (amount < 0) {
                throw new IllegalArgumentException("negative amount " + amount + " for account " + account);
            }
            GOOD.add(account);
        }
    }
    // docs:scale-out:endpoint END

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(Accounts.class)
    static class App {}

    @Test
    void unreadableKeyUndeserializablePayloadAndFailingActionGoToTheDeadLetterTopicAndNothingElseStops() throws Exception {
        TestBroker.createTopics(1, "bad-input", "bad-input-dlt");
        try (Node node = Node.start("bad", App.class, "backplane.kafka.group-id=bad-input",
                "spring.kafka.consumer.key-deserializer=org.apache.kafka.common.serialization.LongDeserializer",
                "spring.kafka.consumer.value-deserializer=org.apache.kafka.common.serialization.IntegerDeserializer")) {
            KafkaTemplate<byte[], byte[]> producer = TestBroker.bytesTemplate();
            producer.send("bad-input", longBytes(1), intBytes(10));                                   // 0 good
            producer.send("bad-input", "abc".getBytes(StandardCharsets.UTF_8), intBytes(10));          // 1 key unreadable
            producer.send("bad-input", longBytes(2), new byte[] {1, 2});                              // 2 payload unreadable
            producer.send("bad-input", longBytes(3), intBytes(-5));                                   // 3 action fails
            for (long i = 4; i < 10; i++) {
                producer.send("bad-input", longBytes(i), intBytes(1));                                // 4..9 good
            }
            producer.flush();

            List<ConsumerRecord<byte[], byte[]>> dead = readDeadLetters(3);
            await().atMost(TestBroker.patience()).until(() -> GOOD.size() == 7);
            await().atMost(TestBroker.patience()).until(() -> TestBroker.committed("bad-input").values().stream()
                    .mapToLong(Long::longValue).sum() == 10);
            KafkaEndpointRegistrar.Registration registration = node.registrar().registrations().get(0);
            System.out.printf("[bad-input] 10 records: %d processed, %d dead-lettered (%s), committed to offset %s;"
                    + " missing topics reported: %s%n", GOOD.size(), dead.size(),
                    dead.stream().map(r -> header(r, "kafka_dlt-original-offset") + ": " + (header(r, "kafka_dlt-exception-message") != null
                            ? header(r, "kafka_dlt-exception-message") : header(r, "kafka_dlt-key-exception-message"))).toList(),
                    TestBroker.committed("bad-input"), registration.missingTopics());
            assertThat(GOOD).containsExactlyInAnyOrder(1L, 4L, 5L, 6L, 7L, 8L, 9L);
            assertThat(dead).extracting(r -> header(r, "kafka_dlt-original-offset")).containsExactly("1", "2", "3");
            assertThat(header(dead.get(0), "kafka_dlt-key-exception-stacktrace")).contains("Size of data received by LongDeserializer is not 8");
            assertThat(header(dead.get(1), "kafka_dlt-exception-stacktrace")).contains("Size of data received by IntegerDeserializer is not 4");
            assertThat(dead.get(0).key()).containsExactly("abc".getBytes(StandardCharsets.UTF_8)); // the original bytes
            assertThat(header(dead.get(2), "kafka_dlt-exception-message")).contains("failed 3 times", "negative amount -5");
            assertThat(dead.get(1).value()).containsExactly(1, 2); // the original bytes
            assertThat(registration.missingTopics()).containsExactly("no-such-topic");
            assertThat(node.dispatcher("accounts", "onRecord").deadLettered.get()).isEqualTo(3);
        }
    }

    private static List<ConsumerRecord<byte[], byte[]>> readDeadLetters(int expected) {
        List<ConsumerRecord<byte[], byte[]>> dead = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, TestBroker.bootstrapServers(),
                ConsumerConfig.GROUP_ID_CONFIG, "dlt-reader", ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"),
                new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            consumer.subscribe(List.of("bad-input-dlt"));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (dead.size() < expected && System.nanoTime() < deadline) {
                consumer.poll(Duration.ofMillis(200)).forEach(dead::add);
            }
        }
        return dead;
    }

    private static String header(ConsumerRecord<?, ?> record, String name) {
        Header header = record.headers().lastHeader(name);
        if (header == null) {
            return null;
        }
        byte[] value = header.value();
        return name.endsWith("offset") ? Long.toString(ByteBuffer.wrap(value).getLong()) : new String(value, StandardCharsets.UTF_8);
    }

    private static byte[] longBytes(long value) {
        return ByteBuffer.allocate(8).putLong(value).array();
    }

    private static byte[] intBytes(int value) {
        return ByteBuffer.allocate(4).putInt(value).array();
    }
}
