package io.appbackplane.internal.components;

import io.appbackplane.Action;
import io.appbackplane.ActionEndpoint;
import io.appbackplane.BackplaneComponent;
import io.appbackplane.ComponentState;
import io.appbackplane.EndpointSpec;
import io.appbackplane.EndpointStatistics;
import io.appbackplane.Route;
import io.appbackplane.internal.base.ActionCounters;
import io.appbackplane.internal.objects.PooledObjects;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * An {@link ActionEndpoint}: checks the component's state, routes the request in the caller's
 * thread (or through the digester object) and queues the handler as an action (scheduling rule 10).
 */
final class DefaultEndpoint<Q, R> implements ActionEndpoint<Q, R> {

    private final DefaultComponent component;
    private final EndpointSpec<Q, R> spec;
    private final Set<ComponentState> accepting;
    private final PooledObjects pool; // only for POOLED routing
    final ActionCounters counters = new ActionCounters();

    DefaultEndpoint(DefaultComponent component, EndpointSpec<Q, R> spec) {
        this.component = component;
        this.spec = spec;
        this.accepting = spec.acceptingStates();
        this.pool = spec.routing() == EndpointSpec.Routing.POOLED
                ? (PooledObjects) component.pool("endpoint:" + spec.name(), spec.poolSize())
                : null;
    }

    @Override
    public String name() {
        return spec.name();
    }

    @Override
    public BackplaneComponent component() {
        return component;
    }

    @Override
    public Set<ComponentState> acceptingStates() {
        return Set.copyOf(accepting);
    }

    @Override
    public CompletableFuture<R> call(Q request) {
        CompletableFuture<Object> future = new CompletableFuture<>();
        dispatch(request, future);
        @SuppressWarnings("unchecked")
        CompletableFuture<R> result = (CompletableFuture<R>) (CompletableFuture<?>) future;
        return result;
    }

    @Override
    public void send(Q request) {
        dispatch(request, null);
    }

    private void dispatch(Q request, CompletableFuture<Object> future) {
        Objects.requireNonNull(request, "request to endpoint '" + spec.name() + "' must not be null");
        checkAccepting();
        Action<R> action = context -> spec.handler().handle(context, request);
        switch (spec.routing()) {
            case COMPONENT_OBJECT -> component.dispatchFor(this, BackplaneComponent.COMPONENT_KEY, priority(request), action, future);
            case KEYED -> component.dispatchFor(this, key(request), priority(request), action, future);
            case FIXED -> component.dispatchFor(this, spec.fixedKey(), priority(request), action, future);
            case POOLED -> component.dispatchToPool(this, pool, priority(request), action, future);
            case DIGESTED -> digest(request, action, future);
        }
    }

    /** The digester object routes the request; the endpoint's counts start with the real work. */
    private void digest(Q request, Action<R> action, CompletableFuture<Object> future) {
        component.dispatchFor(null, BackplaneComponent.DIGESTER_KEY, BackplaneComponent.DIGESTER_PRIORITY, context -> {
            Route route = spec.digester().route(context, request);
            Objects.requireNonNull(route, "the digester of endpoint '" + spec.name() + "' returned no route");
            component.dispatchFor(this, checkKey(route.key(), request), checkPriority(route.priority()), action, future);
            return null;
        }, future == null ? null : failuresOnly(future));
    }

    /** A future that passes only a failure of the digester action on to {@code target}. */
    private static CompletableFuture<Object> failuresOnly(CompletableFuture<Object> target) {
        CompletableFuture<Object> digesterResult = new CompletableFuture<>();
        digesterResult.whenComplete((ignored, failure) -> {
            if (failure != null) {
                target.completeExceptionally(failure);
            }
        });
        return digesterResult;
    }

    private void checkAccepting() {
        ComponentState state = component.state();
        if (!accepting.contains(state)) {
            throw component.admission.rejectForState(this, "endpoint '" + spec.name() + "' of component '" + component.name()
                    + "' accepts work in " + accepting + ", but the component is in " + state
                    + (component.host().isShutdown() ? "; its backplane is shutting down" : "; retry when it is"));
        }
    }

    private Object key(Q request) {
        return checkKey(spec.keyOf().apply(request), request);
    }

    /** The key a key function or digester computed, or an exception naming the endpoint. */
    private Object checkKey(Object key, Q request) {
        if (key == null) {
            throw new IllegalArgumentException("endpoint '" + spec.name() + "' of component '" + component.name()
                    + "' computed a null object key for request " + request + "; allowed: a non-null key");
        }
        return key;
    }

    private int priority(Q request) {
        return checkPriority(spec.priorityOf().applyAsInt(request));
    }

    /** The priority a priority function or digester computed, or an exception naming the endpoint. */
    private int checkPriority(int priority) {
        int priorities = component.host().policy().priorities();
        if (priority < 0 || priority >= priorities) {
            throw new IllegalArgumentException("endpoint '" + spec.name() + "' of component '" + component.name()
                    + "' computed priority " + priority + "; allowed: 0.." + (priorities - 1));
        }
        return priority;
    }

    @Override
    public EndpointStatistics statistics() {
        return new EndpointStatistics(component.name(), spec.name(), counters.snapshot());
    }

    @Override
    public String toString() {
        return "ActionEndpoint{" + component.name() + "/" + spec.name() + "}";
    }
}
