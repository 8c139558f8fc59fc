package io.appbackplane.internal.scheduling;

import io.appbackplane.internal.objects.ActionNode;
import io.appbackplane.internal.objects.WorkObject;

/**
 * The counting a worker does around each action, in the counters of the backplane, the action's
 * component, priority and endpoint, and for the backplane's observers. Implemented by the
 * backplane's counters; called by the thread that ran the action (a worker or the stepping thread).
 */
public interface ActionAccounting {

    /** Counts an action of {@code object} that ran, with its queue and run time, and tells the observers. */
    void actionRan(WorkObject object, ActionNode node, long queueTime, long runTime);

    /** Whether an {@link io.appbackplane.ActionObserver} is told of every action (user code after the action's end). */
    boolean hasObserver();

    /** Counts an action of {@code object} that ran longer than the slow-action threshold. */
    void slowActionRan(WorkObject object, ActionNode node);

    /** A worker (or the step driver) spent {@code nanos} completing submitters' futures after a turn. */
    void futureCallbacksRan(long nanos);
}
