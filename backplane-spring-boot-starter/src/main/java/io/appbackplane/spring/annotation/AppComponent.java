package io.appbackplane.spring.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.core.annotation.AliasFor;
import org.springframework.stereotype.Component;

/**
 * Makes a class a Spring bean and a component of a backplane (docs/getting-started.md). Its {@link Endpoint}
 * methods become endpoints: calling them through the injected bean queues an action in the
 * caller's thread. Its {@link OnState} methods run on entering module states, its {@link
 * ScheduledEndpoint} methods run as timer actions, its {@link EventEndpoint} methods receive Spring
 * application events as actions.
 *
 * <pre>{@code
 * @AppComponent(dependsOn = "inventory")
 * class Orders {
 *     @Endpoint(priority = 2)
 *     CompletableFuture<Receipt> place(@ObjectKey String orderId, Order order) { ... }
 * }
 * }</pre>
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Component
public @interface AppComponent {

    /** The component's name, also its bean name; defaults to the bean name Spring derives. */
    @AliasFor(annotation = Component.class, attribute = "value")
    String value() default "";

    /**
     * The backplane to install into (default {@code "default"}); {@code
     * backplane.components.<name>.backplane} overrides it. Other names must be configured under
     * {@code backplane.instances}.
     */
    String backplane() default "default";

    /** Names of the components this one depends on (docs/scheduling.md, modules and states). */
    String[] dependsOn() default {};
}
