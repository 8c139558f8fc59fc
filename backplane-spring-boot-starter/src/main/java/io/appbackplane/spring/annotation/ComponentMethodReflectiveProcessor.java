package io.appbackplane.spring.annotation;

import java.lang.reflect.Method;
import org.springframework.aot.hint.ReflectionHints;
import org.springframework.aot.hint.annotation.SimpleReflectiveProcessor;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.util.ReflectionUtils;
import org.springframework.util.StringUtils;

/**
 * Registers the reflection an {@link AppComponent} needs at run time for AOT and native images:
 * invoking each {@link Endpoint}, {@link OnState}, {@link ScheduledEndpoint} and {@link
 * EventEndpoint} method (and an endpoint's {@link Endpoint#digester() digester}), and listing the
 * declaring class's methods, which the starter does to find them. Applied through the {@code
 * @Reflective} meta-annotation on those annotations, for every bean class Spring's AOT processing
 * sees.
 */
public final class ComponentMethodReflectiveProcessor extends SimpleReflectiveProcessor {

    @Override
    protected void registerMethodHint(ReflectionHints hints, Method method) {
        super.registerMethodHint(hints, method);
        Class<?> type = method.getDeclaringClass();
        hints.registerType(type); // its methods are listed (Spring 7: a registered type's methods may be introspected)
        Endpoint endpoint = AnnotatedElementUtils.findMergedAnnotation(method, Endpoint.class);
        if (endpoint != null && StringUtils.hasText(endpoint.digester())) {
            Method digester = ReflectionUtils.findMethod(type, endpoint.digester(), method.getParameterTypes());
            if (digester != null) { // a missing digester fails start-up with its own message
                super.registerMethodHint(hints, digester);
            }
        }
    }
}
