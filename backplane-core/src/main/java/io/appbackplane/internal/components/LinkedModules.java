package io.appbackplane.internal.components;

import io.appbackplane.Backplane;
import io.appbackplane.ComponentGraphException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One backplane's dependencies on components of its {@linkplain Backplane#link linked}
 * backplanes, in both directions (docs/scheduling.md, modules and states): for each local component, the components of other
 * backplanes it depends on (it enters a state after they have) and those that depend on it (it goes
 * DOWN after they have). Built and validated when a move starts: a name found nowhere, or a cycle
 * through several backplanes, fails the move before anything moves. A dependency is resolved in the
 * component's own backplane first, then in the linked ones in link order. {@link #link} makes the
 * links.
 */
public final class LinkedModules {

    private final Map<String, List<DefaultComponent>> dependencies;
    private final Map<String, List<DefaultComponent>> dependents;

    private LinkedModules(Map<String, List<DefaultComponent>> dependencies, Map<String, List<DefaultComponent>> dependents) {
        this.dependencies = dependencies;
        this.dependents = dependents;
    }

    /**
     * Links {@code backplanes} to each other ({@link Backplane#link}): sets each one's {@link
     * ComponentHost#linked} to the others, in the given order.
     *
     * @throws IllegalArgumentException if one was not built by {@link Backplane.Builder}
     */
    public static void link(Collection<? extends Backplane> backplanes) {
        List<ComponentHost> all = new ArrayList<>();
        for (Backplane backplane : backplanes) {
            if (!(backplane instanceof ComponentHost b)) {
                throw new IllegalArgumentException("backplane '" + backplane.name() + "' (" + backplane.getClass().getName()
                        + ") cannot be linked; allowed: backplanes built by Backplane.builder(name)");
            }
            all.add(b);
        }
        for (ComponentHost b : all) {
            b.linkTo(all.stream().filter(other -> other != b).toList());
        }
    }

    /**
     * @throws ComponentGraphException naming a dependency found in no linked backplane, or a cycle
     *     through several backplanes
     */
    static LinkedModules of(ComponentHost backplane, List<DefaultComponent> components) {
        Map<String, List<DefaultComponent>> dependencies = new HashMap<>();
        Map<String, List<DefaultComponent>> dependents = new HashMap<>();
        Set<String> local = names(components);
        for (DefaultComponent component : components) {
            for (String dependency : component.dependencies()) {
                if (!local.contains(dependency)) {
                    DefaultComponent found = resolve(backplane, dependency);
                    if (found == null) {
                        throw ComponentGraphException.missing(backplane.name(), component.name(), dependency);
                    }
                    dependencies.computeIfAbsent(component.name(), k -> new ArrayList<>()).add(found);
                }
            }
        }
        for (ComponentHost other : backplane.linked()) {
            for (DefaultComponent theirs : other.componentsIncludingSelf()) {
                Set<String> theirLocal = names(other.componentsIncludingSelf());
                for (String dependency : theirs.dependencies()) {
                    if (!theirLocal.contains(dependency) && resolve(other, dependency) != null
                            && resolve(other, dependency).backplane() == backplane) {
                        dependents.computeIfAbsent(dependency, k -> new ArrayList<>()).add(theirs);
                    }
                }
            }
        }
        if (!dependencies.isEmpty() || !dependents.isEmpty()) {
            checkNoCycleAcross(backplane);
        }
        return new LinkedModules(dependencies, dependents);
    }

    /** The names of the dependencies resolved in linked backplanes of {@code component}. */
    Set<String> dependencyNames(String component) {
        Set<String> names = new java.util.HashSet<>();
        dependencies.getOrDefault(component, List.of()).forEach(c -> names.add(c.name()));
        return names;
    }

    List<DefaultComponent> dependenciesOf(String component) {
        return dependencies.getOrDefault(component, List.of());
    }

    List<DefaultComponent> dependentsOf(String component) {
        return dependents.getOrDefault(component, List.of());
    }

    private static DefaultComponent resolve(ComponentHost from, String name) {
        for (ComponentHost other : from.linked()) {
            for (DefaultComponent candidate : other.componentsIncludingSelf()) {
                if (candidate.name().equals(name)) {
                    return candidate;
                }
            }
        }
        return null;
    }

    /** The whole graph over this backplane and its linked ones: a cycle fails, named by its components. */
    private static void checkNoCycleAcross(ComponentHost backplane) {
        List<ComponentHost> all = new ArrayList<>();
        all.add(backplane);
        all.addAll(backplane.linked());
        Map<String, List<String>> graph = new LinkedHashMap<>(); // "backplane/component" -> its dependencies, same form
        Map<String, String> plainNames = new HashMap<>();
        for (ComponentHost b : all) {
            List<DefaultComponent> components = b.componentsIncludingSelf();
            Set<String> local = names(components);
            for (DefaultComponent c : components) {
                String node = b.name() + "/" + c.name();
                plainNames.put(node, c.name());
                List<String> edges = new ArrayList<>();
                if (c != b.self()) {
                    edges.add(b.name() + "/" + b.self().name());
                }
                for (String dependency : c.dependencies()) {
                    if (local.contains(dependency)) {
                        edges.add(b.name() + "/" + dependency);
                    } else {
                        DefaultComponent found = resolve(b, dependency);
                        if (found != null) {
                            edges.add(found.backplane().name() + "/" + found.name());
                        }
                    }
                }
                graph.put(node, edges);
            }
        }
        graph.values().forEach(edges -> edges.removeIf(e -> !graph.containsKey(e)));
        List<String> cycle = ModuleGraph.findCycle(graph);
        if (!cycle.isEmpty()) {
            throw ComponentGraphException.cycle(backplane.name(), cycle.stream().map(plainNames::get).toList());
        }
    }

    private static Set<String> names(List<DefaultComponent> components) {
        Set<String> names = new java.util.HashSet<>();
        components.forEach(c -> names.add(c.name()));
        return names;
    }
}
