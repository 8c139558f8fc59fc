package io.appbackplane.internal.objects;

import io.appbackplane.Action;

/** An {@link ActionNode} on a backplane with an {@link io.appbackplane.ActionTracer}: it also holds the tracer's queue token. */
final class TracedActionNode extends ActionNode {

    /** The tracer's token (null if the tracer gave none); written as {@link ActionNode#setTrace} says. */
    private Object trace;

    TracedActionNode(Action<?> action, Request request, long enqueuedAt) {
        super(action, request, enqueuedAt);
    }

    @Override
    public Object trace() {
        return trace;
    }

    @Override
    public void setTrace(Object trace) {
        this.trace = trace;
    }
}
