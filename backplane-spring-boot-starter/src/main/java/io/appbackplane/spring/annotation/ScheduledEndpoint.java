package io.appbackplane.spring.annotation;

import io.appbackplane.ComponentState;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.aot.hint.annotation.Reflective;

/**
 * Runs a no-argument method of an {@link AppComponent} on a schedule, as an action on the
 * component's own object, only while the component is in one of {@link #states()} (scheduling rule 13:
 * a firing is skipped while the previous one is unfinished — no backlog). Exactly one of {@link
 * #fixedRate()}, {@link #fixedDelay()} and {@link #cron()} must be set. Durations use Spring's
 * format ({@code "500ms"}, {@code "5s"}, {@code "PT1M"}). Every attribute may use {@code ${...}}
 * placeholders, resolved from the environment.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Reflective(ComponentMethodReflectiveProcessor.class) // reflectively invoked: AOT / native-image hints
public @interface ScheduledEndpoint {

    /** Fire every this long. */
    String fixedRate() default "";

    /** Fire this long after the previous firing finished. */
    String fixedDelay() default "";

    /** A Spring cron expression (six fields, seconds first). */
    String cron() default "";

    /** The cron expression's time zone (default the system's). */
    String zone() default "";

    /** Delay before the first fixed-rate or fixed-delay firing (default none). */
    String initialDelay() default "";

    /** The priority (default 1). */
    int priority() default 1;

    /** The states in which the timer runs (default PRIMARY). */
    ComponentState[] states() default {ComponentState.PRIMARY};
}
