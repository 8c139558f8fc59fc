package io.appbackplane.internal;

import io.appbackplane.BackplaneComponent;
import io.appbackplane.internal.components.DefaultComponent;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The components of one backplane, by name: its own component first, then the installed ones in
 * installation order. Invariant: every name is unique ({@code byName} and {@code inOrder} hold the
 * same components). Thread-safe: components are installed by any thread and never removed; a
 * listing is a snapshot.
 */
final class ComponentRegistry {

    private final String backplaneName;
    private final CopyOnWriteArrayList<DefaultComponent> inOrder = new CopyOnWriteArrayList<>();
    private final ConcurrentHashMap<String, DefaultComponent> byName = new ConcurrentHashMap<>();

    ComponentRegistry(String backplaneName) {
        this.backplaneName = backplaneName;
    }

    /**
     * Adds {@code component} after the others.
     *
     * @throws IllegalArgumentException if a component of that name is already there
     */
    void add(DefaultComponent component) {
        if (byName.putIfAbsent(component.name(), component) != null) {
            throw new IllegalArgumentException("backplane '" + backplaneName + "' already has a component named '"
                    + component.name() + "'; component names must be unique within a backplane (its own component has"
                    + " the backplane's name)");
        }
        inOrder.add(component);
    }

    Optional<BackplaneComponent> find(String componentName) {
        return Optional.ofNullable(byName.get(componentName));
    }

    /** The components, the backplane's own first, then in installation order; a snapshot. */
    List<DefaultComponent> all() {
        return List.copyOf(inOrder);
    }

    /** At a real tick: components with a queue-wait target adapt their admission limits (rule 19). */
    void adaptLimits() {
        for (DefaultComponent component : inOrder) {
            component.adaptLimit();
        }
    }
}
