package io.appbackplane.internal.components;

import io.appbackplane.BackplaneComponent;
import io.appbackplane.ComponentState;
import io.appbackplane.ComponentStateException;
import io.appbackplane.StateHook;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * One component as a module (docs/scheduling.md, modules and states): its dependencies, its state hooks, its state, and the
 * transitions between states. {@link ModuleDriver} decides when a component moves; this class
 * moves it.
 *
 * <p>Invariants: {@code state} changes only inside a transition, which is one system action at
 * priority 0 on the component's own object ({@link BackplaneComponent#COMPONENT_KEY}), so
 * transitions run one at a time, in FIFO order with the component's other work there; the hooks of
 * state S have all run before {@code state} becomes S (a failing hook leaves the state as it was);
 * the timer endpoints follow the state right after it switches. Whatever waits (through {@link
 * StateWaiters}) for the component to enter S completes once the transition into S has completed,
 * and fails if it fails or will not happen.
 *
 * <p>Thread-safe: {@code state} is volatile and written only by the transition action; waiters are
 * guarded by {@link StateWaiters}.
 */
final class ModuleState {

    private final DefaultComponent component;
    private final Set<String> dependencies;
    private final Map<ComponentState, List<StateHook>> hooks;
    private volatile ComponentState state = ComponentState.START;
    private final StateWaiters stateWaiters = new StateWaiters();

    ModuleState(DefaultComponent component, Set<String> dependencies, Map<ComponentState, List<StateHook>> hooks) {
        this.component = component;
        this.dependencies = dependencies;
        this.hooks = hooks;
    }

    ComponentState state() {
        return state;
    }

    Set<String> dependencies() {
        return dependencies;
    }

    /**
     * Enters {@code to}: runs the state's hooks, then switches the state and the timer endpoints,
     * as one action on the component's own object (so it is ordered with the component's work).
     *
     * @return completes when the component is in {@code to}; fails with a {@link
     *     ComponentStateException} naming the component and state if a hook failed
     */
    CompletableFuture<Void> transition(ComponentState to) {
        CompletableFuture<Object> done = new CompletableFuture<>();
        String name = component.name();
        try {
            component.dispatchTransition(context -> {
                ComponentState from = state;
                for (StateHook hook : hooks.getOrDefault(to, List.of())) {
                    try {
                        hook.onEnter(context, from, to);
                    } catch (Exception | Error e) {
                        throw new ComponentStateException(name, to, "component '" + name + "' failed to enter " + to
                                + " (from " + from + "): " + e, e);
                    }
                }
                state = to;
                component.timers.stateChanged();
                return null;
            }, done);
        } catch (RuntimeException e) {
            stateWaiters.failedToEnter(to, e);
            return CompletableFuture.failedFuture(e);
        }
        return done.whenComplete((ignored, failure) -> {
            if (failure == null) {
                stateWaiters.entered(to);
            } else {
                stateWaiters.failedToEnter(to, failure);
            }
        }).thenApply(ignored -> null);
    }

    /**
     * Completes when this component has entered {@code target} (INITIALIZING: or is past it, in a
     * role); fails if its transition into {@code target} fails. For components of linked backplanes
     * that depend on this one.
     */
    CompletableFuture<Void> whenEntered(ComponentState target) {
        return stateWaiters.whenEntered(target);
    }

    /** This move will not take the component into {@code state} ({@code why}): fails what waits for it. */
    void willNotEnter(ComponentState state, Throwable why) {
        stateWaiters.failedToEnter(state, why);
    }
}
