package io.appbackplane.kafka;

import java.util.Map;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.endpoint.Access;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;

/**
 * {@code GET /actuator/backplanekafka}: every {@link KafkaEndpoint} with its topics, group, back
 * pressure (paused, seconds paused), record outcomes, hand-overs and, per assigned partition, the
 * committed and received offsets, in-flight and held-back records, lag and time paused. Read-only.
 */
@Endpoint(id = "backplanekafka", defaultAccess = Access.READ_ONLY)
public class BackplaneKafkaEndpoint {

    private final ObjectProvider<KafkaEndpointRegistrar> registrar;

    public BackplaneKafkaEndpoint(ObjectProvider<KafkaEndpointRegistrar> registrar) {
        this.registrar = registrar;
    }

    /** Every endpoint by {@code component.endpoint}; empty when Kafka is not configured. */
    @ReadOperation
    public Map<String, Object> endpoints() {
        KafkaEndpointRegistrar current = registrar.getIfAvailable();
        return current == null ? Map.of() : current.describe();
    }
}
