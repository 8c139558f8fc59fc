package io.appbackplane.internal.components;

import io.appbackplane.ActionEndpoint;
import io.appbackplane.BackplaneComponent;
import io.appbackplane.EndpointSpec;
import io.appbackplane.EndpointStatistics;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The endpoints of one component, by name, and their subscriptions to topics (an
 * endpoint converts an incoming request, a timer firing or an event into an action).
 *
 * <p>Invariants: endpoint names are unique within a component (an endpoint is registered once and
 * never removed); a subscription always names an endpoint of this component.
 *
 * <p>Thread-safe: any thread may register; the table is a {@link ConcurrentHashMap}.
 */
final class ComponentEndpoints {

    private final DefaultComponent component;
    private final ConcurrentHashMap<String, DefaultEndpoint<?, ?>> endpoints = new ConcurrentHashMap<>();

    ComponentEndpoints(DefaultComponent component) {
        this.component = component;
    }

    /** {@link BackplaneComponent#endpoint}: registers a new endpoint. */
    <Q, R> ActionEndpoint<Q, R> endpoint(EndpointSpec<Q, R> spec) {
        Objects.requireNonNull(spec, "endpoint spec must not be null");
        String duplicate = "component '" + component.name() + "' already has an endpoint named '" + spec.name()
                + "'; endpoint names must be unique within a component";
        if (endpoints.containsKey(spec.name())) { // before construction: a duplicate pooled endpoint is no pool-size clash
            throw new IllegalArgumentException(duplicate);
        }
        DefaultEndpoint<Q, R> endpoint = new DefaultEndpoint<>(component, spec);
        if (endpoints.putIfAbsent(spec.name(), endpoint) != null) {
            throw new IllegalArgumentException(duplicate);
        }
        return endpoint;
    }

    Collection<ActionEndpoint<?, ?>> endpoints() {
        return List.copyOf(endpoints.values());
    }

    /** {@link BackplaneComponent#subscribe}: {@code endpoint} must be one of this component's. */
    <E> BackplaneComponent.Subscription subscribe(String topic, Class<E> eventType, ActionEndpoint<? super E, ?> endpoint) {
        Objects.requireNonNull(topic, "topic must not be null");
        Objects.requireNonNull(eventType, "event type must not be null");
        Objects.requireNonNull(endpoint, "endpoint must not be null");
        if (endpoint.component() != component || !(endpoint instanceof DefaultEndpoint<? super E, ?> own)) {
            throw new IllegalArgumentException("endpoint " + endpoint + " does not belong to component '" + component.name()
                    + "'; allowed: an endpoint registered with this component's endpoint(...)");
        }
        return component.host().topics().subscribe(topic, eventType, own);
    }

    /** Each endpoint's statistics, by name. */
    List<EndpointStatistics> statistics() {
        List<EndpointStatistics> endpointStats = new ArrayList<>();
        for (DefaultEndpoint<?, ?> endpoint : endpoints.values()) {
            endpointStats.add(endpoint.statistics());
        }
        endpointStats.sort(Comparator.comparing(EndpointStatistics::name));
        return endpointStats;
    }
}
