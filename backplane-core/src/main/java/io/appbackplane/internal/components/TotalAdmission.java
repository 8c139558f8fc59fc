package io.appbackplane.internal.components;

import io.appbackplane.internal.objects.Request;

/**
 * The backplane-wide half of admitting a request (rule 11): the backplane's total limit and its
 * closed check, its outstanding and waiting totals. A component's {@link ComponentAdmission} admits
 * here first and un-admits here when its own limit refuses. Thread-safe: called by submitters,
 * workers and the shutdown sweep.
 */
public interface TotalAdmission {

    /** Counts {@code request} into the backplane's total, or throws the rejection naming why not. */
    void admit(DefaultComponent component, Request request);

    /** Takes back an {@link #admit} whose request will not be queued (its component refused it). */
    void unadmit();

    /** Counts an accepted request's finish, once, from the thread with worker slot {@code slot}. */
    void requestFinished(Request request, boolean success, boolean byShutdown, int slot);

    /** An object of a component started ({@code +1}) or stopped ({@code -1}) waiting for a reply. */
    void waitingChanged(int delta);
}
