package io.appbackplane.spring;

import static org.assertj.core.api.Assertions.assertThat;

import io.appbackplane.ComponentState;
import io.appbackplane.Route;
import io.appbackplane.spring.annotation.AppComponent;
import io.appbackplane.spring.annotation.Endpoint;
import io.appbackplane.spring.annotation.EventEndpoint;
import io.appbackplane.spring.annotation.OnState;
import io.appbackplane.spring.annotation.ScheduledEndpoint;
import java.lang.reflect.Method;
import org.junit.jupiter.api.Test;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.annotation.ReflectiveRuntimeHintsRegistrar;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.util.ReflectionUtils;

/**
 * The reflection hints Spring's AOT processing registers for a component's reflectively invoked
 * methods (through {@code @Reflective} on the starter's annotations), as it does for every bean class.
 */
class RuntimeHintsTest {

    private final RuntimeHints hints = new RuntimeHints();

    @Test
    void everyReflectivelyInvokedMethodOfAComponentMayBeInvoked() {
        new ReflectiveRuntimeHintsRegistrar().registerRuntimeHints(hints, Desk.class);

        for (String name : new String[] {"take", "route", "up", "tick", "heard"}) {
            Method method = method(name);
            assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(method)).as(name).accepts(hints);
        }
        assertThat(RuntimeHintsPredicates.reflection().onType(Desk.class)).accepts(hints);
        assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(method("plain"))).rejects(hints);
    }

    private static Method method(String name) {
        return java.util.Arrays.stream(ReflectionUtils.getDeclaredMethods(Desk.class))
                .filter(m -> m.getName().equals(name)).findFirst().orElseThrow();
    }

    @AppComponent("desk")
    static class Desk {
        @Endpoint(digester = "route")
        void take(String ticket) {}

        Route route(String ticket) {
            return Route.to(ticket, 1);
        }

        @OnState(ComponentState.PRIMARY)
        void up() {}

        @ScheduledEndpoint(fixedRate = "1s")
        void tick() {}

        @EventEndpoint
        void heard(String event) {}

        void plain() {}
    }
}
