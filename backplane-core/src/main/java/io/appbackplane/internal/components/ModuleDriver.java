package io.appbackplane.internal.components;

import io.appbackplane.ComponentState;
import io.appbackplane.ComponentStateException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Drives a backplane's components through their module states in dependency order (docs/scheduling.md, modules and states).
 *
 * <p>A move to a target state is validated before anything moves (missing dependencies, cycles,
 * unreachable states). Then each component's transition into each state on its path runs as an
 * action on the component's own object, once the transitions it must wait for are done: on the way
 * up, the same state's transition of every dependency; on the way down, the DOWN transition of
 * every dependent. Independent components move in parallel. A failed transition leaves its
 * component where it was; whatever waited for it does not move either; the move's future fails
 * with the root failure. Moves are serialized: a move starts after the previous one settled.
 */
public final class ModuleDriver {

    private final ComponentHost backplane;
    private CompletableFuture<Void> lastMove = CompletableFuture.completedFuture(null); // guarded by this

    public ModuleDriver(ComponentHost backplane) {
        this.backplane = backplane;
    }

    /**
     * Moves every component to {@code target}.
     *
     * @throws io.appbackplane.ComponentGraphException if a dependency is missing or cyclic
     * @throws IllegalArgumentException if a component cannot reach {@code target} from its state
     */
    public synchronized CompletableFuture<Void> moveTo(ComponentState target) {
        List<DefaultComponent> components = backplane.componentsIncludingSelf();
        LinkedModules links = LinkedModules.of(backplane, components); // throws before anything moves
        ModuleGraph graph = graphOf(components, links);
        for (DefaultComponent component : components) {
            checkReachable(component, target);
        }
        CompletableFuture<Void> move = lastMove.handle((ignored, failure) -> null)
                .thenCompose(ignored -> run(graph, links, backplane.componentsIncludingSelf(), target));
        lastMove = move;
        return move;
    }

    private ModuleGraph graphOf(List<DefaultComponent> components, LinkedModules links) {
        String self = backplane.self().name();
        Map<String, Set<String>> declared = new LinkedHashMap<>();
        for (DefaultComponent component : components) {
            Set<String> dependencies = new java.util.LinkedHashSet<>(component.dependencies());
            dependencies.removeAll(links.dependencyNames(component.name())); // waited for through LinkedModules
            if (!component.name().equals(self)) {
                dependencies.add(self); // the backplane module moves its components: it goes first up, last down
            }
            declared.put(component.name(), dependencies);
        }
        return ModuleGraph.of(backplane.name(), declared);
    }

    private static void checkReachable(DefaultComponent component, ComponentState target) {
        try {
            component.state().pathTo(target);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("component '" + component.name() + "': " + e.getMessage(), e);
        }
    }

    private CompletableFuture<Void> run(ModuleGraph graph, LinkedModules links, List<DefaultComponent> components,
            ComponentState target) {
        Map<String, DefaultComponent> byName = new HashMap<>();
        for (DefaultComponent c : components) {
            byName.put(c.name(), c);
        }
        Map<String, Map<ComponentState, CompletableFuture<Void>>> transitions = new HashMap<>();
        ConcurrentLinkedQueue<Throwable> rootFailures = new ConcurrentLinkedQueue<>();
        List<CompletableFuture<Void>> all = new ArrayList<>();
        List<String> order = graph.dependenciesFirst();
        if (target == ComponentState.DOWN) {
            order = new ArrayList<>(order);
            java.util.Collections.reverse(order); // dependents first
        }
        for (String name : order) {
            DefaultComponent component = byName.get(name);
            Map<ComponentState, CompletableFuture<Void>> mine = new EnumMap<>(ComponentState.class);
            transitions.put(name, mine);
            List<ComponentState> path;
            try {
                path = component.state().pathTo(target);
            } catch (IllegalArgumentException e) { // a previous move left it elsewhere than validated
                all.add(CompletableFuture.failedFuture(e));
                continue;
            }
            CompletableFuture<Void> previous = CompletableFuture.completedFuture(null);
            for (ComponentState state : path) {
                List<CompletableFuture<Void>> waitFor = new ArrayList<>();
                waitFor.add(previous);
                List<String> others = state == ComponentState.DOWN ? graph.dependentsOf(name) : graph.dependenciesOf(name);
                for (String other : others) {
                    CompletableFuture<Void> t = transitions.getOrDefault(other, Map.of()).get(state);
                    if (t != null) {
                        waitFor.add(t);
                    }
                }
                // the same order with components of linked backplanes: they move in their own backplane's move
                List<DefaultComponent> linked = state == ComponentState.DOWN ? links.dependentsOf(name) : links.dependenciesOf(name);
                for (DefaultComponent other : linked) {
                    waitFor.add(other.module.whenEntered(state));
                }
                CompletableFuture<Void> transition = CompletableFuture.allOf(waitFor.toArray(CompletableFuture[]::new))
                        .handle((ignored, failure) -> failure == null
                                ? enter(component, state, rootFailures)
                                : CompletableFuture.<Void>failedFuture(blocked(component, state, failure)))
                        .thenCompose(f -> f);
                mine.put(state, transition);
                previous = transition;
                all.add(transition);
            }
        }
        return CompletableFuture.allOf(all.toArray(CompletableFuture[]::new)).handle((ignored, failure) -> {
            if (failure == null) {
                return null;
            }
            Throwable root = rootFailures.isEmpty() ? unwrap(failure) : rootFailures.peek();
            rootFailures.stream().filter(t -> t != root).forEach(root::addSuppressed);
            throw root instanceof RuntimeException r ? r : new CompletionException(root);
        });
    }

    /** Runs the component's transition into {@code state} as an action on its own object. */
    private static CompletableFuture<Void> enter(DefaultComponent component, ComponentState state,
            ConcurrentLinkedQueue<Throwable> rootFailures) {
        CompletableFuture<Void> entered = component.module.transition(state);
        return entered.whenComplete((ignored, failure) -> {
            if (failure != null) {
                rootFailures.add(unwrap(failure));
            }
        });
    }

    private static ComponentStateException blocked(DefaultComponent component, ComponentState state, Throwable cause) {
        Throwable root = unwrap(cause);
        String because = root instanceof ComponentStateException cse
                ? "component '" + cse.component() + "' did not enter " + cse.state()
                : String.valueOf(root);
        ComponentStateException blocked = new ComponentStateException(component.name(), state, "component '"
                + component.name() + "' did not enter " + state + " because " + because, root);
        component.module.willNotEnter(state, blocked); // dependents in linked backplanes must not wait for it
        return blocked;
    }

    private static Throwable unwrap(Throwable t) {
        while (t instanceof CompletionException && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }
}
