package io.appbackplane.spring.autoconfigure;

import io.appbackplane.ActionContext;
import io.appbackplane.ActionEndpoint;
import io.appbackplane.Backplane;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import org.springframework.aop.framework.Advised;
import org.springframework.core.ReactiveAdapter;
import org.springframework.core.ReactiveAdapterRegistry;
import org.springframework.util.ClassUtils;

/**
 * One {@code @Endpoint} method bound to its core endpoint: dispatches a proxy call in the caller's
 * thread (by return type) and runs the method body on the worker.
 */
final class EndpointMethod {

    /** How a call returns to its caller. */
    enum Kind {
        /** {@code CompletableFuture} or {@code CompletionStage}: returns at once. */
        FUTURE,
        /** {@code Mono}, {@code Flux} or another reactive type: returns at once (see {@link ReactiveReturns}). */
        REACTIVE,
        /** {@code void}: fire-and-forget. */
        VOID,
        /** Anything else: the caller blocks until the action completes. */
        BLOCKING;

        /** Whether the method returns something the backplane completes later (a reply may be awaited). */
        boolean isAsynchronous() {
            return this == FUTURE || this == REACTIVE;
        }
    }

    /**
     * Set while a worker invokes the method through a proxy that also carries our interceptor
     * (a bean proxied by another post-processor first): the interceptor then lets that one call
     * through instead of dispatching it again.
     */
    private static final boolean REACTOR =
            ClassUtils.isPresent("reactor.core.publisher.Mono", EndpointMethod.class.getClassLoader());

    private static final ThreadLocal<Boolean> DIRECT = new ThreadLocal<>();

    private final String component;
    private final Method method; // as the component's class declares it
    private final InvocableMethod invocable; // what a worker invokes, on what
    private final boolean targetIsOurProxy; // a worker's call passes through our own interceptor first
    private final Object owner; // what a call through the proxy targets: the bean, or the instance behind our proxy
    private final Backplane backplane;
    private final io.appbackplane.Stepper stepper; // the backplane's in step mode, else null
    private final Kind kind;
    private final int contextIndex; // the ActionContext parameter, or -1
    private final ReactiveAdapter reactive; // null unless kind == REACTIVE
    private ActionEndpoint<EndpointCall, Object> endpoint;
    private java.time.Duration replyTimeout; // null: the returned future may take as long as it takes
    private boolean offloaded; // @Endpoint(blocking = true): the body runs via ActionContext.offload

    /**
     * @param target the bean as Spring exposes it (a proxy, possibly)
     * @param callerFacing whether callers invoke the method through the bean (an {@code @Endpoint}),
     *     so it must be reachable through the bean's proxy
     */
    EndpointMethod(String component, Method method, Object target, boolean targetIsOurProxy, Backplane backplane,
            boolean callerFacing) {
        this.component = component;
        this.method = method;
        this.invocable = InvocableMethod.resolve(method, target, callerFacing,
                "method " + method.getDeclaringClass().getName() + "." + method.getName() + " of component '" + component + "'");
        this.targetIsOurProxy = targetIsOurProxy && invocable.throughBean();
        this.owner = targetIsOurProxy ? staticTarget((Advised) target) : target;
        this.backplane = backplane;
        this.stepper = backplane == null ? null : StepModeWait.stepperOf(backplane);
        this.kind = kindOf(method);
        this.contextIndex = actionContextIndex(method);
        this.reactive = kind == Kind.REACTIVE ? reactiveAdapter(method) : null;
    }

    /**
     * The index of the method's {@link ActionContext} parameter, or -1. The backplane supplies it
     * on the worker; a caller passes {@code null}.
     */
    static int actionContextIndex(Method method) {
        Class<?>[] types = method.getParameterTypes();
        int index = -1;
        for (int i = 0; i < types.length; i++) {
            if (types[i] == ActionContext.class) {
                if (index >= 0) {
                    throw new IllegalStateException(method.getDeclaringClass().getName() + "." + method.getName()
                            + " has more than one ActionContext parameter; allowed: one");
                }
                index = i;
            }
        }
        return index;
    }

    /**
     * How a method's calls return: a {@code Future} or {@code CompletionStage} return type that a
     * {@code CompletableFuture} satisfies is asynchronous; other future types cannot be honoured and
     * fail start-up; everything else blocks.
     */
    static Kind kindOf(Method method) {
        Class<?> returns = method.getReturnType();
        if (returns == void.class) {
            return Kind.VOID;
        }
        if (Future.class.isAssignableFrom(returns) || CompletionStage.class.isAssignableFrom(returns)) {
            if (!returns.isAssignableFrom(CompletableFuture.class)) {
                throw new IllegalStateException(method.getDeclaringClass().getName() + "." + method.getName() + " returns "
                        + returns.getName() + ", which the backplane cannot complete; allowed: CompletableFuture,"
                        + " CompletionStage or Future (asynchronous), Mono, Flux or another reactive type, void, or a plain"
                        + " type (blocking)");
            }
            return Kind.FUTURE;
        }
        if (reactiveAdapter(method) != null) {
            return Kind.REACTIVE;
        }
        return Kind.BLOCKING;
    }

    /**
     * The Reactive Streams adapter for the method's return type ({@code Mono}, {@code Flux}, ...), or
     * {@code null}: not a reactive type, a future (which has its own, cheaper path), or no Reactor.
     */
    static ReactiveAdapter reactiveAdapter(Method method) {
        Class<?> returns = method.getReturnType();
        if (!REACTOR || returns == void.class || Future.class.isAssignableFrom(returns)
                || CompletionStage.class.isAssignableFrom(returns)) {
            return null;
        }
        return ReactiveAdapterRegistry.getSharedInstance().getAdapter(returns);
    }

    private static Object staticTarget(Advised proxy) {
        try {
            return proxy.getTargetSource().isStatic() ? proxy.getTargetSource().getTarget() : null;
        } catch (Exception e) {
            return null;
        }
    }

    /** Whether a call on {@code target} (the invocation's {@code this}) is for this bean's method. */
    boolean isOwnedBy(Object target) {
        return owner == target;
    }

    void replyTimeout(java.time.Duration timeout) {
        this.replyTimeout = timeout;
    }

    /**
     * Runs the method body off the workers via {@link ActionContext#offload} (for {@code
     * @Endpoint(blocking = true)}); the method may then not take an {@link ActionContext}.
     */
    void offloaded() {
        if (contextIndex >= 0) {
            throw new IllegalStateException(method.getDeclaringClass().getName() + "." + method.getName()
                    + " has @Endpoint(blocking = true) and an ActionContext parameter; allowed: one or the other (a blocking"
                    + " body runs off the worker, where no action context is valid)");
        }
        this.offloaded = true;
    }

    void bind(ActionEndpoint<EndpointCall, Object> endpoint) {
        this.endpoint = endpoint;
    }

    ActionEndpoint<EndpointCall, Object> endpoint() {
        return endpoint;
    }

    Method method() {
        return method;
    }

    /** Whether the interceptor should let the current invocation through (consumes the flag). */
    static boolean consumeDirect() {
        if (DIRECT.get() == Boolean.TRUE) {
            DIRECT.remove();
            return true;
        }
        return false;
    }

    /** Dispatches a proxy call, in the caller's thread. */
    Object dispatch(Object[] arguments) throws Throwable {
        if (contextIndex >= 0 && arguments[contextIndex] != null) {
            throw new IllegalArgumentException("@Endpoint method " + method.getDeclaringClass().getSimpleName() + "."
                    + method.getName() + " was called with an ActionContext argument; pass null: the backplane supplies"
                    + " the context of the action that runs the call");
        }
        EndpointCall call = EndpointCall.of(arguments);
        switch (kind) {
            case FUTURE:
                return endpoint.call(call);
            case REACTIVE:
                return ReactiveReturns.toReturnType(reactive, endpoint.call(call));
            case VOID:
                endpoint.send(call);
                return null;
            case BLOCKING:
                if (backplane.isWorkerThread()) {
                    throw new IllegalStateException("@Endpoint method " + method.getDeclaringClass().getSimpleName() + "."
                            + method.getName() + " of component '" + component + "' returns " + method.getReturnType().getSimpleName()
                            + " and was called on a worker of backplane '" + backplane.name() + "': waiting there for the"
                            + " backplane could deadlock it. Declare the method to return CompletableFuture<"
                            + method.getReturnType().getSimpleName() + "> (or CompletionStage) and compose on the result.");
                }
                try {
                    CompletableFuture<Object> result = endpoint.call(call);
                    // step mode: nothing runs unless someone steps, so the blocked caller does (a slice
                    // test's controller calling the endpoint answers within the request)
                    return stepper == null ? result.get() : StepModeWait.awaitStepping(result, stepper);
                } catch (ExecutionException e) {
                    throw e.getCause();
                }
            default:
                throw new IllegalStateException("unknown kind " + kind);
        }
    }

    /**
     * Runs the method body on the worker — or, for a blocking endpoint, on an offload thread with
     * its outcome handled as a reply — and awaits a returned future as a reply (no thread held).
     */
    Object invoke(ActionContext context, EndpointCall call) throws Exception {
        if (offloaded) {
            java.util.concurrent.Callable<Object> body = () -> {
                CallerContext.Scope scope = call.callerContext().restore();
                try {
                    return invokeDirect(call.arguments());
                } finally {
                    scope.close();
                }
            };
            io.appbackplane.ReplyHandler<Object, Object> then = (ctx, result, failure) -> {
                if (failure != null) {
                    throw asException(failure);
                }
                return completeWith(ctx, result);
            };
            return replyTimeout == null ? context.offload(body, then) : context.offload(body, replyTimeout, then);
        }
        Object result;
        CallerContext.Scope scope = call.callerContext().restore();
        try {
            result = invokeDirect(withContext(context, call));
        } finally {
            scope.close();
        }
        return completeWith(context, result);
    }

    /** The call's result from what the body returned: a value, or a future or publisher awaited as a reply. */
    private Object completeWith(ActionContext context, Object result) throws Exception {
        if (reactive != null && result != null) {
            result = ReactiveReturns.subscribe(reactive, result);
        }
        if (result instanceof CompletableFuture<?> done && done.isDone()) {
            // already complete (e.g. completedFuture(x)): no reply to wait for, so no second action
            try {
                return done.join();
            } catch (CompletionException e) {
                throw asException(e.getCause());
            }
        }
        if (result instanceof CompletionStage<?> stage) {
            io.appbackplane.ReplyHandler<Object, Object> handler = (ctx, value, failure) -> {
                if (failure != null) {
                    throw asException(failure);
                }
                return value;
            };
            return replyTimeout == null ? context.awaitReply(stage, handler) : context.awaitReply(stage, replyTimeout, handler);
        }
        return result;
    }

    /** The call's arguments with the action's context where the method takes one, carrying the caller's context to follow-ups. */
    private Object[] withContext(ActionContext context, EndpointCall call) {
        Object[] arguments = call.arguments();
        if (contextIndex < 0) {
            return arguments;
        }
        Object[] withContext = arguments.clone(); // the call's own array may be read again (e.g. by a digester)
        withContext[contextIndex] = new ContextCarryingActionContext(context, call.callerContext());
        return withContext;
    }

    /**
     * Invokes the method on the bean, through its proxies but not through our dispatch (the bean's
     * other advice runs here, on the worker); see {@link InvocableMethod}.
     */
    Object invokeDirect(Object[] arguments) throws Exception {
        if (targetIsOurProxy) {
            DIRECT.set(Boolean.TRUE);
        }
        try {
            return invocable.method().invoke(invocable.target(), arguments);
        } catch (InvocationTargetException e) {
            throw asException(e.getCause());
        } finally {
            DIRECT.remove();
        }
    }

    static Exception asException(Throwable failure) {
        if (failure instanceof Exception e) {
            return e;
        }
        if (failure instanceof Error error) {
            throw error;
        }
        return new IllegalStateException(failure);
    }
}
