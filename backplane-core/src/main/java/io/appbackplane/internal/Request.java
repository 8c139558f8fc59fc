package io.appbackplane.internal;

import io.appbackplane.BackplaneShutdownException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.CompletableFuture;

/**
 * One accepted submission: it may take several actions (the first, a reply handler,
 * continuations) and finishes exactly once — completed, failed, or failed by shutdown — however
 * many threads race to finish it (a worker, a timeout, the shutdown sweep).
 */
final class Request {

    private static final VarHandle FINISHED;

    static {
        try {
            FINISHED = MethodHandles.lookup().findVarHandle(Request.class, "finished", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    final DefaultComponent component;
    final Object key;
    final int priority;
    /** The submitter's future, or null for fire-and-forget ({@code execute}, timer firings). */
    final CompletableFuture<Object> future;
    /** The timer this request is a firing of, or null. */
    final ScheduledTimer timer;
    /** The counters of the endpoint the request came through, or null. */
    final ActionCounters endpoint;
    /** A state transition: exempt from limits, admitted while draining. */
    final boolean system;

    @SuppressWarnings("unused") // accessed through FINISHED
    private volatile boolean finished;

    Request(DefaultComponent component, Object key, int priority, CompletableFuture<Object> future, ScheduledTimer timer,
            ActionCounters endpoint, boolean system) {
        this.component = component;
        this.key = key;
        this.priority = priority;
        this.future = future;
        this.timer = timer;
        this.endpoint = endpoint;
        this.system = system;
    }

    void complete(Object value) {
        finish(value, null, false, null);
    }

    void fail(Throwable failure) {
        finish(null, failure, false, null);
    }

    /**
     * {@link #complete}, called by a worker (or the step driver) during a turn: the submitter's
     * future is completed later, from {@code later}, once the object has left RUNNING (issue 13,
     * defect 6); the bookkeeping happens now.
     */
    void complete(Object value, FutureCompletions later) {
        finish(value, null, false, later);
    }

    /** {@link #fail}, deferring the future's completion as {@link #complete(Object, FutureCompletions)} does. */
    void fail(Throwable failure, FutureCompletions later) {
        finish(null, failure, false, later);
    }

    /** Fails the request because its backplane shut down before it could finish. */
    void abandon() {
        abandon(null);
    }

    /** {@link #abandon()}, deferring the future's completion to {@code later} if not null. */
    void abandon(FutureCompletions later) {
        finish(null, new BackplaneShutdownException("backplane '" + component.backplane().name() + "' shut down before the request to object '"
                + SafeText.of(key) + "' of component '" + component.name() + "' finished (drain timeout elapsed)"), true, later);
    }

    /** Whether the request has finished. */
    boolean isFinished() {
        return finished;
    }

    /**
     * Finishes the request once. With {@code later}, the submitter's future is handed to it instead
     * of completed here: completing runs the submitter's dependants on this thread.
     */
    private void finish(Object value, Throwable failure, boolean byShutdown, FutureCompletions later) {
        if (!FINISHED.compareAndSet(this, false, true)) {
            return; // already finished by another path (e.g. a timeout raced the shutdown sweep)
        }
        component.requestFinished(this, failure == null, byShutdown);
        if (timer != null) {
            timer.firingFinished();
        }
        if (future != null) {
            if (later != null) {
                later.add(future, value, failure);
            } else if (failure == null) {
                future.complete(value);
            } else {
                future.completeExceptionally(failure);
            }
        } else if (failure != null) {
            component.backplaneImpl().listeners.unobservedFailure(component, key, failure);
        }
    }
}
