package io.appbackplane;

import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;
import java.util.function.ToIntFunction;

/**
 * How an endpoint turns a request into an action (scheduling rule 10 and docs/scheduling.md's modules and states): which object runs it
 * — the object for a key taken from the request, one fixed object, an object of a
 * pool, or whatever a digester decides inside the backplane — at which priority, in which
 * component states it accepts work (default PRIMARY), and the handler. Immutable; the {@code with}
 * methods return modified copies. Register it with {@link BackplaneComponent#endpoint}.
 *
 * @param <Q> the request type
 * @param <R> the result type
 */
public final class EndpointSpec<Q, R> {

    /** How the object is chosen. */
    public enum Routing {
        /** The component's own object (the default). */
        COMPONENT_OBJECT,
        /** The object for a key taken from the request, in the caller's thread. */
        KEYED,
        /** One fixed object. */
        FIXED,
        /** An object of a pool, which serves one backlog (scheduling rule 12). */
        POOLED,
        /** Decided by a digester running on the component's digester object (rule 10). */
        DIGESTED
    }

    /** Decides the route of a request inside the backplane, on the component's digester object. */
    @FunctionalInterface
    public interface RouteDigester<Q> {
        Route route(ActionContext context, Q request) throws Exception;
    }

    private final String name;
    private final EndpointHandler<? super Q, ? extends R> handler;
    private final Routing routing;
    private final Function<? super Q, ?> keyOf;
    private final Object fixedKey;
    private final int poolSize;
    private final RouteDigester<? super Q> digester;
    private final ToIntFunction<? super Q> priorityOf;
    private final Set<ComponentState> acceptingStates;

    private EndpointSpec(String name, EndpointHandler<? super Q, ? extends R> handler, Routing routing,
            Function<? super Q, ?> keyOf, Object fixedKey, int poolSize, RouteDigester<? super Q> digester,
            ToIntFunction<? super Q> priorityOf, Set<ComponentState> acceptingStates) {
        this.name = name;
        this.handler = handler;
        this.routing = routing;
        this.keyOf = keyOf;
        this.fixedKey = fixedKey;
        this.poolSize = poolSize;
        this.digester = digester;
        this.priorityOf = priorityOf;
        this.acceptingStates = acceptingStates;
    }

    /**
     * An endpoint named {@code name} (unique within its component) that runs {@code handler} on
     * the component's own object at priority 1, accepting work in PRIMARY.
     */
    public static <Q, R> EndpointSpec<Q, R> named(String name, EndpointHandler<? super Q, ? extends R> handler) {
        Objects.requireNonNull(name, "endpoint name must not be null");
        if (name.isBlank()) {
            throw new IllegalArgumentException("endpoint name is blank; allowed: a non-blank name");
        }
        Objects.requireNonNull(handler, "endpoint handler must not be null");
        return new EndpointSpec<>(name, handler, Routing.COMPONENT_OBJECT, null, null, 0, null, request -> 1,
                EnumSet.of(ComponentState.PRIMARY));
    }

    /** Runs each request on the object for {@code keyOf(request)}: per-key order (rule 7). */
    public EndpointSpec<Q, R> keyedBy(Function<? super Q, ?> keyOf) {
        Objects.requireNonNull(keyOf, "keyOf must not be null");
        return new EndpointSpec<>(name, handler, Routing.KEYED, keyOf, null, 0, null, priorityOf, acceptingStates);
    }

    /** Runs every request on the object for {@code key}. */
    public EndpointSpec<Q, R> onObject(Object key) {
        Objects.requireNonNull(key, "object key must not be null");
        return new EndpointSpec<>(name, handler, Routing.FIXED, null, key, 0, null, priorityOf, acceptingStates);
    }

    /** Runs each request on a pool of {@code size} objects (1..1024) serving one backlog (scheduling rule 12). */
    public EndpointSpec<Q, R> pooled(int size) {
        if (size < 1 || size > 1024) {
            throw new IllegalArgumentException("pool size " + size + " of endpoint '" + name + "' is invalid; allowed: 1..1024");
        }
        return new EndpointSpec<>(name, handler, Routing.POOLED, null, null, size, null, priorityOf, acceptingStates);
    }

    /**
     * Sends each request first to the component's digester object (priority 0), where {@code
     * digester} decides its route; use it when routing is too expensive for the caller's thread.
     * The endpoint's own priority is then ignored.
     */
    public EndpointSpec<Q, R> digestedBy(RouteDigester<? super Q> digester) {
        Objects.requireNonNull(digester, "digester must not be null");
        return new EndpointSpec<>(name, handler, Routing.DIGESTED, null, null, 0, digester, priorityOf, acceptingStates);
    }

    /** A fixed priority (checked against the policy at each call, like a computed one). */
    public EndpointSpec<Q, R> withPriority(int priority) {
        if (priority < 0) {
            throw new IllegalArgumentException("priority " + priority + " of endpoint '" + name + "' is invalid; allowed: 0 or more");
        }
        return new EndpointSpec<>(name, handler, routing, keyOf, fixedKey, poolSize, digester, request -> priority,
                acceptingStates);
    }

    /** A priority computed from each request in the caller's thread. */
    public EndpointSpec<Q, R> withPriority(ToIntFunction<? super Q> priorityOf) {
        Objects.requireNonNull(priorityOf, "priorityOf must not be null");
        return new EndpointSpec<>(name, handler, routing, keyOf, fixedKey, poolSize, digester, priorityOf, acceptingStates);
    }

    /** The component states in which the endpoint accepts work (at least one). */
    public EndpointSpec<Q, R> acceptingIn(ComponentState first, ComponentState... more) {
        Objects.requireNonNull(first, "state must not be null");
        EnumSet<ComponentState> states = EnumSet.of(first, more);
        return new EndpointSpec<>(name, handler, routing, keyOf, fixedKey, poolSize, digester, priorityOf, states);
    }

    public String name() {
        return name;
    }

    public EndpointHandler<? super Q, ? extends R> handler() {
        return handler;
    }

    public Routing routing() {
        return routing;
    }

    public Function<? super Q, ?> keyOf() {
        return keyOf;
    }

    public Object fixedKey() {
        return fixedKey;
    }

    public int poolSize() {
        return poolSize;
    }

    public RouteDigester<? super Q> digester() {
        return digester;
    }

    public ToIntFunction<? super Q> priorityOf() {
        return priorityOf;
    }

    /** The accepting states (a copy). */
    public Set<ComponentState> acceptingStates() {
        return EnumSet.copyOf(acceptingStates);
    }

    @Override
    public String toString() {
        return "EndpointSpec{" + name + ", " + routing + ", accepting " + acceptingStates + "}";
    }
}
