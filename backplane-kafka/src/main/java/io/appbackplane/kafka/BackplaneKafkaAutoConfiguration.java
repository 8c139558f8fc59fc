package io.appbackplane.kafka;

import io.appbackplane.spring.autoconfigure.BackplaneAutoConfiguration;
import io.appbackplane.spring.autoconfigure.BackplaneRegistry;
import org.apache.kafka.common.TopicPartition;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.kafka.autoconfigure.ConcurrentKafkaListenerContainerFactoryConfigurer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.kafka.core.ConsumerFactory;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.core.ProducerFactory;

/**
 * {@link KafkaEndpoint} methods, when spring-kafka is on the class path and Spring Boot's Kafka
 * auto-configuration has built the consumer and producer factories from {@code spring.kafka.*}.
 */
@AutoConfiguration(after = BackplaneAutoConfiguration.class,
        afterName = "org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration")
@ConditionalOnClass(KafkaTemplate.class)
@EnableConfigurationProperties(BackplaneKafkaProperties.class)
public final class BackplaneKafkaAutoConfiguration {

    /** Where failed records go; an application's own bean of this type replaces it. */
    @Bean
    @ConditionalOnMissingBean(KafkaDeadLetterRecoverer.class)
    @ConditionalOnBean(ProducerFactory.class)
    DeadLetterTopicRecoverer backplaneKafkaDeadLetterRecoverer(ProducerFactory<?, ?> producerFactory,
            BackplaneKafkaProperties properties) {
        properties.validate();
        return new DeadLetterTopicRecoverer(producerFactory, properties.getDeadLetterSuffix());
    }

    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnBean({BackplaneRegistry.class, ConsumerFactory.class, KafkaDeadLetterRecoverer.class})
    KafkaEndpointRegistrar backplaneKafkaEndpointRegistrar(ListableBeanFactory beans, BackplaneRegistry registry,
            ConsumerFactory<?, ?> consumerFactory, KafkaDeadLetterRecoverer deadLetterRecoverer,
            BackplaneKafkaProperties properties, Environment environment,
            ObjectProvider<KafkaEndpointRegistrar.Listener> listener,
            ObjectProvider<ConcurrentKafkaListenerContainerFactoryConfigurer> containerConfigurer) {
        properties.validate();
        DeadLetters deadLetters = new DeadLetters(deadLetterRecoverer, properties.getDeadLetter());
        KafkaEndpointRegistrar.Listener metrics = listener.getIfAvailable();
        return new KafkaEndpointRegistrar(beans, registry, consumerFactory, deadLetters, properties, environment,
                metrics != null ? metrics : NO_LISTENER, containerConfigurer.getIfAvailable());
    }

    private static final KafkaEndpointRegistrar.Listener NO_LISTENER = new KafkaEndpointRegistrar.Listener() {
        @Override
        public void registered(KafkaEndpointRegistrar.Registration registration) {}

        @Override
        public void partitionAssigned(KafkaEndpointRegistrar.Registration registration, TopicPartition partition) {}
    };

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "io.micrometer.core.instrument.binder.MeterBinder")
    static final class Metrics {
        @Bean
        @ConditionalOnMissingBean
        BackplaneKafkaMeters backplaneKafkaMeters() {
            return new BackplaneKafkaMeters();
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "org.springframework.boot.actuate.endpoint.annotation.Endpoint")
    static final class Actuator {
        // No @ConditionalOnBean(KafkaEndpointRegistrar): this nested class is processed before the
        // outer class defines the registrar, so the condition never matched.
        @Bean
        @ConditionalOnMissingBean
        BackplaneKafkaEndpoint backplaneKafkaEndpoint(ObjectProvider<KafkaEndpointRegistrar> registrar) {
            return new BackplaneKafkaEndpoint(registrar);
        }

        /** The same view, per backplane, inside {@code /actuator/backplane} (its {@code extensions.kafka}). */
        @Bean
        @ConditionalOnMissingBean
        KafkaBackplaneEndpointContributor kafkaBackplaneEndpointContributor(ObjectProvider<KafkaEndpointRegistrar> registrar) {
            return new KafkaBackplaneEndpointContributor(registrar);
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "org.springframework.integration.leader.event.AbstractLeaderEvent")
    @ConditionalOnProperty(prefix = "backplane.kafka.leader-election", name = "enabled", havingValue = "true")
    static final class LeaderElection {
        @Bean
        @ConditionalOnBean(BackplaneRegistry.class)
        @ConditionalOnMissingBean
        LeaderElectionRoles backplaneLeaderElectionRoles(BackplaneRegistry registry) {
            return new LeaderElectionRoles(registry);
        }
    }
}
