package io.appbackplane.internal;

import io.appbackplane.Action;

/**
 * One action queued to one object: a link of the object's FIFO work queue. Confined to the
 * object's monitor while queued and to the running worker afterwards.
 */
final class ActionNode {

    final Action<?> action;
    /** The priority the action was submitted at; the object is ready at the most urgent of these. */
    final int priority;
    /** The request this action works for; several actions (a reply, a continuation) may share one. */
    final Request request;
    /** When the action was queued, on the backplane's clock (for queue-time statistics). */
    final long enqueuedAt;
    /** The backplane's ActionTracer's token for this action (null without a tracer); set before the node is queued, then only by the worker running it. */
    Object trace;
    /** The next action of the object's queue; guarded by the object's monitor. */
    ActionNode next;

    ActionNode(Action<?> action, int priority, Request request, long enqueuedAt) {
        this.action = action;
        this.priority = priority;
        this.request = request;
        this.enqueuedAt = enqueuedAt;
    }
}
