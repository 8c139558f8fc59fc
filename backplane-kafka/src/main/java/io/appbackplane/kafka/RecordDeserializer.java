package io.appbackplane.kafka;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.springframework.kafka.core.ConsumerFactory;
import org.springframework.kafka.core.DefaultKafkaConsumerFactory;
import org.springframework.kafka.support.serializer.DeserializationException;
import org.springframework.kafka.support.serializer.ErrorHandlingDeserializer;
import org.springframework.kafka.support.serializer.SerializationUtils;

/**
 * Turns a record consumed as bytes into the record the endpoint method sees, with the application's
 * key and value deserializers ({@code spring.kafka.consumer.key-deserializer} / {@code
 * value-deserializer}, or the instances a customizer set on Boot's consumer factory). Consuming
 * bytes and deserializing here keeps each record's original bytes, which is what its dead-letter
 * copy gets: the dead-letter producer never has to serialize an application type.
 *
 * <p>A key or value that does not deserialize is reported as spring-kafka's {@code
 * ErrorHandlingDeserializer} reports it (a {@link DeserializationException} in the record's
 * headers), so the dead-letter record carries the same headers as with that deserializer.
 *
 * <p>Threads: the container's consumer threads; each gets deserializers of its own (Kafka does not
 * require a deserializer to be thread-safe), except instances set on the factory, which are shared
 * as the factory itself shares them.
 */
final class RecordDeserializer implements AutoCloseable {

    /** The record for the endpoint, or the reason it has none. */
    record Result(ConsumerRecord<Object, Object> record, DeserializationException failure) {}

    private final Map<String, Object> configs;
    private final Deserializer<?> sharedKey;
    private final Deserializer<?> sharedValue;
    private final Class<?> keyType;
    private final Class<?> valueType;
    private final ThreadLocal<Deserializer<?>[]> perThread = new ThreadLocal<>();
    private final List<Deserializer<?>> created = new ArrayList<>();

    /** Reads the application's deserializers from {@code factory} (Boot's, customized). */
    RecordDeserializer(ConsumerFactory<?, ?> factory) {
        this.configs = new HashMap<>(factory.getConfigurationProperties());
        Deserializer<?> key = null;
        Deserializer<?> value = null;
        if (factory instanceof DefaultKafkaConsumerFactory<?, ?> defaults) {
            key = defaults.getKeyDeserializer();
            value = defaults.getValueDeserializer();
        }
        this.sharedKey = key;
        this.sharedValue = value;
        this.keyType = key == null ? delegateType(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG,
                ErrorHandlingDeserializer.KEY_DESERIALIZER_CLASS) : null;
        this.valueType = value == null ? delegateType(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG,
                ErrorHandlingDeserializer.VALUE_DESERIALIZER_CLASS) : null;
    }

    /** The configured deserializer class; for an {@code ErrorHandlingDeserializer}, its delegate's. */
    private Class<?> delegateType(String key, String delegateKey) {
        Class<?> type = type(configs.get(key), key);
        if (type == ErrorHandlingDeserializer.class) {
            Object delegate = configs.get(delegateKey);
            if (delegate == null) {
                throw new IllegalStateException(key + " is ErrorHandlingDeserializer but " + delegateKey
                        + " is not set; allowed: a Deserializer class as the delegate");
            }
            type = type(delegate, delegateKey);
        }
        if (!Deserializer.class.isAssignableFrom(type)) {
            throw new IllegalStateException(key + " = " + type.getName() + " is not a " + Deserializer.class.getName());
        }
        return type;
    }

    private static Class<?> type(Object configured, String key) {
        if (configured == null) {
            return StringDeserializer.class;
        }
        if (configured instanceof Class<?> c) {
            return c;
        }
        try {
            return Class.forName(configured.toString().trim(), false, RecordDeserializer.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException(key + " = " + configured + " is not a class on the class path", e);
        }
    }

    /**
     * The consumer configuration for reading bytes: the application's, with byte-array deserializers.
     */
    static Map<String, Object> bytesConfigs(Map<String, Object> configs) {
        Map<String, Object> bytes = new HashMap<>(configs);
        bytes.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        bytes.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        bytes.remove(ErrorHandlingDeserializer.KEY_DESERIALIZER_CLASS);
        bytes.remove(ErrorHandlingDeserializer.VALUE_DESERIALIZER_CLASS);
        return bytes;
    }

    /** Deserializes {@code raw}'s key and value; never throws for a record's content. */
    Result deserialize(ConsumerRecord<?, ?> raw) {
        Deserializer<?>[] d = deserializers();
        Object key;
        try {
            key = raw.key() == null ? null : d[0].deserialize(raw.topic(), raw.headers(), (byte[]) raw.key());
        } catch (RuntimeException e) {
            return failed(raw, (byte[]) raw.key(), e, true);
        }
        Object value;
        try {
            value = d[1].deserialize(raw.topic(), raw.headers(), (byte[]) raw.value());
        } catch (RuntimeException e) {
            return failed(raw, (byte[]) raw.value(), e, false);
        }
        return new Result(new ConsumerRecord<>(raw.topic(), raw.partition(), raw.offset(), raw.timestamp(),
                raw.timestampType(), raw.serializedKeySize(), raw.serializedValueSize(), key, value, raw.headers(),
                raw.leaderEpoch()), null);
    }

    private static Result failed(ConsumerRecord<?, ?> raw, byte[] data, RuntimeException e, boolean isKey) {
        DeserializationException failure = new DeserializationException("failed to deserialize the record's "
                + (isKey ? "key" : "value"), data, isKey, e);
        // As ErrorHandlingDeserializer does: the dead-letter recoverer reads it from the headers.
        SerializationUtils.deserializationException(raw.headers(), data, failure, isKey);
        return new Result(null, failure);
    }

    private Deserializer<?>[] deserializers() {
        Deserializer<?>[] d = perThread.get();
        if (d == null) {
            d = new Deserializer<?>[] {sharedKey != null ? sharedKey : create(keyType, true),
                    sharedValue != null ? sharedValue : create(valueType, false)};
            perThread.set(d);
        }
        return d;
    }

    private Deserializer<?> create(Class<?> type, boolean isKey) {
        try {
            Deserializer<?> deserializer = (Deserializer<?>) type.getDeclaredConstructor().newInstance();
            deserializer.configure(configs, isKey);
            synchronized (created) {
                created.add(deserializer);
            }
            return deserializer;
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot create the " + (isKey ? "key" : "value") + " deserializer "
                    + type.getName() + ": " + e, e);
        }
    }

    @Override
    public void close() {
        synchronized (created) {
            created.forEach(Deserializer::close);
            created.clear();
        }
    }
}
