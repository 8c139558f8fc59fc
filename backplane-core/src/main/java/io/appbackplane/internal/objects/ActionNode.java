package io.appbackplane.internal.objects;

import io.appbackplane.Action;

/**
 * One action queued to one object: a link of the object's FIFO work queue. Confined to the
 * object's monitor while queued and to the running worker afterwards.
 */
public final class ActionNode {

    public final Action<?> action;
    /** The priority the action was submitted at; the object is ready at the most urgent of these. */
    public final int priority;
    /** The request this action works for; several actions (a reply, a continuation) may share one. */
    public final Request request;
    /** When the action was queued, on the backplane's clock (for queue-time statistics). */
    public final long enqueuedAt;
    /** The backplane's ActionTracer's token for this action (null without a tracer); set before the node is queued, then only by the worker running it. */
    public Object trace;
    /** The next action of the object's queue; guarded by the object's monitor. */
    ActionNode next;

    public ActionNode(Action<?> action, int priority, Request request, long enqueuedAt) {
        this.action = action;
        this.priority = priority;
        this.request = request;
        this.enqueuedAt = enqueuedAt;
    }
}
