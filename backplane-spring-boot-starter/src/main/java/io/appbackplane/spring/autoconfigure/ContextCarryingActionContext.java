package io.appbackplane.spring.autoconfigure;

import io.appbackplane.Action;
import io.appbackplane.ActionContext;
import io.appbackplane.Backplane;
import io.appbackplane.BackplaneComponent;
import io.appbackplane.ReplyHandler;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletionStage;

/**
 * The {@link ActionContext} an {@code @Endpoint} method is given: the backplane's own, except that
 * the follow-up work it registers — reply handlers (also of {@code offload}), the offloaded call,
 * and {@code yieldTo} continuations — runs with the originating caller's {@link CallerContext}
 * (MDC, trace, security), as the method body does. Each follow-up's own context is wrapped in turn,
 * so a chain of replies keeps it to the end. Confined to the worker running the action, as the
 * context it wraps.
 */
final class ContextCarryingActionContext implements ActionContext {

    private final ActionContext context;
    private final CallerContext caller;

    ContextCarryingActionContext(ActionContext context, CallerContext caller) {
        this.context = context;
        this.caller = caller;
    }

    @Override
    public Backplane backplane() {
        return context.backplane();
    }

    @Override
    public BackplaneComponent component() {
        return context.component();
    }

    @Override
    public Object objectKey() {
        return context.objectKey();
    }

    @Override
    public int priority() {
        return context.priority();
    }

    @Override
    public <R, T> T awaitReply(CompletionStage<R> reply, ReplyHandler<? super R, T> handler) {
        return context.awaitReply(reply, carrying(handler));
    }

    @Override
    public <R, T> T awaitReply(CompletionStage<R> reply, Duration timeout, ReplyHandler<? super R, T> handler) {
        return context.awaitReply(reply, timeout, carrying(handler));
    }

    @Override
    public <R, T> T offload(Callable<R> call, ReplyHandler<? super R, T> handler) {
        return ActionContext.super.offload(carrying(call), handler); // the default calls this.awaitReply: handler carried
    }

    @Override
    public <R, T> T offload(Callable<R> call, Duration timeout, ReplyHandler<? super R, T> handler) {
        return ActionContext.super.offload(carrying(call), timeout, handler);
    }

    @Override
    public boolean shouldYield() {
        return context.shouldYield();
    }

    @Override
    public <T> T yieldTo(Action<T> continuation) {
        return context.yieldTo(next -> {
            CallerContext.Scope scope = caller.restore();
            try {
                return continuation.run(new ContextCarryingActionContext(next, caller));
            } finally {
                scope.close();
            }
        });
    }

    private <R, T> ReplyHandler<R, T> carrying(ReplyHandler<? super R, T> handler) {
        return (next, value, failure) -> {
            CallerContext.Scope scope = caller.restore();
            try {
                return handler.onReply(new ContextCarryingActionContext(next, caller), value, failure);
            } finally {
                scope.close();
            }
        };
    }

    private <R> Callable<R> carrying(Callable<R> call) {
        return () -> {
            CallerContext.Scope scope = caller.restore();
            try {
                return call.call();
            } finally {
                scope.close();
            }
        };
    }
}
