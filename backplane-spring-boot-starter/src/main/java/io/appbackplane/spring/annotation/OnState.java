package io.appbackplane.spring.annotation;

import io.appbackplane.ComponentState;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.aot.hint.annotation.Reflective;

/**
 * Runs a method of an {@link AppComponent} on entering one of {@link #value()} states, as an
 * action on the component's own object. The method takes no parameters, or {@code
 * (ComponentState from, ComponentState to)}. If it throws, start-up fails naming the component and
 * the state.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Reflective(ComponentMethodReflectiveProcessor.class) // reflectively invoked: AOT / native-image hints
public @interface OnState {

    /** The states whose entry runs the method (INITIALIZING, PRIMARY, SECONDARY, DOWN). */
    ComponentState[] value();
}
