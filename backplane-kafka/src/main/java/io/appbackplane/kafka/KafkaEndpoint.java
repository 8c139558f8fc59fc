package io.appbackplane.kafka;

import io.appbackplane.ComponentState;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Makes a method of an {@code @AppComponent} consume Kafka topics, in the spirit of
 * {@code @KafkaListener} (docs/scale-out.md): each record becomes an action on the object named by the
 * record's key (or the key {@link #key()} reads from its payload), at {@link #priority()}, under the backplane's quotas, CPU limit and the component's
 * operation limit. Records of one key run one at a time in offset order; records of different keys
 * run in parallel, even inside one partition. A record without a key runs on its partition's object
 * (partition order).
 *
 * <p>Parameters are bound by type: a {@code ConsumerRecord} gets the record, an {@code
 * ActionContext} the running action's context, a parameter marked {@code @ObjectKey} the record's
 * key, and the one remaining parameter the record's value. A method returning a {@code
 * CompletionStage} completes the record when the stage completes (the object waits for it without
 * holding a thread); any other return value completes the record when the method returns.
 *
 * <p>The record's offset is committed once it, and every earlier record of its partition, is done:
 * completed, or failed {@code backplane.kafka.retry.attempts} times and published to the dead-letter
 * topic ({@code <topic>-dlt} by default).
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface KafkaEndpoint {

    /** The topics to consume; {@code ${...}} placeholders are resolved. At least one is required. */
    String[] topics();

    /** The endpoint's name within its component; defaults to the method name. */
    String name() default "";

    /**
     * Reads the object's key from the record instead of using the record's Kafka key: a SpEL
     * expression over {@code payload} (the deserialized value), {@code key}, {@code topic}, {@code
     * partition}, {@code offset} and {@code headers}, e.g. {@code "payload.customerId"} or {@code
     * "payload['customer']"} for a map. Evaluated read-only on each record (property, getter, index and
     * method access; no types, constructors or beans). An {@code @ObjectKey} parameter then gets this
     * key. A record for which it fails or gives null goes to the dead-letter topic with the reason, in
     * its place in the partition's order; the other records continue. Ordering is per extracted key:
     * for it to hold across the partition's records, records with the same extracted key must share a
     * partition (produce them with that key, or a key that implies it). Default: the record's key.
     */
    String key() default "";

    /** The priority of the records' actions, 0 the most urgent (default 1). */
    int priority() default 1;

    /**
     * The consumer group; defaults to {@code backplane.kafka.group-id}, else {@code
     * spring.kafka.consumer.group-id}, else {@code spring.application.name}. Placeholders are resolved.
     */
    String groupId() default "";

    /** Consumer threads on this node for these topics (default 1: parallelism comes from the keys). */
    int concurrency() default 1;

    /**
     * The component states in which records are accepted (default PRIMARY and SECONDARY: partitions
     * spread the work over every node, whatever its role). In other states the partitions are paused.
     */
    ComponentState[] states() default {ComponentState.PRIMARY, ComponentState.SECONDARY};
}
