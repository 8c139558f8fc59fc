package io.appbackplane.spring.actuate;

import io.appbackplane.spring.autoconfigure.BackplaneAutoConfiguration;
import io.appbackplane.spring.autoconfigure.BackplaneProperties;
import io.appbackplane.spring.autoconfigure.BackplaneRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The {@code backplane} Actuator endpoint and health indicator, when Actuator is present. The
 * indicator joins no health group by itself: an application puts it in its readiness probe the way
 * Boot does for any indicator, {@code management.endpoint.health.group.readiness.include=readinessState,backplane}
 * (docs/operations.md), and keeps it out of liveness.
 */
@AutoConfiguration(after = BackplaneAutoConfiguration.class)
@ConditionalOnBean(BackplaneRegistry.class)
public final class BackplaneActuatorAutoConfiguration {

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass({Endpoint.class, ConditionalOnAvailableEndpoint.class})
    @ConditionalOnAvailableEndpoint(BackplaneActuatorEndpoint.class)
    static class EndpointConfiguration {

        @Bean
        @ConditionalOnMissingBean
        BackplaneActuatorEndpoint backplaneActuatorEndpoint(BackplaneRegistry registry,
                ObjectProvider<BackplaneEndpointContributor> contributors) {
            return new BackplaneActuatorEndpoint(registry, contributors.orderedStream().toList());
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass({HealthIndicator.class, ConditionalOnEnabledHealthIndicator.class})
    @ConditionalOnEnabledHealthIndicator("backplane")
    static class HealthConfiguration {

        @Bean
        @ConditionalOnMissingBean(name = "backplaneHealthIndicator")
        BackplaneHealthIndicator backplaneHealthIndicator(BackplaneRegistry registry, BackplaneProperties properties) {
            return new BackplaneHealthIndicator(registry, properties.getHealth().getStallTimeout());
        }
    }
}
