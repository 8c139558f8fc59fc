package io.appbackplane.internal.components;

import io.appbackplane.BackplaneRejectedException.Reason;
import io.appbackplane.BackplaneRejectedException;
import io.appbackplane.ComponentSpec;
import io.appbackplane.internal.base.ActionCounters;
import io.appbackplane.internal.objects.Request;

/**
 * Admission of one component's requests (scheduling rule 11): its outstanding-operation limit, the
 * admission reserve that less urgent priorities leave to more urgent ones, the make-room hook, and
 * the rejections that tell callers to back off (each counted once: component, priority, endpoint,
 * backplane reason).
 *
 * <p>Invariants: {@code outstanding = accepted requests − finished requests} (each request
 * finishes exactly once, see {@link Request}, and calls {@link #finished} then); a request that is
 * not a system request is admitted at priority p only while fewer than {@link
 * #admissionThreshold}(p) requests (of any priority) are outstanding (a CAS in {@link
 * AdmissionCounter}, so never one over); a system request (a state transition) is exempt from the
 * limits. A rejected request was never counted in, here or in the backplane's total.
 *
 * <p>Thread-safe: called by submitters in their own threads. The operation limit may change at any
 * time; it lives in {@code thresholds} (rule 11's arithmetic for it, done once per limit), replaced
 * whole, and a request is judged against the thresholds it read. They follow the policy's
 * admission reserve and priorities, which never change while the backplane runs (it replaces its
 * policy only for threads, quotas and the CPU limit).
 */
final class ComponentAdmission {

    private final DefaultComponent component;
    private final ComponentHost backplane;
    /** The backplane's admission and counters, taken once: admitting reaches them in one field read. */
    private final TotalAdmission backplaneAdmission;
    private final RequestCounting backplaneCounters;
    private final ComponentSpec.MakeRoom makeRoom;
    private final ActionCounters counters;
    /** Requests accepted and not finished, under the operation limit. */
    private final AdmissionCounter outstanding = new AdmissionCounter();
    /** The component's own admission reserve, else the backplane policy's (which never changes). */
    private final double admissionReserve;
    /** The outstanding-operation limit and rule 11's thresholds of it; replaced whole when it changes. */
    private volatile AdmissionThresholds thresholds;

    ComponentAdmission(DefaultComponent component, ComponentHost backplane, ComponentSpec spec, ActionCounters counters) {
        this.component = component;
        this.backplane = backplane;
        this.backplaneAdmission = backplane.totalAdmission();
        this.backplaneCounters = backplane.requestCounting();
        this.makeRoom = spec.makeRoom();
        this.counters = counters;
        this.admissionReserve = spec.admissionReserve().orElse(backplane.policy().admissionReserve());
        this.thresholds = thresholdsOf(spec.operationLimit());
    }

    /**
     * Counts the request in, or throws the rejection that tells the caller to back off. A system
     * request (a state transition) is exempt from the limits and is admitted while draining.
     *
     * <p>Rule 11: a request at priority p is admitted while fewer than {@link #admissionThreshold}(p)
     * requests (of any priority) are outstanding; the rest of the limit is the reserve that less
     * urgent work never takes, so a flood of it alone cannot get a more urgent request rejected.
     */
    void admit(Request request) {
        backplaneAdmission.admit(component, request); // backplane-wide: closed? total limit?
        if (request.isSystem()) {
            outstanding.admit();
            return;
        }
        // The request's priority was checked when it was made, against priorities that never change.
        AdmissionThresholds current = thresholds;
        int threshold = current.of(request.priority());
        if (outstanding.tryAdmit(threshold)) {
            return;
        }
        if (askForRoom(request)) {
            current = thresholds; // the hook may have raised the limit
            threshold = current.of(request.priority());
            if (outstanding.tryAdmit(threshold)) {
                return;
            }
        }
        backplaneAdmission.unadmit();
        int limit = current.limit();
        String share = threshold >= limit ? "its outstanding-operation limit (" + limit + ")"
                : "the " + threshold + " outstanding requests that priority " + request.priority() + " may fill of its"
                        + " outstanding-operation limit (" + limit + "; the admission reserve " + admissionReserve()
                        + " keeps the rest for more urgent priorities)";
        throw reject(request, Reason.COMPONENT_LIMIT, "component '" + component.name() + "' of backplane '"
                + backplane.name() + "' is at " + share + " and could not make room; back off and retry later");
    }

    private boolean askForRoom(Request request) {
        if (request.timer() != null) {
            // A timer firing is dispatched by the thread that also fires real ticks and reply
            // timeouts: no user hook runs there (a slow or failing one would hold up the whole
            // backplane's ticks). At the limit the firing is skipped and counted (rule 13).
            return false;
        }
        try {
            return makeRoom.makeRoom(component, request.priority());
        } catch (RuntimeException | Error e) { // the request is not admitted: count it as rejected
            backplaneAdmission.unadmit();
            countRejected(request);
            backplaneCounters.countRejection(Reason.COMPONENT_LIMIT); // it was at its limit; the hook's exception tells the caller
            throw e;
        }
    }

    /** Counts {@code request} as rejected and returns the exception that tells its caller. */
    BackplaneRejectedException reject(Request request, Reason reason, String message) {
        countRejected(request);
        backplaneCounters.countRejection(reason);
        // after shutdown began nothing is retryable here: the node is going away (docs/scheduling.md, shutdown)
        return new BackplaneRejectedException(reason, backplane.name(), component.name(), message,
                reason != Reason.CLOSED && !backplane.isShutdown());
    }

    private void countRejected(Request request) {
        counters.rejected.increment();
        backplaneCounters.priority(request.priority()).rejected.increment();
        ActionCounters endpoint = request.endpoint();
        if (endpoint != null) {
            endpoint.rejected.increment();
        }
    }

    /** Rejects an endpoint request because of the component's state (it never became a request). */
    BackplaneRejectedException rejectForState(DefaultEndpoint<?, ?> endpoint, String message) {
        counters.submitted.increment();
        counters.rejected.increment();
        endpoint.counters.submitted.increment();
        endpoint.counters.rejected.increment();
        backplaneCounters.countRejection(Reason.STATE);
        return new BackplaneRejectedException(Reason.STATE, backplane.name(), component.name(), message,
                !backplane.isShutdown());
    }

    /** An accepted request finished (called exactly once per request, through {@link DefaultComponent#requestFinished}). */
    void finished(int slot) {
        outstanding.finish(slot);
    }

    int outstanding() {
        return outstanding.outstanding();
    }

    int operationLimit() {
        return thresholds.limit();
    }

    void setOperationLimit(int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("operation-limit = " + limit + " for component '" + component.name()
                    + "' is invalid; allowed: 1.." + Integer.MAX_VALUE);
        }
        this.thresholds = thresholdsOf(limit);
    }

    private AdmissionThresholds thresholdsOf(int limit) {
        return AdmissionThresholds.of(limit, admissionReserve, backplane.policy().priorities());
    }

    double admissionReserve() {
        return admissionReserve;
    }

    int admissionThreshold(int priority) {
        return thresholds.of(backplane.policy().checkPriority(priority));
    }
}
