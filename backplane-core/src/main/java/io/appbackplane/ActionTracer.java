package io.appbackplane;

/**
 * Follows each action from the moment it is accepted to the moment it ends, for tracing (the
 * Spring Boot starter's {@code backplane.observations.enabled} makes Micrometer Observations with
 * it). Unlike {@link ActionObserver}, which sees durations after the fact, a tracer is called at
 * the moments themselves, so spans get their real start times. Set one with {@link
 * Backplane.Builder#actionTracer}; a backplane without one pays one null check per action.
 *
 * <p>The calls for one action: {@link #actionQueued} on the submitting thread when the action is
 * accepted (so the caller's current trace context is there to see), then {@link #actionStarting}
 * and {@link #actionEnded} on the worker, just before and just after the action runs; or, for an
 * accepted action that never runs (cancelled with {@code cancelQueued}, failed by shutdown), {@link
 * #actionDropped} instead of the last two, so nothing the tracer opened stays open. Actions that
 * are not submitted (a reply handler, a {@code yieldTo} continuation) get no {@code actionQueued}:
 * instead {@link #followUpRegistered} is called on the worker while the action that registers them
 * runs (so that action's trace context is there to see), and their {@code actionStarting} sees its
 * token. Each call must be quick and must not block; what
 * it throws is logged and ignored, and never reaches the request.
 */
public interface ActionTracer {

    /**
     * An action was accepted; called on the submitting thread.
     *
     * @return a token handed to {@link #actionStarting} (may be null)
     */
    Object actionQueued(BackplaneComponent component, int priority);

    /**
     * The action is about to run; called on the worker.
     *
     * @param queued what {@link #actionQueued} returned, or null if it was not called or failed
     * @return a token handed to {@link #actionEnded} (may be null)
     */
    Object actionStarting(Object queued, BackplaneComponent component, int priority);

    /**
     * The action ended; called on the worker that ran it, right after it.
     *
     * @param running what {@link #actionStarting} returned, or null if it failed
     * @param failure what the action threw, or null
     */
    void actionEnded(Object running, Throwable failure);

    /**
     * The running action registered a follow-up: it awaits a reply (the handler will run as an
     * action) or yields to a continuation. Called on the worker, inside the action. The default
     * returns null.
     *
     * @return a token handed to the follow-up's {@link #actionStarting} (may be null); if the
     *     follow-up never runs (shutdown) it may be handed to {@link #actionDropped} or to nothing,
     *     so it must not hold anything open
     */
    default Object followUpRegistered(BackplaneComponent component, int priority) {
        return null;
    }

    /**
     * An accepted action was dropped without running: {@code cancelQueued} removed it, or the
     * backplane shut down before it ran. Called instead of {@link #actionStarting} and {@link
     * #actionEnded}, on the thread that dropped it.
     *
     * @param queued what {@link #actionQueued} returned, or null if it failed
     * @param reason what the action's request failed with ({@link java.util.concurrent.CancellationException}
     *     or {@link BackplaneShutdownException})
     */
    default void actionDropped(Object queued, Throwable reason) {
    }
}
