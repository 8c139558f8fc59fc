package io.appbackplane;

/**
 * One operation on one object: the unit of work a backplane schedules (the seeds' {@code AppAction}).
 *
 * <p>An action runs on a backplane worker thread, never concurrently with another action of the
 * same object, and in the order its object received it. It should be short: a backplane is a
 * shared policy domain and a long action holds a worker that urgent work may be waiting for (see
 * {@link ActionContext#shouldYield()}). Blocking work belongs outside the backplane: start it
 * asynchronously and {@linkplain ActionContext#awaitReply wait for its reply} instead.
 *
 * @param <T> the type of the action's result
 */
@FunctionalInterface
public interface Action<T> {

    /**
     * Performs the operation.
     *
     * @param context what the action may ask of the backplane while it runs; valid only until the
     *     action returns
     * @return the result that completes the submitter's future, or the value returned by {@link
     *     ActionContext#awaitReply} or {@link ActionContext#yieldTo} when the action continues later
     * @throws Exception any failure; it is delivered to the submitter's future and counted, and
     *     neither the worker nor the object's other work is affected
     */
    T run(ActionContext context) throws Exception;
}
