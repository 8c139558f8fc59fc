package io.appbackplane.internal.objects;

import io.appbackplane.BackplaneShutdownException;
import io.appbackplane.internal.base.ActionCounters;
import io.appbackplane.internal.base.FutureCompletions;
import io.appbackplane.internal.base.SafeText;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.CompletableFuture;

/**
 * One accepted submission: it may take several actions (the first, a reply handler,
 * continuations) and finishes exactly once — completed, failed, or failed by shutdown — however
 * many threads race to finish it (a worker, a timeout, the shutdown sweep).
 */
public final class Request {

    private static final VarHandle BITS;

    static {
        try {
            BITS = MethodHandles.lookup().findVarHandle(Request.class, "bits", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Bits of {@code bits} above the priority, which is valid (0..63, see the constructor) and fits below them. */
    private static final int PRIORITY_MASK = 0xFFFF;
    private static final int SYSTEM = 1 << 16;
    private static final int FINISHED = 1 << 17;

    final RequestOwner component;
    public final Object key;
    /** The submitter's future, or null for fire-and-forget ({@code execute}, timer firings). */
    public final CompletableFuture<Object> future;
    /**
     * The timer this request is a firing of (a {@link Firing}), or the counters of the
     * endpoint it came through (an {@link ActionCounters}), or null: one field for both, since a
     * timer's firing comes through no endpoint, keeps a request at 32 bytes (with compressed
     * references), and a waiting conversation holds one (docs/benchmarks.md, W4).
     */
    private final Object origin;

    /**
     * A timer whose firings are requests (the components' {@code ScheduledTimer}): told when a firing
     * it queued has finished, whichever way, so that it allows the next one (at most one outstanding
     * firing per timer, rule 13).
     */
    public interface Firing {
        /** The firing's request has finished. */
        void firingFinished();
    }
    /**
     * The priority (low 16 bits), {@link #SYSTEM} (a state transition: exempt from limits, admitted
     * while draining) and {@link #FINISHED}: the first two never change after construction, so a
     * plain read sees them; {@code FINISHED} is set once, by a CAS, and read with acquire semantics.
     */
    @SuppressWarnings("FieldMayBeFinal") // written through BITS
    private int bits;

    /**
     * @param priority a priority already checked against the backplane's policy (0..{@value
     *     io.appbackplane.BackplanePolicy#MAX_PRIORITIES} − 1)
     * @param timer the timer this request is a firing of, or null
     * @param endpoint the counters of the endpoint the request came through, or null; not both
     */
    public Request(RequestOwner component, Object key, int priority, CompletableFuture<Object> future, Firing timer,
            ActionCounters endpoint, boolean system) {
        if ((priority & ~PRIORITY_MASK) != 0 || (timer != null && endpoint != null)) {
            throw new IllegalArgumentException("internal: priority " + priority + " unchecked, or both a timer and an endpoint");
        }
        this.component = component;
        this.key = key;
        this.future = future;
        this.origin = timer != null ? timer : endpoint;
        this.bits = priority | (system ? SYSTEM : 0);
    }

    /** The request's priority (that of its first action). */
    public int priority() {
        return bits & PRIORITY_MASK;
    }

    /** Whether this is a state transition: exempt from limits, admitted while draining. */
    public boolean isSystem() {
        return (bits & SYSTEM) != 0;
    }

    /** The timer this request is a firing of, or null. */
    public Firing timer() {
        return origin instanceof Firing timer ? timer : null;
    }

    /** The counters of the endpoint the request came through, or null. */
    public ActionCounters endpoint() {
        return origin instanceof ActionCounters endpoint ? endpoint : null;
    }

    public void complete(Object value) {
        finish(value, null, false, null);
    }

    public void fail(Throwable failure) {
        finish(null, failure, false, null);
    }

    /**
     * {@link #complete}, called by a worker (or the step driver) during a turn: the submitter's
     * future is completed later, from {@code later}, once the object has left RUNNING;
     * the bookkeeping happens now.
     */
    public void complete(Object value, FutureCompletions later) {
        finish(value, null, false, later);
    }

    /** {@link #fail}, deferring the future's completion as {@link #complete(Object, FutureCompletions)} does. */
    public void fail(Throwable failure, FutureCompletions later) {
        finish(null, failure, false, later);
    }

    /** Fails the request because its backplane shut down before it could finish. */
    public void abandon() {
        abandon(null);
    }

    /** {@link #abandon()}, deferring the future's completion to {@code later} if not null. */
    public void abandon(FutureCompletions later) {
        finish(null, new BackplaneShutdownException("backplane '" + component.backplane().name() + "' shut down before the request to object '"
                + SafeText.of(key) + "' of component '" + component.name() + "' finished (drain timeout elapsed)"), true, later);
    }

    /**
     * Finishes a request that was admitted but never queued: something its dispatch ran after
     * admission threw (a key's {@code hashCode} or {@code equals}, the clock, an allocation).
     * It is un-counted from every outstanding count and counted as failed, here, in the
     * dispatcher's thread. The cause is the dispatcher's to throw: its caller never received
     * this request's future (a digested endpoint's caller does, and that future fails when the
     * digester's action fails with the cause), a fire-and-forget caller is told by the throw (so
     * no unobserved-failure listener hears of it), and a timer firing that was not queued is
     * skipped by its timer, which therefore is not told that it finished.
     */
    public void failUnqueued() {
        if (markFinished()) {
            component.requestFinished(this, false, false);
        }
    }

    /** Whether the request has finished. */
    public boolean isFinished() {
        return ((int) BITS.getAcquire(this) & FINISHED) != 0;
    }

    /**
     * Finishes the request once. With {@code later}, the submitter's future is handed to it instead
     * of completed here: completing runs the submitter's dependants on this thread.
     */
    private void finish(Object value, Throwable failure, boolean byShutdown, FutureCompletions later) {
        if (!markFinished()) {
            return; // already finished by another path (e.g. a timeout raced the shutdown sweep)
        }
        component.requestFinished(this, failure == null, byShutdown);
        if (origin instanceof Firing timer) {
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
            component.unobservedFailure(key, failure);
        }
    }

    /** Sets {@link #FINISHED} once: whether this call set it. */
    private boolean markFinished() {
        int b = (int) BITS.getAcquire(this);
        while ((b & FINISHED) == 0) {
            int witness = (int) BITS.compareAndExchange(this, b, b | FINISHED);
            if (witness == b) {
                return true;
            }
            b = witness;
        }
        return false;
    }
}
