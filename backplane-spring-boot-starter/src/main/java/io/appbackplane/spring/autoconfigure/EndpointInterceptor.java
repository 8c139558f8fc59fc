package io.appbackplane.spring.autoconfigure;

import java.lang.reflect.Method;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.springframework.aop.framework.AopProxyUtils;
import org.springframework.aop.support.AopUtils;

/**
 * Routes calls of {@code @Endpoint} methods on {@code @AppComponent} proxies into the backplane.
 * One instance serves every component (the post-processor's single advisor); it finds the
 * component's {@link EndpointMethod} by the method and the bean the call targets.
 *
 * <p>Thread safety: {@link #register} runs during context refresh, {@link #invoke} in any thread;
 * the maps are concurrent and their values immutable.
 */
final class EndpointInterceptor implements MethodInterceptor {

    /** Per method (most specific, as installed): the endpoint methods of every bean declaring it. */
    private final Map<Method, EndpointMethod[]> endpoints = new ConcurrentHashMap<>();

    /** Adds the endpoints of one installed component. */
    void register(ComponentInstaller.Endpoints installed) {
        installed.byMethod().forEach((method, endpoint) -> endpoints.merge(method, new EndpointMethod[] {endpoint}, (a, b) -> {
            EndpointMethod[] both = java.util.Arrays.copyOf(a, a.length + 1);
            both[a.length] = b[0];
            return both;
        }));
    }

    @Override
    public Object invoke(MethodInvocation invocation) throws Throwable {
        EndpointMethod endpoint = find(invocation);
        if (endpoint == null || EndpointMethod.consumeDirect()) {
            return invocation.proceed();
        }
        return endpoint.dispatch(invocation.getArguments());
    }

    private EndpointMethod find(MethodInvocation invocation) {
        Object target = invocation.getThis();
        EndpointMethod[] candidates = endpoints.get(invocation.getMethod());
        if (candidates == null && target != null) {
            candidates = endpoints.get(AopUtils.getMostSpecificMethod(invocation.getMethod(), AopProxyUtils.ultimateTargetClass(target)));
        }
        if (candidates == null) {
            return null;
        }
        for (EndpointMethod candidate : candidates) {
            if (candidate.isOwnedBy(target)) {
                return candidate;
            }
        }
        if (candidates.length == 1) {
            return candidates[0]; // e.g. a proxy whose target is not a fixed instance
        }
        throw new IllegalStateException("cannot tell which of " + candidates.length + " components declaring "
                + invocation.getMethod() + " a call on " + target + " is for");
    }
}
