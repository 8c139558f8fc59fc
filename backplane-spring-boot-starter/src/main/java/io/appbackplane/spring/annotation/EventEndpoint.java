package io.appbackplane.spring.annotation;

import io.appbackplane.ComponentState;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.aot.hint.annotation.Reflective;

/**
 * Delivers Spring application events to a one-parameter method of an {@link AppComponent} as
 * actions: every event published in the application context that is an instance of the parameter
 * type (an {@code ApplicationEvent}, or the payload of a {@code PayloadApplicationEvent}) becomes
 * one action on the component's own object, in publication order. Events arriving while the
 * component is not in one of {@link #states()} are counted as rejected and logged at debug level.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Reflective(ComponentMethodReflectiveProcessor.class) // reflectively invoked: AOT / native-image hints
public @interface EventEndpoint {

    /** The priority (default 1). */
    int priority() default 1;

    /** The states in which events are accepted (default PRIMARY). */
    ComponentState[] states() default {ComponentState.PRIMARY};
}
