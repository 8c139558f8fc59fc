package io.appbackplane.test;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.test.context.PropertyMapping;
import org.springframework.boot.test.context.PropertyMapping.Skip;
import org.springframework.context.annotation.Import;

/**
 * Adds the backplane to a Spring Boot test — a {@code @SpringBootTest} or a slice such as
 * {@code @JsonTest}, which would not load it otherwise — in step mode by default (docs/scheduling.md, test support):
 * every backplane is built on one {@link io.appbackplane.ManualClock} bean without worker threads,
 * and a {@link io.appbackplane.Stepper} bean ({@link BackplaneStepper}) runs their queued actions
 * on the test's thread. Start-up runs the components' state transitions at once, on the thread that
 * starts the context; later work, including timers and replies, runs as the test steps and advances
 * the clock. Closing the context takes the components DOWN the same way and fails what still waits.
 *
 * <pre>{@code
 * @SpringBootTest
 * @AutoConfigureBackplane
 * class OrdersTest {
 *     @Autowired Orders orders;
 *     @Autowired Stepper stepper;
 *     @Autowired ManualClock clock;
 * }
 * }</pre>
 *
 * A slice ({@code @WebMvcTest}, {@code @JsonTest}, ...) scans only its own kinds of beans, so it
 * leaves {@code @AppComponent} beans out: name the ones it needs in {@link #components()}. In step
 * mode a call of an endpoint that returns a plain type (blocking) runs the backplane's queued work
 * on the calling thread until its result is there, so a controller that calls it answers within
 * {@code MockMvc.perform}; an endpoint that returns a future completes when the test steps.
 *
 * <pre>{@code
 * @WebMvcTest(OwnerController.class)
 * @AutoConfigureBackplane(components = Owners.class)
 * class OwnerControllerTest { ... }
 * }</pre>
 *
 * Equivalent to the property {@code backplane.test.step-mode=true} in a test that loads the
 * auto-configuration anyway (except {@link #components()}, which only the annotation has).
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ImportAutoConfiguration
@Import(BackplaneComponentsRegistrar.class)
@PropertyMapping("backplane.test")
public @interface AutoConfigureBackplane {

    /**
     * Whether the backplanes run in step mode on a manual clock ({@code true}, the default) or with
     * their own worker threads and the system clock, as configured.
     */
    boolean stepMode() default true;

    /**
     * {@code @AppComponent} classes to register as beans of the test's context (under the names
     * their annotations give), for a slice test that would not scan them. A class that is not an
     * {@code @AppComponent} fails the context, naming it.
     */
    @PropertyMapping(skip = Skip.YES)
    Class<?>[] components() default {};
}
