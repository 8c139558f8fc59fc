package io.appbackplane.internal.objects;

import io.appbackplane.Action;

/**
 * One action queued to one object: a link of the object's FIFO work queue. Confined to the
 * object's monitor while queued and to the running worker afterwards.
 *
 * <p>A node is allocated for every submit, so it holds only what every action needs: its priority
 * is its request's (a submit's first action, its reply handlers and continuations all run at the
 * request's priority), and the tracer's token is in a {@link TracedActionNode}, made only for an
 * action an {@link io.appbackplane.ActionTracer} gave a token. Four fields keep an untraced node at 32
 * bytes with compressed references ({@code SubmitAllocationTest}).
 */
public sealed class ActionNode permits TracedActionNode {

    public final Action<?> action;
    /** The request this action works for; several actions (a reply, a continuation) may share one. */
    public final Request request;
    /** When the action was queued, on the backplane's clock (for queue-time statistics). */
    public final long enqueuedAt;
    /** The next action of the object's queue (a ring: the newest links to the oldest); guarded by the object's monitor. */
    ActionNode next;

    ActionNode(Action<?> action, Request request, long enqueuedAt) {
        this.action = action;
        this.request = request;
        this.enqueuedAt = enqueuedAt;
    }

    /**
     * A node for {@code action}, holding the tracer's queue token {@code trace} (null without a
     * tracer, or when the tracer gave none: then the node is an untraced one).
     */
    public static ActionNode create(Action<?> action, Request request, long enqueuedAt, Object trace) {
        if (trace == null) {
            return new ActionNode(action, request, enqueuedAt);
        }
        TracedActionNode node = new TracedActionNode(action, request, enqueuedAt);
        node.setTrace(trace);
        return node;
    }

    /** The priority the action runs at: its request's. The object is ready at the most urgent of its nodes'. */
    public final int priority() {
        return request.priority();
    }

    /** The ActionTracer's token for this queued action, or null (always null for an untraced node). */
    public Object trace() {
        return null;
    }

    /**
     * Sets the tracer's queue token: when the node is made, then (to null, once the tracer was
     * told the action was dropped) by whoever removed it from its queue.
     *
     * @throws IllegalStateException for a non-null token on a node made untraced
     */
    public void setTrace(Object trace) {
        if (trace != null) {
            throw new IllegalStateException("internal: a tracer token for an action node made without tracing");
        }
    }
}
