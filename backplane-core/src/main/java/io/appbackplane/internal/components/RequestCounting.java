package io.appbackplane.internal.components;

import io.appbackplane.BackplaneRejectedException.Reason;
import io.appbackplane.internal.base.ActionCounters;

/** The backplane-wide counters a component's dispatch and admission count in: per priority, and rejections by reason. */
public interface RequestCounting {

    /** The backplane's counters of {@code priority}. */
    ActionCounters priority(int priority);

    /** Counts a rejection by its reason; on the rejecting (caller's) thread, never on the action path. */
    void countRejection(Reason reason);
}
