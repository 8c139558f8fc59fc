package io.appbackplane.internal.components;

import io.appbackplane.ComponentState;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * Futures that complete when one component enters a state, for components of linked backplanes
 * that depend on it (docs/scheduling.md, modules and states: dependencies may cross backplanes). A component has "entered" a
 * state while it is in it; INITIALIZING also counts as entered once the component is in a role
 * (PRIMARY or SECONDARY), which it reaches only through INITIALIZING. A failed transition fails the
 * futures waiting for its state, so what waits on the other backplane fails too instead of hanging.
 *
 * <p>Thread-safe: guarded by {@code this}; futures are completed outside the lock, because
 * completing one runs the waiting backplane's next transition step.
 */
final class StateWaiters {

    private final Map<ComponentState, CompletableFuture<Void>> waiting = new EnumMap<>(ComponentState.class); // guarded by this
    /** The state last reported by {@link #entered}: read and written under the lock, so no wake-up is missed. */
    private ComponentState current = ComponentState.START; // guarded by this

    /** Completes once the component has entered {@code state}. */
    CompletableFuture<Void> whenEntered(ComponentState state) {
        synchronized (this) {
            if (!entered(current, state)) {
                return waiting.computeIfAbsent(state, s -> new CompletableFuture<>());
            }
        }
        return CompletableFuture.completedFuture(null);
    }

    /** The component is now in {@code now}: completes the waiters that state satisfies. */
    void entered(ComponentState now) {
        List<CompletableFuture<Void>> done = new ArrayList<>();
        synchronized (this) {
            current = now;
            waiting.entrySet().removeIf(e -> entered(now, e.getKey()) && done.add(e.getValue()));
        }
        done.forEach(f -> f.complete(null));
    }

    /** The component failed to enter {@code state}: fails that state's waiters with {@code failure}. */
    void failedToEnter(ComponentState state, Throwable failure) {
        CompletableFuture<Void> failed;
        synchronized (this) {
            failed = waiting.remove(state);
        }
        if (failed != null) {
            failed.completeExceptionally(failure);
        }
    }

    private static boolean entered(ComponentState current, ComponentState state) {
        return current == state || state == ComponentState.INITIALIZING && current.isRole();
    }
}
