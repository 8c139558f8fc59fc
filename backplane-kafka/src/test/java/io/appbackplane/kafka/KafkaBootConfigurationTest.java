package io.appbackplane.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.appbackplane.spring.annotation.AppComponent;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.kafka.autoconfigure.DefaultKafkaConsumerFactoryCustomizer;
import org.springframework.boot.kafka.autoconfigure.DefaultKafkaProducerFactoryCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.kafka.core.ConsumerFactory;
import org.springframework.kafka.core.ProducerFactory;
import org.springframework.kafka.listener.ContainerProperties;

/**
 * The endpoints' consumers, containers and dead-letter producer are built from Spring Boot's Kafka
 * configuration: an application's consumer and producer factory customizers see them (and so
 * Micrometer's {@code kafka.consumer.*} client meters exist for them), {@code
 * spring.kafka.listener.*} applies to their containers, and the start-up topic check gives up
 * promptly when the broker is down.
 */
class KafkaBootConfigurationTest {

    static final Set<String> CONSUMERS = ConcurrentHashMap.newKeySet();
    static final Set<String> PRODUCERS = ConcurrentHashMap.newKeySet();

    @AppComponent("configured")
    static class Configured {
        @KafkaEndpoint(topics = "boot-config")
        void onRecord(String value) {
            if (value.startsWith("fail")) {
                throw new IllegalStateException("fails: " + value);
            }
        }
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(Configured.class)
    static class App {
        @Bean
        @SuppressWarnings({"unchecked", "rawtypes"})
        DefaultKafkaConsumerFactoryCustomizer recordingConsumers() {
            return factory -> ((org.springframework.kafka.core.DefaultKafkaConsumerFactory) factory).addListener(new ConsumerFactory.Listener<Object, Object>() {
                @Override
                public void consumerAdded(String id, org.apache.kafka.clients.consumer.Consumer<Object, Object> consumer) {
                    CONSUMERS.add(id);
                }
            });
        }

        @Bean
        @SuppressWarnings({"unchecked", "rawtypes"})
        DefaultKafkaProducerFactoryCustomizer recordingProducers() {
            return factory -> ((org.springframework.kafka.core.DefaultKafkaProducerFactory) factory).addListener(new ProducerFactory.Listener<Object, Object>() {
                @Override
                public void producerAdded(String id, org.apache.kafka.clients.producer.Producer<Object, Object> producer) {
                    PRODUCERS.add(id);
                }
            });
        }
    }

    static {
        TestBroker.createTopics(1, "boot-config", "boot-config-dlt");
    }

    @Test
    void customizersListenerPropertiesAndClientMetricsApplyToTheEndpoints() {
        try (Node node = Node.start("boot-config", App.class, "backplane.kafka.group-id=boot-config",
                "backplane.kafka.retry.attempts=1",
                "spring.kafka.listener.poll-timeout=1234ms",
                "spring.kafka.listener.idle-between-polls=7ms")) {
            KafkaEndpointRegistrar registrar = node.registrar();
            ContainerProperties container = registrar.registrations().get(0).container().getContainerProperties();
            assertThat(container.getPollTimeout()).isEqualTo(1234);
            assertThat(container.getIdleBetweenPolls()).isEqualTo(7);
            assertThat(container.getAckMode()).isEqualTo(ContainerProperties.AckMode.MANUAL);

            TestBroker.bytesTemplate().send("boot-config", "k".getBytes(StandardCharsets.UTF_8),
                    "fail once".getBytes(StandardCharsets.UTF_8));
            await().atMost(TestBroker.patience()).until(() -> node.dispatcher("configured", "onRecord").deadLettered.get() == 1);

            assertThat(CONSUMERS).as("consumers the application's customizer saw created").anyMatch(id -> id.contains("configured.onRecord"));
            assertThat(PRODUCERS).as("producers the application's customizer saw created (the dead-letter producer)").isNotEmpty();
            MeterRegistry meters = node.bean(MeterRegistry.class);
            await().atMost(TestBroker.patience()).until(() -> meters.getMeters().stream().map(Meter::getId)
                    .anyMatch(id -> id.getName().startsWith("kafka.consumer.")
                            && String.valueOf(id.getTag("client.id")).contains("configured.onRecord")));
        }
    }

    @Test
    void aBrokerThatIsDownDoesNotStallStartUp() throws Exception {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = socket.getLocalPort();
        }
        long start = System.nanoTime();
        Node node = Node.start("no-broker", App.class, "backplane.kafka.group-id=no-broker",
                "spring.kafka.bootstrap-servers=127.0.0.1:" + closedPort);
        long startMillis = (System.nanoTime() - start) / 1_000_000;
        node.registrar().stop(() -> {}); // nothing to hand over; do not wait for consumers of a broker that is not there
        System.out.printf("[no-broker] started in %d ms with the broker down%n", startMillis);
        assertThat(startMillis).as("start-up time with the broker down (the topic check waits at most 5 s)")
                .isLessThan(30_000);
        node.close();
    }

    static final Set<String> RECOVERED = ConcurrentHashMap.newKeySet();

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(Configured.class)
    static class AppWithItsOwnRecoverer {
        @Bean
        KafkaDeadLetterRecoverer ownRecoverer() {
            return (record, failure) -> RECOVERED.add(DeadLetters.coordinates(record) + " "
                    + new String((byte[]) record.value(), StandardCharsets.UTF_8) + ": " + failure.getMessage());
        }
    }

    @Test
    void theDeadLetterRecovererBacksOffWhenTheApplicationDeclaresOne() {
        try (Node node = Node.start("own-recoverer", AppWithItsOwnRecoverer.class, "backplane.kafka.group-id=own-recoverer",
                "backplane.kafka.retry.attempts=1")) {
            assertThat(node.context.getBeansOfType(DeadLetterTopicRecoverer.class)).isEmpty();
            assertThat(node.context.getBeansOfType(KafkaDeadLetterRecoverer.class)).containsOnlyKeys("ownRecoverer");
            TestBroker.bytesTemplate().send("boot-config", "k".getBytes(StandardCharsets.UTF_8),
                    "fail here".getBytes(StandardCharsets.UTF_8));
            await().atMost(TestBroker.patience()).until(() -> RECOVERED.stream().anyMatch(r -> r.contains("fail here")));
            assertThat(RECOVERED).anyMatch(r -> r.startsWith("boot-config-0@") && r.contains("fails: fail here"));
        }
    }
}
