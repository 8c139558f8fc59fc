package io.appbackplane;

/**
 * The work an {@link ActionEndpoint} does for one request, run as an action on the object the
 * endpoint chose. Like any action it may {@linkplain ActionContext#awaitReply wait for a reply}.
 *
 * @param <Q> the request type
 * @param <R> the result type
 */
@FunctionalInterface
public interface EndpointHandler<Q, R> {

    /** Handles {@code request}; see {@link Action#run}. */
    R handle(ActionContext context, Q request) throws Exception;
}
