package io.appbackplane;

import io.appbackplane.internal.OffloadExecutor;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
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
     * on the object before any request it received in the meantime (scheduling rule 8). No thread is
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
     * Runs a blocking call (JDBC, a blocking HTTP client, file I/O) off the workers, and handles its
     * outcome as a reply: the object waits as for {@link #awaitReply(CompletionStage, ReplyHandler)},
     * no worker is held while the call blocks, and {@code handler} runs on the object before any
     * request it received in the meantime, so per-key order holds. The call runs on a virtual
     * thread on JDK 21+ and on a platform thread on 17-20 (the policy's {@linkplain
     * BackplanePolicy#offloadThreadKind() offload thread kind}), at most {@linkplain
     * BackplanePolicy#offloadThreads() offload-threads} calls of the backplane at once and {@linkplain
     * BackplanePolicy#offloadQueue() offload-queue} more waiting.
     *
     * <p>The call's result is the handler's reply, its exception the handler's failure. When the
     * backplane cannot take the call (threads and queue full, or shut down) the call does not run
     * and the handler receives a {@link BackplaneRejectedException} saying why ({@code
     * OFFLOAD_LIMIT}, retryable; {@code CLOSED} once the backplane shut down): rethrow it to fail the
     * request, which a web endpoint then answers with 503 like any other rejection. The call runs outside the action, so it must not touch the
     * object's state (hand it what it needs, apply its result in the handler) and must not use this
     * context. As with {@code awaitReply}, the action must return this call's value ({@code null}),
     * and an object has at most one outstanding reply or offload.
     *
     * @param call the blocking work
     * @param handler continues the request with the call's outcome
     * @return {@code null}, to be returned by the action
     */
    default <R, T> T offload(Callable<R> call, ReplyHandler<? super R, T> handler) {
        Objects.requireNonNull(call, "call must not be null");
        CompletableFuture<R> reply = new CompletableFuture<>();
        T value = awaitReply(reply, handler); // checks the context and the one-reply rule before the call starts
        OffloadExecutor.start(backplane(), component().name(), call, reply);
        return value;
    }

    /**
     * Like {@link #offload(Callable, ReplyHandler)}, but if the call has not returned within {@code
     * timeout} the handler receives a {@link ReplyTimeoutException} and the call's later outcome is
     * ignored. The call itself is not interrupted: bound it with its own timeout too (a JDBC query
     * timeout, an HTTP read timeout), or it keeps an offload thread until it returns.
     *
     * @param timeout how long to wait, measured on the backplane's clock; must be positive
     */
    default <R, T> T offload(Callable<R> call, Duration timeout, ReplyHandler<? super R, T> handler) {
        Objects.requireNonNull(call, "call must not be null");
        CompletableFuture<R> reply = new CompletableFuture<>();
        T value = awaitReply(reply, timeout, handler);
        OffloadExecutor.start(backplane(), component().name(), call, reply);
        return value;
    }

    /**
     * Whether more urgent work is waiting for a worker anywhere in this JVM (priority inheritance
     * across backplanes, scheduling rule 14). Long actions should poll this and, when it is {@code
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
