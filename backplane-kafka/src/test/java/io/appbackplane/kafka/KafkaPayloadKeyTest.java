package io.appbackplane.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.appbackplane.ActionContext;
import io.appbackplane.spring.annotation.AppComponent;
import io.appbackplane.spring.annotation.ObjectKey;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Import;
import org.springframework.kafka.core.KafkaTemplate;

/**
 * {@code @KafkaEndpoint(key = "...")}: the object is named by a key read from the payload (the
 * records carry no Kafka key); per extracted key the records run in order on that object; a record
 * from which no key can be read goes to the dead-letter topic with the reason and nothing else stops;
 * an expression that does not parse fails the start with the method named.
 */
class KafkaPayloadKeyTest {

    static final Map<String, List<Integer>> SEEN = new ConcurrentHashMap<>();
    static final List<String> VIOLATIONS = new CopyOnWriteArrayList<>();

    // docs:scale-out:payload-key BEGIN
    @AppComponent("customers")
    static class Customers {
        /** Payloads look like "customer-7:12" (customer, then the order's sequence). */
        @KafkaEndpoint(topics = "payload-key", key = "payload.substring(0, payload.indexOf(':'))")
        void onOrder(@ObjectKey String customer, String payload, ActionContext context) {
            // the action runs on the customer's object: one order of a customer at a time, in offset order
            if (!customer.equals(context.objectKey())) {
                VIOLATIONS.add(customer + " ran on object " + context.objectKey());
            }
            int seq = Integer.parseInt(payload.substring(payload.indexOf(':') + 1));
            SEEN.computeIfAbsent(customer, c -> new CopyOnWriteArrayList<>()).add(seq);
        }
    }
    // docs:scale-out:payload-key END

    @AppComponent("broken")
    static class Broken {
        @KafkaEndpoint(topics = "payload-key", key = "payload.(")
        void onOrder(String payload) {}
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(Customers.class)
    static class App {}

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(Broken.class)
    static class BrokenApp {}

    @Test
    void recordsRunOnTheObjectNamedByTheirPayloadAndUnreadableOnesAreDeadLettered() throws Exception {
        TestBroker.createTopics(1, "payload-key", "payload-key-dlt");
        try (Node node = Node.start("payload-key", App.class, "backplane.kafka.group-id=payload-key",
                "spring.kafka.consumer.value-deserializer=org.apache.kafka.common.serialization.StringDeserializer")) {
            KafkaTemplate<byte[], byte[]> producer = TestBroker.bytesTemplate();
            int customers = 5;
            int perCustomer = 20;
            int offset = 0;
            List<Integer> badOffsets = new ArrayList<>();
            for (int seq = 0; seq < perCustomer; seq++) {
                for (int c = 0; c < customers; c++) {
                    producer.send("payload-key", null, ("customer-" + c + ":" + seq).getBytes(StandardCharsets.UTF_8));
                    offset++;
                }
                if (seq == 5) {
                    producer.send("payload-key", null, "no customer here".getBytes(StandardCharsets.UTF_8)); // indexOf gives -1
                    badOffsets.add(offset++);
                    producer.send("payload-key", null, null); // no payload at all
                    badOffsets.add(offset++);
                }
            }
            producer.flush();
            int total = offset;

            await().atMost(TestBroker.patience()).until(() ->
                    SEEN.values().stream().mapToInt(List::size).sum() == customers * perCustomer);
            await().atMost(TestBroker.patience()).until(() ->
                    TestBroker.committed("payload-key").values().stream().mapToLong(Long::longValue).sum() == total);
            List<ConsumerRecord<String, String>> dead = readDeadLetters("payload-key-dlt", 2);
            RecordDispatcher dispatcher = node.dispatcher("customers", "onOrder");
            System.out.printf("[payload-key] %d records (%d customers x %d, 2 unreadable): processed %d, dead-lettered %d: %s%n",
                    total, customers, perCustomer, dispatcher.completed.get(), dispatcher.deadLettered.get(),
                    dead.stream().map(r -> header(r, "kafka_dlt-exception-message")).toList());

            assertThat(VIOLATIONS).isEmpty();
            assertThat(SEEN).hasSize(customers);
            List<Integer> inOrder = java.util.stream.IntStream.range(0, perCustomer).boxed().toList();
            SEEN.forEach((customer, seqs) -> assertThat(seqs).as(customer).isEqualTo(inOrder));
            assertThat(dead).extracting(r -> header(r, "kafka_dlt-exception-message"))
                    .allMatch(m -> m.contains("the key expression \"payload.substring(0, payload.indexOf(':'))\""))
                    .anyMatch(m -> m.contains("payload-key-0@" + badOffsets.get(0)))
                    .anyMatch(m -> m.contains("payload-key-0@" + badOffsets.get(1)));
            assertThat(dispatcher.deadLettered.get()).isEqualTo(2);
            assertThat(dispatcher.completed.get()).isEqualTo(customers * perCustomer);
        }
    }

    @Test
    void aKeyExpressionThatDoesNotParseFailsTheStartNamingTheMethod() {
        assertThatThrownBy(() -> Node.start("broken", BrokenApp.class, "backplane.kafka.group-id=broken").close())
                .hasStackTraceContaining(Broken.class.getName() + ".onOrder has @KafkaEndpoint(key) = \"payload.(\", which is not"
                        + " a valid SpEL expression");
    }

    private static List<ConsumerRecord<String, String>> readDeadLetters(String topic, int expected) {
        List<ConsumerRecord<String, String>> dead = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, TestBroker.bootstrapServers(),
                ConsumerConfig.GROUP_ID_CONFIG, topic + "-reader", ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"),
                new StringDeserializer(), new StringDeserializer())) {
            consumer.subscribe(List.of(topic));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (dead.size() < expected && System.nanoTime() < deadline) {
                consumer.poll(Duration.ofMillis(200)).forEach(dead::add);
            }
        }
        return dead;
    }

    private static String header(ConsumerRecord<?, ?> record, String name) {
        org.apache.kafka.common.header.Header header = record.headers().lastHeader(name);
        return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }
}
