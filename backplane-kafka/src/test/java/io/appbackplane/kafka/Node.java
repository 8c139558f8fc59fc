package io.appbackplane.kafka;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * One node of a test cluster: a Spring Boot application context of its own in this JVM, connected
 * to the {@link TestBroker}, with short session and poll settings so group changes and commits are fast.
 */
final class Node implements AutoCloseable {

    final String name;
    final ConfigurableApplicationContext context;

    private Node(String name, ConfigurableApplicationContext context) {
        this.name = name;
        this.context = context;
    }

    static Node start(String name, Class<?> configuration, String... properties) {
        List<String> all = new ArrayList<>(List.of(
                "spring.application.name=" + name,
                "spring.kafka.bootstrap-servers=" + TestBroker.bootstrapServers(),
                "spring.kafka.consumer.auto-offset-reset=earliest",
                "spring.kafka.consumer.properties.session.timeout.ms=6000",
                "spring.kafka.consumer.properties.heartbeat.interval.ms=500",
                "spring.kafka.consumer.fetch-max-wait=20ms",
                "spring.kafka.consumer.max-poll-records=500",
                // A record's commit waits for the consumer's poll to return: a short poll lets the tests'
                // waits for committed offsets end soon after the work does.
                "spring.kafka.listener.poll-timeout=200ms",
                "spring.kafka.producer.properties.linger.ms=1",
                "spring.lifecycle.timeout-per-shutdown-phase=20s",
                "backplane.kafka.retry.initial-backoff=20ms",
                "backplane.kafka.retry.max-backoff=100ms",
                "node.name=" + name,
                "logging.level.org.apache.kafka=warn",
                "logging.level.kafka=warn",
                "logging.level.org.springframework.kafka=warn"));
        all.addAll(List.of(properties));
        ConfigurableApplicationContext context = new SpringApplicationBuilder(configuration)
                .web(WebApplicationType.NONE)
                .properties(all.toArray(String[]::new))
                .run();
        return new Node(name, context);
    }

    <T> T bean(Class<T> type) {
        return context.getBean(type);
    }

    KafkaEndpointRegistrar registrar() {
        return bean(KafkaEndpointRegistrar.class);
    }

    RecordDispatcher dispatcher(String component, String endpoint) {
        return registrar().registrations().stream()
                .filter(r -> r.component().equals(component) && r.endpoint().equals(endpoint))
                .findFirst().orElseThrow().dispatcher();
    }

    /** One partition's entry in the registrar's view of {@code component.endpoint}; null while it is not assigned here. */
    @SuppressWarnings("unchecked")
    Map<String, Object> partitionView(String endpoint, String partition) {
        Map<String, Object> view = (Map<String, Object>) registrar().describe().get(endpoint);
        return (Map<String, Object>) ((Map<String, Object>) view.get("partitions")).get(partition);
    }

    @Override
    public void close() {
        if (context.isActive()) {
            context.close();
        }
    }
}
