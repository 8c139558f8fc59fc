package io.appbackplane.spring.autoconfigure;

import io.appbackplane.BackplaneListener;
import io.appbackplane.OffloadThreads;
import io.appbackplane.spring.annotation.AppComponent;
import java.time.Duration;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.LazyInitializationExcludeFilter;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.thread.Threading;
import org.springframework.context.annotation.Bean;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.env.Environment;

/**
 * The backplanes, the {@code @AppComponent} post-processor, the lifecycle that brings components up
 * and down with the context, and the event router (docs/getting-started.md). {@code backplane.enabled=false}
 * switches all of it off.
 */
@AutoConfiguration
@ConditionalOnBooleanProperty(name = "backplane.enabled", matchIfMissing = true)
@EnableConfigurationProperties(BackplaneProperties.class)
public final class BackplaneAutoConfiguration {

    /** The name of the bean that delivers application events to {@code @EventEndpoint} methods. */
    public static final String EVENT_ROUTER = "backplaneEventEndpointRouter";

    @Bean
    @ConditionalOnMissingBean
    BackplaneRegistry backplaneRegistry(BackplaneProperties properties, ObjectProvider<BackplaneListener> listeners,
            ObjectProvider<BackplaneBuilderCustomizer> customizers, Environment environment) {
        return new BackplaneRegistry(properties, listeners.orderedStream().toList(), customizers.orderedStream().toList(),
                offloadThreadKind(environment));
    }

    /**
     * Boot's {@code spring.threads.virtual.enabled}, where set, chooses the offload threads of
     * backplanes that do not set {@code offload-thread-kind}: virtual when Boot's virtual threading
     * is active (true on JDK 21+), platform when it is set to false; unset, the core's AUTO.
     */
    static OffloadThreads offloadThreadKind(Environment environment) {
        if (!environment.containsProperty("spring.threads.virtual.enabled")) {
            return null;
        }
        if (Threading.VIRTUAL.isActive(environment)) {
            return OffloadThreads.VIRTUAL;
        }
        // true on a JDK without virtual threads: Boot runs platform threads, as the core's AUTO does there
        return environment.getProperty("spring.threads.virtual.enabled", Boolean.class, false) ? null : OffloadThreads.PLATFORM;
    }

    /**
     * Keeps {@code @AppComponent} beans eager under {@code spring.main.lazy-initialization=true}: a
     * component is installed when its bean is created, and one created after start-up would never
     * be brought up (its endpoints would reject every request).
     */
    @Bean
    static LazyInitializationExcludeFilter backplaneAppComponentsAreEager() {
        return (beanName, definition, beanType) -> AnnotatedElementUtils.hasAnnotation(beanType, AppComponent.class);
    }

    @Bean
    static AppComponentPostProcessor backplaneAppComponentPostProcessor(ObjectProvider<BackplaneRegistry> registry,
            ObjectProvider<BackplaneProperties> properties) {
        return new AppComponentPostProcessor(registry, properties);
    }

    /** Backs off to a {@link BackplaneLifecycle} bean of the application's (built with other timeouts, say). */
    @Bean
    @ConditionalOnMissingBean
    BackplaneLifecycle backplaneLifecycle(BackplaneRegistry registry, BackplaneProperties properties, Environment environment) {
        // Binder converts "2s" without the ApplicationConversionService that only SpringApplication installs
        Duration phaseTimeout = Binder.get(environment).bind("spring.lifecycle.timeout-per-shutdown-phase", Duration.class)
                .orElse(Duration.ofSeconds(30));
        return new BackplaneLifecycle(registry, properties, Binder.get(environment), phaseTimeout);
    }

    /**
     * Backs off to a bean of the application's named {@value #EVENT_ROUTER} (any
     * {@code ApplicationListener}, or a bean that delivers no events at all).
     */
    @Bean(EVENT_ROUTER)
    @ConditionalOnMissingBean(name = EVENT_ROUTER)
    EventEndpointRouter backplaneEventEndpointRouter(AppComponentPostProcessor components) {
        return new EventEndpointRouter(components);
    }
}
