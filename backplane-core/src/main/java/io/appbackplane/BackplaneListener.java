package io.appbackplane;

import java.time.Duration;

/**
 * Receives a backplane's warnings. Called on the thread where the event happened (usually a
 * worker), so implementations must be quick and must not throw (what they throw is logged and
 * ignored).
 */
public interface BackplaneListener {

    /** An action ran longer than the policy's slow-action threshold (scheduling rule 14). */
    default void onSlowAction(SlowAction slowAction) {}

    /**
     * An action failed and nobody was waiting for its result (an {@code execute} call or a timer
     * firing).
     */
    default void onUnobservedFailure(String component, Object objectKey, Throwable failure) {}

    /** A slow action: where it ran and how long it took. */
    record SlowAction(String backplane, String component, Object objectKey, int priority, Duration runTime, Duration threshold) {}
}
