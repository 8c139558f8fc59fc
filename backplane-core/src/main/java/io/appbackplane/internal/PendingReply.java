package io.appbackplane.internal;

import io.appbackplane.ReplyHandler;
import io.appbackplane.ReplyTimeoutException;
import java.time.Duration;
import java.util.concurrent.CompletionStage;
import java.util.function.BiConsumer;

/**
 * The one reply an object waits for (DESIGN rule 8). Delivered at most once: by the thread that
 * completes the reply stage, or by the timeout timer, whichever the object accepts first (the
 * object's monitor decides; see {@link WorkObject#deliver}).
 */
final class PendingReply implements BiConsumer<Object, Throwable> {

    final WorkObject object;
    final Request request;
    /** The priority of the action that waited: the reply handler runs at it. */
    final int priority;
    private final CompletionStage<?> stage;
    private final ReplyHandler<Object, ?> handler;
    private final Duration timeout;
    /** Set under the object's monitor when the object accepts the delivery. */
    boolean delivered;
    private volatile TimerService.Task timeoutTask;

    @SuppressWarnings("unchecked")
    PendingReply(WorkObject object, Request request, int priority, CompletionStage<?> stage,
            ReplyHandler<?, ?> handler, Duration timeout) {
        this.object = object;
        this.request = request;
        this.priority = priority;
        this.stage = stage;
        this.handler = (ReplyHandler<Object, ?>) handler;
        this.timeout = timeout;
    }

    /** Starts listening for the reply and, if it has a timeout, for the timeout. */
    void listen(TimerService timers, long now) {
        if (timeout != null) {
            timeoutTask = timers.schedule(now + timeout.toNanos(), this::timedOut);
        }
        try {
            stage.whenComplete(this);
        } catch (RuntimeException | Error e) { // a foreign CompletionStage that cannot take a callback
            accept(null, e);
        }
    }

    /** The reply stage completed (in whatever thread completed it). */
    @Override
    public void accept(Object value, Throwable failure) {
        if (object.component.backplaneImpl().deliverReply(this, value, unwrap(failure))) {
            cancelTimeout();
        }
    }

    private void timedOut() {
        object.component.backplaneImpl().deliverReply(
                this, null, new ReplyTimeoutException(object.component.name(), object.key, timeout));
    }

    void cancelTimeout() {
        TimerService.Task task = timeoutTask;
        if (task != null) {
            task.cancel();
        }
    }

    Object handle(io.appbackplane.ActionContext context, Object value, Throwable failure) throws Exception {
        return handler.onReply(context, value, failure);
    }

    private static Throwable unwrap(Throwable failure) {
        if (failure instanceof java.util.concurrent.CompletionException && failure.getCause() != null) {
            return failure.getCause();
        }
        return failure;
    }
}
