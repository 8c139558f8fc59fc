package io.appbackplane;

/**
 * Sees every action's queue wait and run time, for example to feed latency histograms (the
 * Spring Boot starter's {@code backplane.metrics.histograms}). Register one with {@link
 * Backplane.Builder#actionObserver}; a backplane without one pays nothing for the hook (one null
 * check per action).
 *
 * <p>Called on the worker right after each action, before the action's request completes, so an
 * implementation must be quick, must not block and must not throw (what it throws is logged and
 * ignored, and never reaches the request).
 */
@FunctionalInterface
public interface ActionObserver {

    /**
     * An action ran.
     *
     * @param component the component that owns the action's object
     * @param priority the action's priority (0 is the most urgent)
     * @param queueNanos from when the action was queued to when it started, on the backplane's clock
     * @param runNanos how long the action ran, on the backplane's clock. A worker that goes straight
     *     on from one action to the next starts the next where the last one ended (saving a clock
     *     read per action), so this includes the worker's scheduling before the action (ending the
     *     last turn, taking this object; usually well under a microsecond) and the queue wait is
     *     shorter by as much; time in observers, listeners and tracers is never counted
     */
    void actionRan(BackplaneComponent component, int priority, long queueNanos, long runNanos);
}
