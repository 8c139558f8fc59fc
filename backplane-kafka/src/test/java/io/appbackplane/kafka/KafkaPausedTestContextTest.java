package io.appbackplane.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.appbackplane.spring.annotation.AppComponent;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.ClassOrderer;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestClassOrder;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.TestPropertySource;

/**
 * Spring Framework 7's test context cache pauses a cached context when the suite switches to
 * another configuration and restarts it when a later class needs it again. Three test classes
 * with configurations A, B, A in that order, in one JVM: the Kafka endpoints of A stop consuming
 * while B runs (their partitions handed over), and A's restarted context consumes and commits again
 * (its registrar starts afresh: containers and the resume sweeper). The nested classes inherit the
 * connection to the test broker from this class; each names only its configuration.
 */
@TestClassOrder(ClassOrderer.OrderAnnotation.class)
@TestPropertySource(properties = {
        "spring.kafka.bootstrap-servers=${backplane.test.kafka.bootstrap}",
        "spring.kafka.consumer.auto-offset-reset=earliest",
        "spring.kafka.consumer.properties.session.timeout.ms=6000",
        "spring.kafka.consumer.properties.heartbeat.interval.ms=500",
        "spring.kafka.consumer.fetch-max-wait=20ms"})
class KafkaPausedTestContextTest {

    static final Set<String> SEEN = ConcurrentHashMap.newKeySet();
    static final AtomicReference<ConfigurableApplicationContext> FIRST_A = new AtomicReference<>();

    static {
        System.setProperty("backplane.test.kafka.bootstrap", TestBroker.bootstrapServers());
        TestBroker.createTopics(1, "paused-a", "paused-a-dlt", "paused-b", "paused-b-dlt");
    }

    @AppComponent("alpha")
    static class Alpha {
        @KafkaEndpoint(topics = "paused-a", groupId = "paused-a")
        void onRecord(String value) {
            SEEN.add(value);
        }
    }

    @AppComponent("beta")
    static class Beta {
        @KafkaEndpoint(topics = "paused-b", groupId = "paused-b")
        void onRecord(String value) {
            SEEN.add(value);
        }
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(Alpha.class)
    static class ConfigA {}

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(Beta.class)
    static class ConfigB {}

    static void send(String topic, String value) {
        TestBroker.bytesTemplate().send(topic, value.getBytes(StandardCharsets.UTF_8), value.getBytes(StandardCharsets.UTF_8));
    }

    @Nested
    @Order(1)
    @SpringBootTest(classes = ConfigA.class)
    class FirstA {
        @Autowired
        ConfigurableApplicationContext context;

        @Test
        void consumes() {
            FIRST_A.set(context);
            send("paused-a", "a1");
            await().atMost(TestBroker.patience()).until(() -> SEEN.contains("a1"));
        }
    }

    @Nested
    @Order(2)
    @SpringBootTest(classes = ConfigB.class)
    class ThenB {
        @Test
        void consumesWhileAIsPaused() {
            assertThat(FIRST_A.get().getBean(KafkaEndpointRegistrar.class).isRunning()).as("A's endpoints while paused").isFalse();
            send("paused-b", "b1");
            await().atMost(TestBroker.patience()).until(() -> SEEN.contains("b1"));
        }
    }

    @Nested
    @Order(3)
    @SpringBootTest(classes = ConfigA.class)
    class AgainA {
        @Autowired
        ConfigurableApplicationContext context;

        @Test
        void consumesAndCommitsAgainInTheRestartedContext() {
            assertThat(context).as("the cached context of the first class, restarted").isSameAs(FIRST_A.get());
            assertThat(context.getBean(KafkaEndpointRegistrar.class).isRunning()).isTrue();
            send("paused-a", "a2");
            await().atMost(TestBroker.patience()).until(() -> SEEN.contains("a2"));
            await().atMost(TestBroker.patience()).until(() -> TestBroker.committed("paused-a")
                    .getOrDefault(new TopicPartition("paused-a", 0), -1L) == 2L);
        }
    }
}
