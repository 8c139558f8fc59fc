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
        finish(value, null, false);
    }

    void fail(Throwable failure) {
        finish(null, failure, false);
    }

    /** Fails the request because its backplane shut down before it could finish. */
    void abandon() {
        finish(null, new BackplaneShutdownException("backplane '" + component.backplane().name() + "' shut down before the request to object '"
                + SafeText.of(key) + "' of component '" + component.name() + "' finished (drain timeout elapsed)"), true);
    }

    /** Whether the request has finished. */
    boolean isFinished() {
        return finished;
    }

    private void finish(Object value, Throwable failure, boolean byShutdown) {
        if (!FINISHED.compareAndSet(this, false, true)) {
            return; // already finished by another path (e.g. a timeout raced the shutdown sweep)
        }
        component.requestFinished(this, failure == null, byShutdown);
        if (timer != null) {
            timer.firingFinished();
        }
        if (future != null) {
            if (failure == null) {
                future.complete(value);
            } else {
                future.completeExceptionally(failure);
            }
        } else if (failure != null) {
            component.backplaneImpl().unobservedFailure(component, key, failure);
        }
    }
}
