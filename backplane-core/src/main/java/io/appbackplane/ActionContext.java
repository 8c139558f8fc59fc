package io.appbackplane;

import java.time.Duration;
import java.util.concurrent.CompletionStage;

/**
 * What a running {@link Action} may ask of its backplane. A context is valid only on the worker
 * thread running the action and only until the action returns; using it afterwards fails with
 * {@link IllegalStateException}.
 */
public interface ActionContext {

    /** The backplane running the action. */
    Backplane backplane();

    /** The component that owns the action's object. */
    BackplaneComponent component();

    /** The key of the object the action runs on. */
    Object objectKey();

    /** The priority of the action (0 is the most urgent). */
    int priority();

    /**
     * Parks the object on the wait queue until {@code reply} completes, then runs {@code handler}
     * on the object before any request it received in the meantime (DESIGN rule 8). No thread is
     * held while waiting. The request's future completes with the handler's result.
     *
     * <p>The action must return the value of this call (which is {@code null}); returning anything
     * else fails the request with {@link IllegalStateException}. An object has at most one
     * outstanding reply: a second call in the same action fails with {@link
     * IllegalStateException}.
     *
     * @param reply the asynchronous work's result; completing it (in any thread) delivers the reply
     * @param handler continues the request when the reply arrives
     * @return {@code null}, to be returned by the action
     */
    <R, T> T awaitReply(CompletionStage<R> reply, ReplyHandler<? super R, T> handler);

    /**
     * Like {@link #awaitReply(CompletionStage, ReplyHandler)}, but if the reply has not arrived
     * within {@code timeout} the handler receives a {@link ReplyTimeoutException} as its failure,
     * and a later reply is ignored.
     *
     * @param timeout how long to wait, measured on the backplane's clock; must be positive
     */
    <R, T> T awaitReply(CompletionStage<R> reply, Duration timeout, ReplyHandler<? super R, T> handler);

    /**
     * Whether more urgent work is waiting for a worker anywhere in this JVM (priority inheritance
     * across backplanes, DESIGN rule 14). Long actions should poll this and, when it is {@code
     * true}, return {@link #yieldTo} with the rest of their work. Cheap enough to call in a loop.
     */
    boolean shouldYield();

    /**
     * Ends this action early and queues {@code continuation} at the head of the object's queue, so
     * more urgent work can run first; the object rejoins its ready queue. The request's future
     * completes with the continuation's result. The action must return the value of this call
     * ({@code null}).
     */
    <T> T yieldTo(Action<T> continuation);
}
