package io.appbackplane.kafka;

import io.appbackplane.spring.autoconfigure.BackplaneAutoConfiguration;
import io.appbackplane.spring.autoconfigure.BackplaneRegistry;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.IntegerSerializer;
import org.apache.kafka.common.serialization.LongSerializer;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.serialization.UUIDSerializer;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.kafka.core.ConsumerFactory;
import org.springframework.kafka.core.DefaultKafkaProducerFactory;
import org.springframework.kafka.core.KafkaOperations;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.core.ProducerFactory;
import org.springframework.kafka.listener.DeadLetterPublishingRecoverer;
import org.springframework.kafka.support.serializer.DelegatingByTypeSerializer;

/**
 * {@link KafkaEndpoint} methods, when spring-kafka is on the class path and Spring Boot's Kafka
 * auto-configuration has built the consumer and producer factories from {@code spring.kafka.*}.
 */
@AutoConfiguration(after = BackplaneAutoConfiguration.class,
        afterName = "org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration")
@ConditionalOnClass(KafkaTemplate.class)
@EnableConfigurationProperties(BackplaneKafkaProperties.class)
public final class BackplaneKafkaAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnBean({BackplaneRegistry.class, ConsumerFactory.class, ProducerFactory.class})
    KafkaEndpointRegistrar backplaneKafkaEndpointRegistrar(ListableBeanFactory beans, BackplaneRegistry registry,
            ConsumerFactory<?, ?> consumerFactory, ProducerFactory<?, ?> producerFactory, BackplaneKafkaProperties properties,
            Environment environment, ObjectProvider<KafkaEndpointRegistrar.Listener> listener) {
        DeadLetters deadLetters = new DeadLetters(deadLetterRecoverer(producerFactory, properties.getDeadLetterSuffix()),
                Duration.ofSeconds(5));
        KafkaEndpointRegistrar.Listener metrics = listener.getIfAvailable();
        return new KafkaEndpointRegistrar(beans, registry, consumerFactory, deadLetters, properties, environment,
                metrics != null ? metrics : NO_LISTENER);
    }

    private static final KafkaEndpointRegistrar.Listener NO_LISTENER = new KafkaEndpointRegistrar.Listener() {
        @Override
        public void registered(KafkaEndpointRegistrar.Registration registration) {}

        @Override
        public void partitionAssigned(KafkaEndpointRegistrar.Registration registration, TopicPartition partition) {}
    };

    /**
     * A recoverer whose template writes what a failed record may hold: the original bytes of an
     * unreadable key or value, or the deserialized key and value (strings, numbers, UUIDs; other
     * types with the application's configured serializer).
     */
    static DeadLetterPublishingRecoverer deadLetterRecoverer(ProducerFactory<?, ?> appFactory, String suffix) {
        Map<String, Object> configs = new HashMap<>(appFactory.getConfigurationProperties());
        Serializer<?> keyFallback = fallback(configs.get(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG), true, configs);
        Serializer<?> valueFallback = fallback(configs.get(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG), false, configs);
        configs.remove(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG);
        configs.remove(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG);
        configs.remove(ProducerConfig.TRANSACTIONAL_ID_CONFIG);
        DefaultKafkaProducerFactory<Object, Object> factory = new DefaultKafkaProducerFactory<>(configs,
                byType(keyFallback), byType(valueFallback));
        KafkaOperations<Object, Object> template = new KafkaTemplate<>(factory);
        DeadLetterPublishingRecoverer recoverer = new DeadLetterPublishingRecoverer(template,
                (record, exception) -> new TopicPartition(record.topic() + suffix, -1));
        recoverer.setFailIfSendResultIsError(true);
        return recoverer;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static DelegatingByTypeSerializer byType(Serializer<?> fallback) {
        Map<Class<?>, Serializer<?>> delegates = new LinkedHashMap<>();
        delegates.put(byte[].class, new ByteArraySerializer());
        delegates.put(String.class, new StringSerializer());
        delegates.put(Long.class, new LongSerializer());
        delegates.put(Integer.class, new IntegerSerializer());
        delegates.put(UUID.class, new UUIDSerializer());
        delegates.put(Object.class, fallback);
        return new DelegatingByTypeSerializer((Map) delegates, true);
    }

    private static Serializer<?> fallback(Object configured, boolean isKey, Map<String, Object> configs) {
        try {
            Class<?> type = configured instanceof Class<?> c ? c
                    : configured != null ? Class.forName(configured.toString()) : StringSerializer.class;
            Serializer<?> serializer = (Serializer<?>) type.getDeclaredConstructor().newInstance();
            serializer.configure(configs, isKey);
            return serializer;
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new IllegalStateException("cannot create the dead-letter " + (isKey ? "key" : "value") + " serializer "
                    + configured + ": " + e, e);
        }
    }

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
