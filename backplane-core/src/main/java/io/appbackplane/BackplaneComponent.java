package io.appbackplane;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * An application installed into a backplane: it owns objects (each with its own ordered work
 * queue) and submits actions to them. Obtain one from {@link Backplane#install}. Thread-safe; every
 * submitting method dispatches in the caller's thread (scheduling rule 10) and returns at once.
 *
 * <p>Keyed objects are created on demand by the first request for their key and released when
 * idle (no queued or running work, not waiting for a reply) unless pinned by an {@link
 * ObjectHandle}, so millions of keys do not leak (scheduling rule 16): once idle for the component's
 * idle-object retention ({@link ComponentSpec#withIdleObjectRetention}, default 100 ms), or at once
 * with a retention of zero.
 */
public interface BackplaneComponent {

    /** The component's name, unique within its backplane. */
    String name();

    /** The backplane the component is installed in. */
    Backplane backplane();

    /**
     * Queues {@code action} to the object for {@code key} at {@code priority}.
     *
     * <p>The future is completed on the worker that ran the request's last action, after the
     * object's turn has ended: callbacks attached to it run there without holding the object, and
     * their time is charged to the CPU budget and counted in {@code
     * statistics().cpu().futureCallbackTime()} (docs/scheduling.md, rule 15). Attach blocking
     * callbacks with an {@code ...Async} variant and an executor of your own.
     *
     * @return completes with the action's result (after any reply it waits for), or exceptionally
     *     with its failure, a {@link ReplyTimeoutException}, or a {@link BackplaneShutdownException}
     * @throws BackplaneRejectedException if the component or backplane is at its limit, or closed
     * @throws IllegalArgumentException if {@code priority} is not one of the policy's priorities
     */
    <T> CompletableFuture<T> submit(Object key, int priority, Action<T> action);

    /**
     * Like {@link #submit} without a future: a failure is counted and reported to the backplane's
     * {@linkplain BackplaneListener listeners} (and logged).
     */
    void execute(Object key, int priority, Action<?> action);

    /**
     * A handle to the object for {@code key}, created if needed, which stays pinned (never
     * released when idle) until the handle is {@linkplain ObjectHandle#release() released}.
     */
    ObjectHandle object(Object key);

    /**
     * A pool of {@code size} equivalent objects that load-balances requests (scheduling rule 12),
     * created on first use; the same name returns the same pool.
     *
     * @throws IllegalArgumentException if {@code size} is not in 1..1024, or a pool of that name
     *     exists with another size
     */
    ObjectPool pool(String name, int size);

    /**
     * Queues {@code message} to this component's digester object at the {@linkplain
     * #DIGESTER_PRIORITY digester priority}; there, {@code digester} decides the object, priority
     * and action of the real work, which is then queued (scheduling rule 10). Use it when choosing
     * the object or priority is too expensive for the caller's thread.
     *
     * @return completes with the real work's result, or fails with the digester's or the real
     *     work's failure (including a rejection of the real work)
     */
    <M, T> CompletableFuture<T> digest(M message, Digester<M, T> digester);

    /** The priority digester actions run at: the most urgent, so dispatch is never starved. */
    int DIGESTER_PRIORITY = 0;

    /** The key of a component's own object: its state transitions and default endpoints run there. */
    Object COMPONENT_KEY = new Object() {
        @Override
        public String toString() {
            return "<component>";
        }
    };

    /** The key of a component's digester object. */
    Object DIGESTER_KEY = new Object() {
        @Override
        public String toString() {
            return "<digester>";
        }
    };

    /**
     * Fails the queued (not yet started) actions of the object for {@code key} with a {@link
     * java.util.concurrent.CancellationException}; a running action and an awaited reply are not
     * affected, nor is the action a worker has already taken off the queue to run next (it counts as
     * started). Typically called from a {@link ComponentSpec.MakeRoom} hook.
     *
     * @return how many actions were cancelled
     */
    int cancelQueued(Object key);

    /** Runs {@code action} once on the object for {@code key}, after {@code delay}. */
    TimerHandle schedule(Object key, int priority, Duration delay, Action<?> action);

    /**
     * Runs {@code action} every {@code period} on the object for {@code key}, first after {@code
     * initialDelay}. A firing is skipped while the previous one is still queued (scheduling rule 13).
     */
    TimerHandle scheduleAtFixedRate(Object key, int priority, Duration initialDelay, Duration period, Action<?> action);

    /**
     * Runs {@code action} on the object for {@code key} first after {@code initialDelay}, then
     * {@code delay} after each run completes.
     */
    TimerHandle scheduleWithFixedDelay(Object key, int priority, Duration initialDelay, Duration delay, Action<?> action);

    /** The component's module state (docs/scheduling.md, modules and states). */
    ComponentState state();

    /** The names of the components this one depends on. */
    java.util.Set<String> dependencies();

    /**
     * Registers an endpoint.
     *
     * @throws IllegalArgumentException if the component has an endpoint of that name
     */
    <Q, R> ActionEndpoint<Q, R> endpoint(EndpointSpec<Q, R> spec);

    /** The registered endpoints. */
    java.util.Collection<ActionEndpoint<?, ?>> endpoints();

    /**
     * Registers a timer endpoint: it runs while the component is in one of its accepting states and
     * is stopped while it is not.
     *
     * @throws IllegalArgumentException if the component has a timer of that name, or the priority is invalid
     */
    TimerHandle timer(TimerSpec spec);

    /**
     * Subscribes one of this component's endpoints to {@code topic}: every event published there
     * that is an instance of {@code eventType} becomes one action through the endpoint.
     */
    <E> Subscription subscribe(String topic, Class<E> eventType, ActionEndpoint<? super E, ?> endpoint);

    /** A subscription of an endpoint to a topic. */
    interface Subscription {
        String topic();

        /** Stops delivering; idempotent. */
        void cancel();
    }

    /** The outstanding-request limit. */
    int operationLimit();

    /** Changes the outstanding-request limit (1..{@value Integer#MAX_VALUE}). */
    void setOperationLimit(int limit);

    /**
     * The admission reserve in force (scheduling rule 11): the component's own, else its backplane
     * policy's; see {@link ComponentSpec#withAdmissionReserve}.
     */
    double admissionReserve();

    /**
     * How many outstanding requests the component admits a request at {@code priority} up to: the
     * {@linkplain #operationLimit() limit} less the reserve kept for more urgent priorities (the
     * whole limit for priority 0).
     *
     * @throws IllegalArgumentException if the backplane has no such priority
     */
    int admissionThreshold(int priority);

    /**
     * Requests accepted but not yet finished: exact while nothing changes; while requests come and
     * go, a moment-old value that may be slightly low, never above the limit.
     */
    int outstanding();

    /** The number of objects alive (keyed objects not yet released, and pinned ones). */
    int objectCount();

    /** An immutable snapshot of the component's statistics. */
    ComponentStatistics statistics();
}
