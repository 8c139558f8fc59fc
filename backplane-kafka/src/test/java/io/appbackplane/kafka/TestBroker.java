package io.appbackplane.kafka;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.springframework.kafka.core.DefaultKafkaProducerFactory;
import org.springframework.kafka.core.KafkaTemplate;

/**
 * One in-JVM KRaft broker for every test class of the module (started on first use, stopped when
 * the JVM exits), listening on 127.0.0.1 only ({@link LoopbackKafkaBroker}): starting a broker
 * costs seconds, so tests share it and use their own topics and groups. Topics are never created
 * automatically, so a missing topic stays missing.
 */
final class TestBroker {

    private static LoopbackKafkaBroker broker;

    private TestBroker() {}

    static synchronized String bootstrapServers() {
        if (broker == null) {
            Map<String, String> props = new HashMap<>();
            props.put("num.partitions", "6");
            props.put("auto.create.topics.enable", "false");
            props.put("group.min.session.timeout.ms", "1000");
            props.put("offsets.topic.num.partitions", "5");
            long t0 = System.nanoTime();
            LoopbackKafkaBroker b = LoopbackKafkaBroker.start(props);
            System.out.printf("[test-broker] %s started in %d ms%n", b.bootstrapServers(), (System.nanoTime() - t0) / 1_000_000);
            broker = b;
            Runtime.getRuntime().addShutdownHook(new Thread(b::close, "test-broker-stop"));
        }
        return broker.bootstrapServers();
    }

    /** Creates topics of {@code partitions} partitions (and waits until they exist). */
    static void createTopics(int partitions, String... topics) {
        createTopics(bootstrapServers(), partitions, topics);
    }

    /** Creates topics of {@code partitions} partitions on the broker at {@code bootstrapServers} (and waits until they exist). */
    static void createTopics(String bootstrapServers, int partitions, String... topics) {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers))) {
            admin.createTopics(java.util.Arrays.stream(topics).map(t -> new NewTopic(t, partitions, (short) 1)).toList())
                    .all().get(30, TimeUnit.SECONDS);
            // a new partition's leader is elected just after creation: a producer that arrives first
            // gets NotLeaderOrFollower errors, so wait until every partition has one
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> admin
                    .describeTopics(List.of(topics)).allTopicNames().get(10, TimeUnit.SECONDS).values().stream()
                    .allMatch(d -> d.partitions().size() == partitions && d.partitions().stream().allMatch(p -> p.leader() != null)));
        } catch (Exception e) {
            throw new IllegalStateException("cannot create " + List.of(topics), e);
        }
    }

    static Admin admin() {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers()));
    }

    /** The group's committed offsets (empty when it committed nothing). */
    static Map<TopicPartition, Long> committed(String group) {
        try (Admin admin = admin()) {
            Map<TopicPartition, OffsetAndMetadata> offsets = admin.listConsumerGroupOffsets(group)
                    .partitionsToOffsetAndMetadata().get(10, TimeUnit.SECONDS);
            return offsets.entrySet().stream().filter(e -> e.getValue() != null)
                    .collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().offset()));
        } catch (Exception e) {
            throw new IllegalStateException("cannot read the offsets of group " + group, e);
        }
    }

    static Set<String> topics() {
        try (Admin admin = admin()) {
            return admin.listTopics().names().get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** A producer of raw bytes (keys and values serialized by the test). */
    static KafkaTemplate<byte[], byte[]> bytesTemplate() {
        Map<String, Object> configs = new HashMap<>();
        configs.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
        configs.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        configs.put(ProducerConfig.BATCH_SIZE_CONFIG, 64 * 1024);
        configs.put(ProducerConfig.ACKS_CONFIG, "all");
        // Plain retries, one request in flight: keeps per-key order without the idempotent producer's
        // sequence checks, which a just-created partition can trip (OutOfOrderSequenceException).
        configs.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, false);
        configs.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 1);
        return new KafkaTemplate<>(new DefaultKafkaProducerFactory<>(configs, new ByteArraySerializer(), new ByteArraySerializer()));
    }

    static Duration patience() {
        return Duration.ofSeconds(60);
    }
}
