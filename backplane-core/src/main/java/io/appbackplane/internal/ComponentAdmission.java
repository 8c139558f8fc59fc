package io.appbackplane.internal;

import io.appbackplane.BackplanePolicy;
import io.appbackplane.BackplaneRejectedException;
import io.appbackplane.BackplaneRejectedException.Reason;
import io.appbackplane.ComponentSpec;

/**
 * Admission of one component's requests (DESIGN rule 11): its outstanding-operation limit, the
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
 * <p>Thread-safe: called by submitters in their own threads; {@code operationLimit} is volatile and
 * may change at any time (a request is judged against the value it read).
 */
final class ComponentAdmission {

    private final DefaultComponent component;
    private final DefaultBackplane backplane;
    /** The backplane's admission and counters, taken once: admitting reaches them in one field read. */
    private final BackplaneAdmission backplaneAdmission;
    private final BackplaneCounters backplaneCounters;
    private final ComponentSpec.MakeRoom makeRoom;
    private final ActionCounters counters;
    /** Requests accepted and not finished, under {@code operationLimit}. */
    private final AdmissionCounter outstanding = new AdmissionCounter();
    private volatile int operationLimit;
    /** The component's own admission reserve, or NaN to follow the backplane policy's (which may change). */
    private final double ownAdmissionReserve;

    ComponentAdmission(DefaultComponent component, DefaultBackplane backplane, ComponentSpec spec, ActionCounters counters) {
        this.component = component;
        this.backplane = backplane;
        this.backplaneAdmission = backplane.admission;
        this.backplaneCounters = backplane.counters;
        this.makeRoom = spec.makeRoom();
        this.counters = counters;
        this.operationLimit = spec.operationLimit();
        this.ownAdmissionReserve = spec.admissionReserve().orElse(Double.NaN);
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
        int threshold = admissionThreshold(request.priority());
        if (outstanding.tryAdmit(threshold)
                || (askForRoom(request) && outstanding.tryAdmit(admissionThreshold(request.priority())))) {
            return;
        }
        backplaneAdmission.unadmit();
        int limit = operationLimit;
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
        // after shutdown began nothing is retryable here: the node is going away (DESIGN §3.2)
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
        return operationLimit;
    }

    void setOperationLimit(int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("operation-limit = " + limit + " for component '" + component.name()
                    + "' is invalid; allowed: 1.." + Integer.MAX_VALUE);
        }
        this.operationLimit = limit;
    }

    double admissionReserve() {
        double own = ownAdmissionReserve;
        return Double.isNaN(own) ? backplane.policy().admissionReserve() : own;
    }

    int admissionThreshold(int priority) {
        BackplanePolicy policy = backplane.policy();
        double own = ownAdmissionReserve;
        return BackplanePolicy.admissionThreshold(operationLimit, Double.isNaN(own) ? policy.admissionReserve() : own,
                policy.checkPriority(priority), policy.priorities());
    }
}
