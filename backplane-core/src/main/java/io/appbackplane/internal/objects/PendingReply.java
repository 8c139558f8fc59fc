package io.appbackplane.internal.objects;

import io.appbackplane.ActionContext;
import io.appbackplane.ReplyHandler;
import io.appbackplane.ReplyTimeoutException;
import io.appbackplane.internal.base.TimerService;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.function.BiConsumer;

/**
 * The one record of an object waiting for its reply (scheduling rule 8): the listener registered on
 * the reply stage and everything the delivery needs. Delivered at most once: by the thread that
 * completes the reply stage, by the timeout timer, or failed by the shutdown sweep, whichever the
 * object accepts first (its monitor decides; see {@link WorkObject#deliver}).
 *
 * <h2>Why the record clears itself</h2>
 * A {@link CompletableFuture} cannot remove a dependent: once registered, this record stays on the
 * user's stage until the stage completes, which may be never (a long-lived stage waited on again
 * and again with timeouts). So the wait's end ({@link #end}: delivery accepted, timeout, shutdown)
 * drops every reference the record holds; what a stage keeps after it is this record with null
 * fields and the JDK's completion node, none of which reaches the object, the request or the
 * handler: 96 bytes per wait that ended without its stage completing (the
 * JDK's completion and dependent future, 64 bytes, and this cleared record), until the stage
 * completes or is dropped.
 *
 * <p>What stays on a stage that never completes is bounded: once a wait on it has timed out, later
 * waits on it join one shared listener instead of registering on the stage ({@link
 * SharedReplyListeners}). (Letting the JDK unlink each dead completion, through {@code
 * applyToEither(trigger)} completed at the timeout, was tried and dropped: each unlink scans the
 * stage's stack past the live completions, quadratic with many objects waiting with timeouts on
 * one shared stage: 200,000 such waits took 51 s instead of 4.5 s.)
 *
 * <h2>Memory</h2>
 * Three reference fields (24 bytes with compressed references); a wait with a timeout is a {@link
 * Timed} record, one field more. A waiting conversation costs this record, its object and the
 * completion the stage needs. The stage and the timeout are not kept: {@link RunContext} holds
 * them from {@code awaitReply} until {@link #listen}, and the timeout's timer task holds what only
 * the timeout needs.
 */
public sealed class PendingReply implements BiConsumer<Object, Throwable> permits PendingReply.Timed {

    /** The waiting object; null once the wait ended. Read without the object's monitor (hence volatile). */
    private volatile WorkObject object;
    /** The request the waiting action works for; guarded by the object's monitor, null once the wait ended. */
    private Request request;
    /** Guarded by the object's monitor, null once the wait ended. */
    private ReplyHandler<Object, ?> handler;

    @SuppressWarnings("unchecked")
    private PendingReply(WorkObject object, Request request, ReplyHandler<?, ?> handler) {
        this.object = object;
        this.request = request;
        this.handler = (ReplyHandler<Object, ?>) handler;
    }

    /**
     * The record of a wait, with or without a timeout. A tracer's token for the handler's action
     * ({@code trace}, null without a tracer) travels with the handler, so that an untraced wait,
     * the common case, pays no field for it.
     */
    public static PendingReply create(WorkObject object, Request request, ReplyHandler<?, ?> handler, boolean timed,
            Object trace) {
        ReplyHandler<?, ?> h = trace == null ? handler : new TracedHandler(handler, trace);
        return timed ? new Timed(object, request, h) : new PendingReply(object, request, h);
    }

    /**
     * Starts listening for the reply and, with a {@code timeout}, for the timeout; called by the
     * worker after {@link WorkObject#startWaiting} published this record.
     */
    public void listen(TimerService timers, SharedReplyListeners shared, long now, CompletionStage<?> stage, Duration timeout) {
        if (timeout != null) {
            ((Timed) this).startTimeout(timers, now, timeout, () -> {
                timedOut(timeout);
                shared.timedOut(stage);
            });
        }
        try {
            shared.listen(this, stage);
        } catch (RuntimeException | Error e) { // a foreign CompletionStage that cannot take a callback
            accept(null, e);
        }
    }

    /** The reply stage completed (in whatever thread completed it). */
    @Override
    public void accept(Object value, Throwable failure) {
        WorkObject waiting = object;
        if (waiting != null) {
            waiting.component.deliverReply(this, waiting, value, unwrap(failure));
        }
    }

    private void timedOut(Duration timeout) {
        WorkObject waiting = object;
        if (waiting != null) {
            waiting.component.deliverReply(this, waiting, null,
                    new ReplyTimeoutException(waiting.component.name(), waiting.key, timeout));
        }
    }

    /**
     * Ends the wait with its reply: returns the handler's action (to run at the head of the
     * object's queue) and clears this record. Called once, under the object's monitor, by the
     * delivery the object accepted.
     */
    ActionNode end(Object value, Throwable failure, long now) {
        ReplyHandler<Object, ?> h = handler;
        Request r = request;
        clear();
        if (h instanceof TracedHandler traced) {
            return ActionNode.create(new ReplyAction(traced.handler, value, failure), r, now, traced.trace);
        }
        return ActionNode.create(new ReplyAction(h, value, failure), r, now, null);
    }

    /**
     * Ends the wait without a reply (shutdown): returns the request to fail and clears this record.
     * Called once, under the object's monitor.
     */
    Request abandon() {
        Request r = request;
        clear();
        return r;
    }

    /** Whether the wait has ended (delivered, timed out or abandoned). */
    boolean hasEnded() {
        return object == null;
    }

    private void clear() {
        request = null;
        handler = null;
        object = null; // volatile write, then Timed's read of its task: see Timed.startTimeout
        ended();
    }

    /** The wait has just ended; a {@link Timed} record cancels its timer. */
    void ended() {
    }

    /** The record of a wait with a timeout: it also owns the timeout's timer. */
    static final class Timed extends PendingReply {

        /** The timeout's timer until the wait ends (then cancelled and dropped). */
        private volatile TimerService.Task timeoutTask;

        private Timed(WorkObject object, Request request, ReplyHandler<?, ?> handler) {
            super(object, request, handler);
        }

        /** Schedules the timeout. */
        void startTimeout(TimerService timers, long now, Duration timeout, Runnable onTimeout) {
            timeoutTask = timers.schedule(now + timeout.toNanos(), onTimeout);
            // A shutdown sweep may have ended the wait before the task existed (then ended() found
            // none): write the task, then read the object; clear() writes the object, then reads the task.
            if (hasEnded()) {
                ended();
            }
        }

        @Override
        void ended() {
            TimerService.Task task = timeoutTask;
            if (task != null) {
                timeoutTask = null;
                task.cancel();
            }
        }
    }

    private static Throwable unwrap(Throwable failure) {
        if (failure instanceof CompletionException && failure.getCause() != null) {
            return failure.getCause();
        }
        return failure;
    }

    /**
     * A handler and the tracer's token for its action, for a wait made while a tracer is set;
     * {@link #end} unwraps it, so it never runs.
     */
    private static final class TracedHandler implements ReplyHandler<Object, Object> {
        final ReplyHandler<Object, ?> handler;
        final Object trace;

        @SuppressWarnings("unchecked")
        TracedHandler(ReplyHandler<?, ?> handler, Object trace) {
            this.handler = (ReplyHandler<Object, ?>) handler;
            this.trace = trace;
        }

        @Override
        public Object onReply(ActionContext context, Object value, Throwable failure) {
            throw new IllegalStateException("a traced reply handler runs unwrapped");
        }
    }

    /** The reply handler's action: runs the handler with the delivered reply. */
    static final class ReplyAction implements io.appbackplane.Action<Object> {
        final ReplyHandler<Object, ?> handler;
        private final Object value;
        private final Throwable failure;

        ReplyAction(ReplyHandler<Object, ?> handler, Object value, Throwable failure) {
            this.handler = handler;
            this.value = value;
            this.failure = failure;
        }

        @Override
        public Object run(ActionContext context) throws Exception {
            return handler.onReply(context, value, failure);
        }
    }
}
