package io.appbackplane.kafka;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Headers;
import org.springframework.expression.EvaluationContext;
import org.springframework.expression.EvaluationException;
import org.springframework.expression.Expression;
import org.springframework.expression.ParseException;
import org.springframework.expression.spel.standard.SpelExpressionParser;
import org.springframework.expression.spel.support.SimpleEvaluationContext;

/**
 * {@code @KafkaEndpoint(key = "...")}: a SpEL expression that names a record's object from its
 * payload (as Spring Cloud Stream's {@code partitionKeyExpression} does), evaluated for every
 * record on the consumer thread against a {@link Root} ({@code payload}, {@code key}, {@code topic},
 * {@code partition}, {@code offset}, {@code headers}).
 *
 * <p>Evaluated in a read-only {@link SimpleEvaluationContext} with instance methods: property and
 * getter access ({@code payload.customerId}), map and list indexing ({@code payload['customer']}),
 * method calls on the payload ({@code payload.split(':')[0]}); no type references, constructors or
 * bean references, so a record cannot make the expression do anything but read it.
 */
final class RecordKeyExpression {

    private static final SpelExpressionParser PARSER = new SpelExpressionParser();

    private final String source;
    private final Expression expression;
    private final EvaluationContext context =
            SimpleEvaluationContext.forReadOnlyDataBinding().withInstanceMethods().build();

    private RecordKeyExpression(String source, Expression expression) {
        this.source = source;
        this.expression = expression;
    }

    /**
     * @param where the endpoint method, for the message
     * @throws IllegalStateException if {@code source} is not a valid SpEL expression
     */
    static RecordKeyExpression parse(String source, String where) {
        try {
            return new RecordKeyExpression(source, PARSER.parseExpression(source));
        } catch (ParseException e) {
            throw new IllegalStateException(where + " has @KafkaEndpoint(key) = \"" + source + "\", which is not a valid SpEL"
                    + " expression (" + e.getMessage() + "); allowed: an expression over payload, key, topic, partition,"
                    + " offset and headers, e.g. \"payload.customerId\"", e);
        }
    }

    /**
     * The key of {@code record}'s object.
     *
     * @throws KeyNotReadableException if the expression fails on this record (whatever it throws) or gives null
     */
    Object keyOf(ConsumerRecord<?, ?> record) {
        Object key;
        try {
            key = expression.getValue(context, new Root(record));
        } catch (RuntimeException e) {
            // Anything: SpEL rethrows a runtime exception from a method it calls (the payload's own
            // code) unwrapped, so an NPE there is as much this record's failure as a parse of it.
            throw new KeyNotReadableException("the key expression \"" + source + "\" cannot be evaluated for record "
                    + coordinates(record) + ": " + (e instanceof EvaluationException ? e.getMessage() : e.toString()), e);
        }
        if (key == null) {
            throw new KeyNotReadableException("the key expression \"" + source + "\" gave null for record " + coordinates(record)
                    + "; allowed: a non-null key (the record's object)", null);
        }
        return key;
    }

    private static String coordinates(ConsumerRecord<?, ?> record) {
        return record.topic() + "-" + record.partition() + "@" + record.offset();
    }

    @Override
    public String toString() {
        return source;
    }

    /** What a key expression sees of a record (getters, so SpEL's data binding reads them). */
    public static final class Root {
        private final ConsumerRecord<?, ?> record;

        Root(ConsumerRecord<?, ?> record) {
            this.record = record;
        }

        public Object getPayload() {
            return record.value();
        }

        public Object getKey() {
            return record.key();
        }

        public String getTopic() {
            return record.topic();
        }

        public int getPartition() {
            return record.partition();
        }

        public long getOffset() {
            return record.offset();
        }

        public Headers getHeaders() {
            return record.headers();
        }
    }

    /** No key can be read from a record: it goes to the dead-letter topic; retrying cannot help. */
    static final class KeyNotReadableException extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        KeyNotReadableException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
