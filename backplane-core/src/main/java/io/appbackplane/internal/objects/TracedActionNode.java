package io.appbackplane.internal.objects;

import io.appbackplane.Action;

/** An {@link ActionNode} for an action an {@link io.appbackplane.ActionTracer} gave a token: it also holds that token. */
final class TracedActionNode extends ActionNode {

    /** The tracer's token; set when the node is made, cleared as {@link ActionNode#setTrace} says. */
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
