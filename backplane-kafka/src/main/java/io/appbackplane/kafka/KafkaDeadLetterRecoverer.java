package io.appbackplane.kafka;

import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Stores a record that cannot be processed (its key or value did not deserialize, its key
 * expression failed, or its action failed on every attempt) where someone can look at it: by
 * default, spring-kafka's {@code DeadLetterPublishingRecoverer} publishing to {@code
 * <topic>}{@code backplane.kafka.dead-letter-suffix} with the reason and the original topic,
 * partition and offset in its headers. Declare a bean of this type to replace it.
 *
 * <p>Called on the backplane's dead-letter thread, one record at a time. A call that throws is
 * tried again ({@code backplane.kafka.dead-letter.attempts}, {@code retry-delay} apart); then
 * {@code backplane.kafka.dead-letter.on-failure} decides what becomes of the record.
 */
@FunctionalInterface
public interface KafkaDeadLetterRecoverer {

    /**
     * Stores {@code record}, returning once it is stored.
     *
     * @param record the record as consumed: its key and value are the original bytes (a key or value
     *     that did not deserialize also has spring-kafka's deserialization-exception header)
     * @param failure why it is dead-lettered
     * @throws Exception if it could not be stored
     */
    void recover(ConsumerRecord<?, ?> record, Exception failure) throws Exception;
}
