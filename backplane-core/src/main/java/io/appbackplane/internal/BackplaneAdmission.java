package io.appbackplane.internal;

import io.appbackplane.BackplanePolicy;
import io.appbackplane.BackplaneRejectedException.Reason;
import io.appbackplane.BackplaneRejectedException;
import io.appbackplane.internal.base.WorkerThread;
import io.appbackplane.internal.components.AdmissionCounter;
import io.appbackplane.internal.components.DefaultComponent;
import io.appbackplane.internal.components.TotalAdmission;
import io.appbackplane.internal.objects.Request;
import io.appbackplane.internal.objects.WorkObject;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A backplane's admission (scheduling rule 11, docs/scheduling.md's shutdown): counts each request into the backplane-wide
 * outstanding total, under the policy's outstanding-operation limit and admission reserve, or
 * rejects it; rejects what shutdown no longer admits; counts requests out when they finish. Any
 * thread admits (submitters, actions, timers); workers, completers and shutdown sweeps finish.
 *
 * <p>Invariants: {@code outstanding = Σ component outstanding}, maintained by admitting the total
 * first (so shutdown, which sets DRAINING and then reads the total, never misses a request that got
 * past the closed check); {@code waiting = Σ component waiting}. Both checked by {@link
 * #checkInvariants} on a quiescent backplane.
 */
public final class BackplaneAdmission implements TotalAdmission {

    private static final int RUNNING = ShutdownSequence.RUNNING;
    private static final int STOPPED = ShutdownSequence.STOPPED;

    private final DefaultBackplane backplane;
    private final ShutdownSequence sequence;
    private final BackplaneCounters counters;
    /** Requests outstanding in all components, under the policy's total limit. */
    private final AdmissionCounter outstanding = new AdmissionCounter();
    /** Objects waiting for a reply, in all components. */
    private final AtomicInteger waiting = new AtomicInteger();

    BackplaneAdmission(DefaultBackplane backplane, ShutdownSequence sequence, BackplaneCounters counters) {
        this.backplane = backplane;
        this.sequence = sequence;
        this.counters = counters;
    }

    /**
     * Counts a request into the backplane total, or throws its rejection. It counts first and then
     * reads the state again, so shutdown (which sets DRAINING, then reads the total) never misses a
     * request that got past the closed check (class comment).
     */
    @Override
    public void admit(DefaultComponent component, Request request) {
        checkOpen(component, request); // a closed backplane says so, even when it is also at its limit
        if (request.isSystem()) {
            outstanding.admit();
        } else {
            BackplanePolicy current = backplane.policy();
            int threshold = current.admissionThreshold(request.priority()); // rule 11: less urgent work leaves a reserve
            if (!outstanding.tryAdmit(threshold)) {
                int limit = current.operationLimit();
                String share = threshold >= limit ? "its outstanding-operation limit (" + limit + ")"
                        : "the " + threshold + " outstanding requests that priority " + request.priority() + " may fill of"
                                + " its outstanding-operation limit (" + limit + "; the admission reserve "
                                + current.admissionReserve() + " keeps the rest for more urgent priorities)";
                throw component.reject(request, Reason.BACKPLANE_LIMIT, "backplane '" + backplane.name() + "' is at "
                        + share + "; back off and retry later");
            }
        }
        try {
            checkOpen(component, request);
        } catch (BackplaneRejectedException e) {
            unadmit();
            throw e;
        }
    }

    /**
     * Rejects what shutdown no longer admits: after shutdown began, work from outside the backplane
     * (a thread not running one of its actions); once stopped, everything. State transitions and
     * follow-up work of the backplane's own actions drain (docs/scheduling.md, shutdown).
     */
    private void checkOpen(DefaultComponent component, Request request) {
        int s = sequence.phase();
        if (s == STOPPED || (s != RUNNING && !request.isSystem() && !backplane.isWorkerThread())) {
            throw component.reject(request, Reason.CLOSED, "backplane '" + backplane.name() + "' is shutting down and"
                    + " accepts no new work" + (s == STOPPED ? "" : " from outside its own actions") + " (component '"
                    + component.name() + "'); send it elsewhere");
        }
    }

    /** Undoes {@link #admit} for a request the component then rejected. */
    @Override
    public void unadmit() {
        outstanding.finish();
        sequence.progress();
    }

    /**
     * Called exactly once per accepted request; {@code byShutdown}: failed by a shutdown sweep (not
     * drained); {@code slot}: the finishing thread's {@link WorkerThread#currentSlot()}, read once
     * by the caller for all the counters a finish touches.
     */
    @Override
    public void requestFinished(Request request, boolean success, boolean byShutdown, int slot) {
        counters.priority(request.priority()).finished(slot, success);
        if (!byShutdown) {
            sequence.requestFinished(request); // counted before it stops counting as outstanding, so a report includes it
        }
        outstanding.finish(slot);
        sequence.progress();
    }

    /** Whether no request is outstanding (the backplane is idle; shutdown's drained check). */
    boolean nothingOutstanding() {
        return outstanding.isZero();
    }

    /** Requests outstanding, for statistics (never above the limit, see {@link AdmissionCounter#outstanding}). */
    int outstanding() {
        return outstanding.outstanding();
    }

    int waiting() {
        return waiting.get();
    }

    @Override
    public void waitingChanged(int delta) {
        waiting.addAndGet(delta);
    }

    /** Checks every object's invariants and this class's; for tests, on a quiescent backplane. */
    void checkInvariants(List<DefaultComponent> components) {
        int waitingSum = 0;
        int outstandingSum = 0;
        for (DefaultComponent component : components) {
            for (WorkObject object : component.objects()) {
                object.checkInvariants();
            }
            waitingSum += component.waiting();
            outstandingSum += component.outstanding();
        }
        if (waitingSum != waiting.get() || outstandingSum != outstanding.outstanding()) {
            throw new AssertionError("backplane totals differ from the sum of its components: waiting " + waiting.get()
                    + " vs " + waitingSum + ", outstanding " + outstanding.outstanding() + " vs " + outstandingSum);
        }
    }
}
