package io.appbackplane.spring.autoconfigure;

import java.lang.reflect.Method;
import org.springframework.aop.framework.Advised;
import org.springframework.aop.framework.AopProxyUtils;
import org.springframework.aop.support.AopUtils;
import org.springframework.util.ReflectionUtils;

/**
 * How a worker invokes a component method found on the component's class: on the bean as Spring
 * exposes it, so that the bean's own advice ({@code @Transactional}, {@code @Validated}, ...) runs
 * around the body. The method is resolved as Spring resolves {@code @Scheduled} and
 * {@code @EventListener} methods ({@link AopUtils#selectInvocableMethod}): on a bean proxied by
 * class, the class's method; on a JDK dynamic proxy (proxied by interface), the interface method the
 * proxy implements. A method no interface of a JDK proxy declares cannot be reached through it:
 * {@linkplain #resolve a caller-facing one} fails start-up, and a method only the backplane calls
 * (a state hook, a timer, an event endpoint, a digester) runs on the object behind the proxy,
 * without the proxy's advice, as any non-interface method of a JDK-proxied bean does.
 *
 * @param method what to invoke
 * @param target what to invoke it on
 * @param throughBean whether {@code target} is the bean itself (a call through its proxies), not the
 *     object behind them
 */
record InvocableMethod(Method method, Object target, boolean throughBean) {

    /**
     * @param callerFacing whether callers invoke the method through the bean (an {@code @Endpoint});
     *     then it must be reachable through the bean's proxy
     * @param what how to name the method in an error, e.g. "@Endpoint method Ledger.post"
     */
    static InvocableMethod resolve(Method declared, Object bean, boolean callerFacing, String what) {
        InvocableMethod resolved;
        if (!AopUtils.isJdkDynamicProxy(bean)) {
            resolved = new InvocableMethod(declared, bean, true);
        } else {
            Method onInterface = onProxyInterface(declared, bean);
            if (onInterface != null) {
                resolved = new InvocableMethod(onInterface, bean, true);
            } else if (callerFacing) {
                throw new IllegalStateException(what + " is not declared on any interface of bean " + bean.getClass().getName()
                        + ", a JDK dynamic proxy (the bean is proxied by interface, e.g. spring.aop.proxy-target-class=false),"
                        + " so no caller can reach it through the bean; allowed: declare it on an interface the class"
                        + " implements, or proxy the bean by class (spring.aop.proxy-target-class=true, Boot's default)");
            } else {
                resolved = new InvocableMethod(declared, objectBehind(bean, what), false);
            }
        }
        ReflectionUtils.makeAccessible(resolved.method);
        return resolved;
    }

    private static Method onProxyInterface(Method declared, Object proxy) {
        try {
            return AopUtils.selectInvocableMethod(declared, proxy.getClass());
        } catch (IllegalStateException notOnAnyInterface) {
            return null;
        }
    }

    private static Object objectBehind(Object bean, String what) {
        Object current = bean;
        while (current instanceof Advised) {
            Object next = AopProxyUtils.getSingletonTarget(current);
            if (next == null) {
                throw new IllegalStateException(what + " is not declared on any interface of bean " + bean.getClass().getName()
                        + ", a JDK dynamic proxy whose target is not a single object, so the backplane cannot invoke it;"
                        + " allowed: declare it on an interface the class implements, or proxy the bean by class"
                        + " (spring.aop.proxy-target-class=true)");
            }
            current = next;
        }
        return current;
    }
}
