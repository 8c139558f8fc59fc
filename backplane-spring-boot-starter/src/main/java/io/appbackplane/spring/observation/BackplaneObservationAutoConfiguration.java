package io.appbackplane.spring.observation;

import io.micrometer.observation.ObservationRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;

/**
 * With {@code backplane.observations.enabled=true} and an {@link ObservationRegistry} bean:
 * {@link BackplaneObservations}, a Micrometer Observation per action's queue wait and run. A
 * {@link BackplaneActionObservationConvention} or {@link BackplaneActionQueueObservationConvention}
 * bean replaces the default convention of the run or queue-wait observations.
 */
@AutoConfiguration(afterName = "org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration")
@ConditionalOnClass(ObservationRegistry.class)
@ConditionalOnProperty(prefix = "backplane.observations", name = "enabled", havingValue = "true")
public final class BackplaneObservationAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnBean(ObservationRegistry.class)
    static BackplaneObservations backplaneObservations(ObservationRegistry registry,
            ObjectProvider<BackplaneActionQueueObservationConvention> queueConvention,
            ObjectProvider<BackplaneActionObservationConvention> runConvention) {
        return new BackplaneObservations(registry, queueConvention.getIfAvailable(), runConvention.getIfAvailable());
    }
}
