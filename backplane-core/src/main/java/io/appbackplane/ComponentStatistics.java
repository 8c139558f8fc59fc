package io.appbackplane;

import java.util.List;

/**
 * One component's load and counts.
 *
 * @param name the component's name
 * @param outstanding requests accepted and not finished
 * @param operationLimit the most it accepts at once
 * @param objects objects alive
 * @param waitingObjects objects on the wait queue
 * @param counts its requests and actions
 * @param state its module state
 * @param dependencies the components it depends on
 * @param endpoints its endpoints' counts, by name
 */
public record ComponentStatistics(
        String name,
        int outstanding,
        int operationLimit,
        int objects,
        int waitingObjects,
        ActionCounts counts,
        ComponentState state,
        List<String> dependencies,
        List<EndpointStatistics> endpoints) {

    public ComponentStatistics {
        dependencies = List.copyOf(dependencies);
        endpoints = List.copyOf(endpoints);
    }
}
