package io.appbackplane;

/**
 * Continues an action once the reply it waited for has arrived (or failed, or timed out).
 *
 * <p>The handler runs as an action on the same object, before any request the object received
 * after it started waiting (scheduling rule 8), at the priority of the action that waited.
 *
 * @param <R> the reply's type
 * @param <T> the result type of the request the reply belongs to
 */
@FunctionalInterface
public interface ReplyHandler<R, T> {

    /**
     * Handles the reply.
     *
     * @param context the context of the continuation action
     * @param reply the reply's value, or {@code null} when {@code failure} is set
     * @param failure why the reply failed: the reply stage's own failure, a {@link
     *     ReplyTimeoutException}, or {@code null} on success
     * @return the request's result (or another {@code awaitReply}/{@code yieldTo} value)
     * @throws Exception a failure that completes the request exceptionally
     */
    T onReply(ActionContext context, R reply, Throwable failure) throws Exception;
}
