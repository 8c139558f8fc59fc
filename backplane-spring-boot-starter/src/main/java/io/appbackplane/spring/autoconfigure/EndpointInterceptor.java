package io.appbackplane.spring.autoconfigure;

import java.lang.reflect.Method;
import java.util.Map;
import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.springframework.aop.support.AopUtils;

/** Routes calls of {@code @Endpoint} methods on an {@code @AppComponent} proxy into the backplane. */
final class EndpointInterceptor implements MethodInterceptor {

    private final Class<?> targetClass;
    private final Map<Method, EndpointMethod> endpoints;

    EndpointInterceptor(Class<?> targetClass, Map<Method, EndpointMethod> endpoints) {
        this.targetClass = targetClass;
        this.endpoints = Map.copyOf(endpoints);
    }

    @Override
    public Object invoke(MethodInvocation invocation) throws Throwable {
        EndpointMethod endpoint = endpoints.get(AopUtils.getMostSpecificMethod(invocation.getMethod(), targetClass));
        if (endpoint == null || EndpointMethod.consumeDirect()) {
            return invocation.proceed();
        }
        return endpoint.dispatch(invocation.getArguments());
    }
}
