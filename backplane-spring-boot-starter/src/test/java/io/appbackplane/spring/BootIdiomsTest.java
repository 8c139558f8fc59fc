package io.appbackplane.spring;

import static org.assertj.core.api.Assertions.assertThat;

import io.appbackplane.OffloadThreads;
import io.appbackplane.spring.autoconfigure.BackplaneAutoConfiguration;
import io.appbackplane.spring.autoconfigure.BackplaneLifecycle;
import io.appbackplane.spring.autoconfigure.BackplaneProperties;
import io.appbackplane.spring.autoconfigure.BackplaneRegistry;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.event.ContextRefreshedEvent;
import org.springframework.core.env.Environment;

/**
 * Boot's idioms: the auto-configured beans a user may want to replace back off to the user's, and
 * {@code spring.threads.virtual.enabled} chooses the offload threads where {@code offload-thread-kind}
 * is not set.
 */
class BootIdiomsTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(BackplaneAutoConfiguration.class));

    @Test
    void lifecycleBacksOffWhenUserProvidedLifecycleIsPresent() {
        runner.withUserConfiguration(UserLifecycle.class).run(context -> {
            assertThat(context).hasNotFailed().hasSingleBean(BackplaneLifecycle.class).hasBean("myLifecycle");
            assertThat(context.getBean(BackplaneLifecycle.class).isRunning()).as("the user's lifecycle drives the backplanes").isTrue();
        });
    }

    @Test
    void eventRouterBacksOffWhenUserProvidedBeanOfItsNameIsPresent() {
        ApplicationListener<ContextRefreshedEvent> none = event -> { };
        runner.withBean(BackplaneAutoConfiguration.EVENT_ROUTER, ApplicationListener.class, () -> none)
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context.getBean(BackplaneAutoConfiguration.EVENT_ROUTER)).isSameAs(none);
                });
    }

    @Test
    void virtualThreadsEnabledFalse_choosesPlatformOffloadThreads() {
        runner.withPropertyValues("spring.threads.virtual.enabled=false").run(context ->
                assertThat(offloadThreadKind(context.getBean(BackplaneRegistry.class))).isEqualTo(OffloadThreads.PLATFORM));
    }

    @Test
    void virtualThreadsEnabledTrue_choosesVirtualOffloadThreadsWhereTheJdkHasThem() {
        OffloadThreads expected = Runtime.version().feature() >= 21 ? OffloadThreads.VIRTUAL : OffloadThreads.AUTO;
        runner.withPropertyValues("spring.threads.virtual.enabled=true").run(context ->
                assertThat(offloadThreadKind(context.getBean(BackplaneRegistry.class))).isEqualTo(expected));
    }

    @Test
    void virtualThreadsUnset_leavesTheCoreDefault() {
        runner.run(context -> assertThat(offloadThreadKind(context.getBean(BackplaneRegistry.class))).isEqualTo(OffloadThreads.AUTO));
    }

    @Test
    void anOffloadThreadKindPropertyWinsOverVirtualThreadsEnabled() {
        runner.withPropertyValues("spring.threads.virtual.enabled=false", "backplane.configs.default.offload-thread-kind=auto",
                        "backplane.instances.bulk.offload-thread-kind=auto")
                .run(context -> {
                    BackplaneRegistry registry = context.getBean(BackplaneRegistry.class);
                    assertThat(registry.get("default").policy().offloadThreadKind()).isEqualTo(OffloadThreads.AUTO);
                    assertThat(registry.get("bulk").policy().offloadThreadKind()).isEqualTo(OffloadThreads.AUTO);
                });
    }

    private static OffloadThreads offloadThreadKind(BackplaneRegistry registry) {
        return registry.get("default").policy().offloadThreadKind();
    }

    @Configuration(proxyBeanMethods = false)
    static class UserLifecycle {
        @Bean
        BackplaneLifecycle myLifecycle(BackplaneRegistry registry, BackplaneProperties properties, Environment environment) {
            return new BackplaneLifecycle(registry, properties, Binder.get(environment), Duration.ofSeconds(4));
        }
    }
}
