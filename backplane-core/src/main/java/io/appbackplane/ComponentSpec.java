package io.appbackplane;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * How to install a component: its name, its outstanding-request limit and its make-room hook
 * (DESIGN rule 11). Immutable; the {@code with...} methods return modified copies.
 */
public final class ComponentSpec {

    /** The default outstanding-request limit of a component. */
    public static final int DEFAULT_OPERATION_LIMIT = 100_000;

    private final String name;
    private final int operationLimit;
    private final MakeRoom makeRoom;
    private final Set<String> dependencies;
    private final Map<ComponentState, List<StateHook>> hooks;

    private ComponentSpec(String name, int operationLimit, MakeRoom makeRoom, Set<String> dependencies,
            Map<ComponentState, List<StateHook>> hooks) {
        this.name = name;
        this.operationLimit = operationLimit;
        this.makeRoom = makeRoom;
        this.dependencies = dependencies;
        this.hooks = hooks;
    }

    /** A spec for a component named {@code name} with default settings. */
    public static ComponentSpec named(String name) {
        Objects.requireNonNull(name, "component name must not be null");
        if (name.isBlank()) {
            throw new IllegalArgumentException("component name is blank; allowed: a non-blank name");
        }
        return new ComponentSpec(name, DEFAULT_OPERATION_LIMIT, MakeRoom.NEVER, Set.of(), Map.of());
    }

    /** The same spec with an outstanding-request limit of {@code limit} (1..{@value Integer#MAX_VALUE}). */
    public ComponentSpec withOperationLimit(int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException(
                    "operation-limit = " + limit + " for component '" + name + "' is invalid; allowed: 1.." + Integer.MAX_VALUE);
        }
        return new ComponentSpec(name, limit, makeRoom, dependencies, hooks);
    }

    /** The same spec with a make-room hook, asked for room when the component is at its limit. */
    public ComponentSpec withMakeRoom(MakeRoom makeRoom) {
        return new ComponentSpec(name, operationLimit, Objects.requireNonNull(makeRoom, "makeRoom must not be null"),
                dependencies, hooks);
    }

    /**
     * The same spec depending also on the components named {@code names}: this component enters a
     * state only after they have, and goes DOWN before them (DESIGN §3.2). Checked when the
     * backplane moves: a missing name or a cycle fails the move before anything starts.
     */
    public ComponentSpec dependsOn(String... names) {
        Objects.requireNonNull(names, "dependency names must not be null");
        Set<String> all = new LinkedHashSet<>(dependencies);
        for (String dependency : names) {
            Objects.requireNonNull(dependency, "dependency name must not be null");
            if (dependency.equals(name)) {
                throw new IllegalArgumentException("component '" + name + "' cannot depend on itself");
            }
            all.add(dependency);
        }
        return new ComponentSpec(name, operationLimit, makeRoom, Collections.unmodifiableSet(all), hooks);
    }

    /** The same spec running {@code hook} (after the hooks added before) on entering {@code state}. */
    public ComponentSpec onEnter(ComponentState state, StateHook hook) {
        Objects.requireNonNull(state, "state must not be null");
        Objects.requireNonNull(hook, "hook must not be null");
        if (state == ComponentState.START) {
            throw new IllegalArgumentException("component '" + name + "': no hook can run on entering START (it is the"
                    + " initial state); allowed: INITIALIZING, PRIMARY, SECONDARY, DOWN");
        }
        Map<ComponentState, List<StateHook>> all = new EnumMap<>(ComponentState.class);
        all.putAll(hooks);
        List<StateHook> forState = new ArrayList<>(all.getOrDefault(state, List.of()));
        forState.add(hook);
        all.put(state, List.copyOf(forState));
        return new ComponentSpec(name, operationLimit, makeRoom, dependencies, Collections.unmodifiableMap(all));
    }

    /** The names of the components this one depends on. */
    public Set<String> dependencies() {
        return dependencies;
    }

    /** The state hooks, by the state they run on entering. */
    public Map<ComponentState, List<StateHook>> hooks() {
        return hooks;
    }

    public String name() {
        return name;
    }

    public int operationLimit() {
        return operationLimit;
    }

    public MakeRoom makeRoom() {
        return makeRoom;
    }

    /**
     * Asked, in the submitting thread, to make room when a component is at its outstanding limit,
     * for example by {@linkplain BackplaneComponent#cancelQueued cancelling} queued work that is no
     * longer worth doing. If it returns {@code true} the request is admitted when room was made;
     * otherwise it is rejected with {@link BackplaneRejectedException}.
     */
    @FunctionalInterface
    public interface MakeRoom {
        /** A hook that never makes room. */
        MakeRoom NEVER = component -> false;

        /** Tries to make room; returns whether it did. */
        boolean makeRoom(BackplaneComponent component);
    }

    @Override
    public String toString() {
        return "ComponentSpec{" + name + ", operationLimit=" + operationLimit + "}";
    }
}
