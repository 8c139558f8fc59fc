package io.appbackplane.internal.components;

import io.appbackplane.ComponentGraphException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The components' dependency graph: validated (every dependency installed, no cycle) before
 * anything moves, and queried for each component's dependencies and dependents.
 */
final class ModuleGraph {

    private final Map<String, List<String>> dependencies;
    private final Map<String, List<String>> dependents;

    private ModuleGraph(Map<String, List<String>> dependencies, Map<String, List<String>> dependents) {
        this.dependencies = dependencies;
        this.dependents = dependents;
    }

    /**
     * Validates and builds the graph.
     *
     * @param declared each component's declared dependencies, in installation order
     * @throws ComponentGraphException naming the missing dependency or the components of a cycle
     */
    static ModuleGraph of(String backplane, Map<String, Set<String>> declared) {
        Map<String, List<String>> dependencies = new LinkedHashMap<>();
        Map<String, List<String>> dependents = new LinkedHashMap<>();
        for (String name : declared.keySet()) {
            dependents.put(name, new ArrayList<>());
        }
        for (Map.Entry<String, Set<String>> e : declared.entrySet()) {
            for (String dependency : e.getValue()) {
                if (!declared.containsKey(dependency)) {
                    throw ComponentGraphException.missing(backplane, e.getKey(), dependency);
                }
                dependents.get(dependency).add(e.getKey());
            }
            dependencies.put(e.getKey(), List.copyOf(e.getValue()));
        }
        List<String> cycle = findCycle(dependencies);
        if (!cycle.isEmpty()) {
            throw ComponentGraphException.cycle(backplane, cycle);
        }
        dependents.replaceAll((k, v) -> List.copyOf(v));
        return new ModuleGraph(dependencies, dependents);
    }

    /** Every component after all its dependencies (a topological order; installation order among equals). */
    List<String> dependenciesFirst() {
        List<String> order = new ArrayList<>();
        Set<String> placed = new java.util.HashSet<>();
        while (order.size() < dependencies.size()) {
            for (Map.Entry<String, List<String>> e : dependencies.entrySet()) {
                if (!placed.contains(e.getKey()) && placed.containsAll(e.getValue())) {
                    placed.add(e.getKey());
                    order.add(e.getKey());
                }
            }
        }
        return order;
    }

    List<String> dependenciesOf(String component) {
        return dependencies.getOrDefault(component, List.of());
    }

    List<String> dependentsOf(String component) {
        return dependents.getOrDefault(component, List.of());
    }

    /** A cycle as a path whose first element is repeated at the end, or empty (iterative DFS). */
    static List<String> findCycle(Map<String, List<String>> graph) {
        Map<String, Integer> color = new HashMap<>(); // absent: unvisited, 1: on the path, 2: done
        for (String start : graph.keySet()) {
            if (color.containsKey(start)) {
                continue;
            }
            List<String> path = new ArrayList<>();
            List<Integer> nextChild = new ArrayList<>();
            path.add(start);
            nextChild.add(0);
            color.put(start, 1);
            while (!path.isEmpty()) {
                int top = path.size() - 1;
                String node = path.get(top);
                List<String> children = graph.get(node);
                int i = nextChild.get(top);
                if (i == children.size()) {
                    color.put(node, 2);
                    path.remove(top);
                    nextChild.remove(top);
                    continue;
                }
                nextChild.set(top, i + 1);
                String child = children.get(i);
                Integer c = color.get(child);
                if (c == null) {
                    color.put(child, 1);
                    path.add(child);
                    nextChild.add(0);
                } else if (c == 1) {
                    List<String> cycle = new ArrayList<>(path.subList(path.indexOf(child), path.size()));
                    cycle.add(child);
                    return Collections.unmodifiableList(cycle);
                }
            }
        }
        return List.of();
    }
}
