package io.appbackplane.kafka;

import io.appbackplane.Backplane;
import io.appbackplane.spring.actuate.BackplaneEndpointContributor;
import java.util.Map;
import org.springframework.beans.factory.ObjectProvider;

/**
 * The {@code kafka} section of each backplane's entry in {@code /actuator/backplane}: the {@link
 * KafkaEndpoint}s of that backplane's components, as {@code /actuator/backplanekafka} shows them
 * (topics, group, back pressure, record outcomes, hand-overs, and per assigned partition the
 * committed offset, in-flight records, lag and time paused). Left out for a backplane without any.
 */
final class KafkaBackplaneEndpointContributor implements BackplaneEndpointContributor {

    private final ObjectProvider<KafkaEndpointRegistrar> registrar;

    KafkaBackplaneEndpointContributor(ObjectProvider<KafkaEndpointRegistrar> registrar) {
        this.registrar = registrar;
    }

    @Override
    public String name() {
        return "kafka";
    }

    @Override
    public Object describe(Backplane backplane) {
        KafkaEndpointRegistrar current = registrar.getIfAvailable();
        if (current == null) {
            return null;
        }
        Map<String, Object> endpoints = current.describe(r -> backplane.component(r.component()).isPresent());
        return endpoints.isEmpty() ? null : Map.of("endpoints", endpoints);
    }
}
