package io.appbackplane.internal.objects;

import io.appbackplane.BackplaneComponent;

/**
 * The component as its requests see it: what a request tells when it finishes. Implemented by the
 * component; called by whichever thread finishes the request (a worker, a timeout, the shutdown
 * sweep, the dispatcher), once per request.
 */
public interface RequestOwner extends BackplaneComponent {

    /** Called exactly once per accepted request, by {@link Request}: un-counts it from the outstanding counts and counts its outcome. */
    void requestFinished(Request request, boolean success, boolean byShutdown);

    /** A fire-and-forget request failed and nobody awaits its result: the backplane's listeners are told. */
    void unobservedFailure(Object key, Throwable failure);
}
