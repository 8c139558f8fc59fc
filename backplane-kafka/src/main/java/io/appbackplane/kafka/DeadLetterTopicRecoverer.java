package io.appbackplane.kafka;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.kafka.core.DefaultKafkaProducerFactory;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.core.ProducerFactory;
import org.springframework.kafka.core.ProducerPostProcessor;
import org.springframework.kafka.listener.DeadLetterPublishingRecoverer;

/**
 * The default {@link KafkaDeadLetterRecoverer}: spring-kafka's {@link DeadLetterPublishingRecoverer}
 * publishing to {@code <topic><suffix>} (any partition), with the exception and the original topic,
 * partition and offset in its headers. Records reach it as consumed, so its producer writes bytes:
 * it is built from the application's producer factory (Spring Boot's, with its customizers' listeners
 * and post-processors, connection and security settings) with byte-array serializers, whatever
 * {@code spring.kafka.producer.*-serializer} says, and never in a transaction.
 */
public final class DeadLetterTopicRecoverer implements KafkaDeadLetterRecoverer, DisposableBean {

    private final DefaultKafkaProducerFactory<byte[], byte[]> factory;
    private final DeadLetterPublishingRecoverer recoverer;

    @SuppressWarnings({"unchecked", "rawtypes"})
    DeadLetterTopicRecoverer(ProducerFactory<?, ?> appFactory, String suffix) {
        Map<String, Object> configs = new HashMap<>(appFactory.getConfigurationProperties());
        configs.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        configs.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        configs.remove(ProducerConfig.TRANSACTIONAL_ID_CONFIG);
        this.factory = new DefaultKafkaProducerFactory<>(configs, new ByteArraySerializer(), new ByteArraySerializer());
        ((List) appFactory.getListeners()).forEach(l -> factory.addListener((ProducerFactory.Listener) l));
        ((List) appFactory.getPostProcessors()).forEach(p -> factory.addPostProcessor((ProducerPostProcessor) p));
        this.recoverer = new DeadLetterPublishingRecoverer(new KafkaTemplate<>(factory),
                (record, exception) -> new TopicPartition(record.topic() + suffix, -1));
        recoverer.setFailIfSendResultIsError(true);
    }

    @Override
    public void recover(ConsumerRecord<?, ?> record, Exception failure) {
        recoverer.accept(record, null, failure);
    }

    @Override
    public void destroy() {
        factory.destroy();
    }
}
