package io.appbackplane.spring.metrics;

import io.appbackplane.spring.autoconfigure.BackplaneAutoConfiguration;
import io.appbackplane.spring.autoconfigure.BackplaneProperties;
import io.appbackplane.spring.autoconfigure.BackplaneRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;

/**
 * {@code backplane.*} Micrometer meters, when Micrometer is present and backplane.metrics.enabled is
 * not false: a {@link MeterBinder} bean, which Spring Boot's metrics auto-configuration binds to its
 * meter registries; with backplane.metrics.histograms, also {@link BackplaneHistograms}.
 */
@AutoConfiguration(after = BackplaneAutoConfiguration.class,
        afterName = "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration")
@ConditionalOnClass(MeterBinder.class)
@ConditionalOnBean(BackplaneRegistry.class)
@ConditionalOnProperty(prefix = "backplane.metrics", name = "enabled", havingValue = "true", matchIfMissing = true)
public final class BackplaneMetricsAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    BackplaneMetrics backplaneMetrics(BackplaneRegistry registry) {
        return new BackplaneMetrics(registry);
    }

    /** Percentile timers of every action's queue wait and run time (off by default: they cost each action). */
    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnProperty(prefix = "backplane.metrics", name = "histograms", havingValue = "true")
    static BackplaneHistograms backplaneHistograms(BackplaneProperties properties) {
        return new BackplaneHistograms(properties.getMetrics().getPercentiles());
    }
}
