package io.appbackplane;

import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * Converts requests into actions on a component's objects (docs/scheduling.md, modules and states): the object and priority
 * are decided in the caller's thread (or by a digester inside the backplane) and the request is
 * queued at once. Requests are accepted only while the component is in one of the endpoint's
 * accepting states. Thread-safe.
 *
 * @param <Q> the request type
 * @param <R> the result type
 */
public interface ActionEndpoint<Q, R> {

    /** The endpoint's name, unique within its component. */
    String name();

    /** The component the endpoint belongs to. */
    BackplaneComponent component();

    /**
     * Queues {@code request}. The future completes after the object's turn has ended, as for {@link
     * BackplaneComponent#submit}: callbacks attached to it run on the worker without holding the
     * object, their time charged to the CPU budget.
     *
     * @return completes with the handler's result (after any reply it waits for)
     * @throws BackplaneRejectedException with reason STATE when the component is not in an
     *     accepting state (the message names both), or when a limit is reached or the backplane closed
     */
    CompletableFuture<R> call(Q request);

    /** Like {@link #call} without a future: failures are counted and reported to the listeners. */
    void send(Q request);

    /** The states in which the endpoint accepts work. */
    Set<ComponentState> acceptingStates();

    /** The endpoint's counts and times. */
    EndpointStatistics statistics();
}
