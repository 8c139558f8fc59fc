package io.appbackplane;

import java.util.concurrent.RejectedExecutionException;

/**
 * A request was not accepted: the caller should back off and retry later (or give up). Thrown
 * synchronously by the submitting call, so a rejected request is never silently lost. A rejection
 * after the backplane began to shut down is never {@linkplain #isRetryable() retryable}, whatever
 * its reason: the node is going away, so a client should go elsewhere.
 */
public class BackplaneRejectedException extends RejectedExecutionException {

    private static final long serialVersionUID = 1L;

    /** Why a request was rejected. */
    public enum Reason {
        /** The component reached its outstanding-operation limit and could not make room. */
        COMPONENT_LIMIT,
        /** The backplane reached its total outstanding-operation limit. */
        BACKPLANE_LIMIT,
        /** The backplane is shutting down or closed. */
        CLOSED,
        /** The component is not in a state in which the endpoint accepts work. */
        STATE,
        /**
         * An action's {@linkplain ActionContext#offload offloaded} blocking call found the
         * backplane's offload threads busy and its offload queue full ({@code offload-threads},
         * {@code offload-queue}); the request that offloaded it fails with this rejection when its
         * reply handler rethrows it (as {@code @Endpoint(blocking = true)} does).
         */
        OFFLOAD_LIMIT
    }

    private final Reason reason;
    private final String backplane;
    private final String component;
    private final boolean retryable;

    /** A rejection that is retryable unless its reason is {@link Reason#CLOSED}. */
    public BackplaneRejectedException(Reason reason, String backplane, String component, String message) {
        this(reason, backplane, component, message, reason != Reason.CLOSED);
    }

    /** A rejection that says whether retrying later may succeed. */
    public BackplaneRejectedException(Reason reason, String backplane, String component, String message,
            boolean retryable) {
        super(message);
        this.reason = reason;
        this.backplane = backplane;
        this.component = component;
        this.retryable = retryable;
    }

    /** Why the request was rejected. */
    public Reason reason() {
        return reason;
    }

    /** The backplane that rejected the request. */
    public String backplane() {
        return backplane;
    }

    /** The component that rejected the request, or {@code null} when the backplane did. */
    public String component() {
        return component;
    }

    /**
     * Whether retrying later may succeed: false for {@link Reason#CLOSED} and for any rejection
     * after shutdown began (a {@link Reason#STATE} rejection by a component going DOWN, a limit met
     * by follow-up work while draining).
     */
    public boolean isRetryable() {
        return retryable;
    }
}
