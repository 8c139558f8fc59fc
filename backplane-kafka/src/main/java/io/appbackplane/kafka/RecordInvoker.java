package io.appbackplane.kafka;

import io.appbackplane.ActionContext;
import io.appbackplane.spring.annotation.ObjectKey;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Parameter;
import java.util.concurrent.CompletionStage;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;

/**
 * Calls a {@link KafkaEndpoint} method for one record: binds its parameters by type (record, action
 * context, {@code @ObjectKey} key, value) once at start-up, and converts nothing — a value the
 * parameter cannot take is a clear {@link RecordValueTypeException}.
 */
final class RecordInvoker {

    private enum Source { RECORD, CONTEXT, KEY, VALUE }

    private final Object bean;
    private final Method method;
    private final Source[] sources;
    private final Class<?>[] types;

    RecordInvoker(Object bean, Method method) {
        this.bean = bean;
        this.method = method;
        Parameter[] parameters = method.getParameters();
        this.sources = new Source[parameters.length];
        this.types = new Class<?>[parameters.length];
        int values = 0;
        for (int i = 0; i < parameters.length; i++) {
            Class<?> type = parameters[i].getType();
            types[i] = ClassUtils.resolvePrimitiveIfNecessary(type);
            if (type == ConsumerRecord.class) {
                sources[i] = Source.RECORD;
            } else if (type == ActionContext.class) {
                sources[i] = Source.CONTEXT;
            } else if (parameters[i].isAnnotationPresent(ObjectKey.class)) {
                sources[i] = Source.KEY;
            } else {
                sources[i] = Source.VALUE;
                values++;
            }
        }
        if (values > 1) {
            throw new IllegalStateException(describe() + " is a @KafkaEndpoint with " + values + " value parameters;"
                    + " allowed: at most one value parameter, plus ConsumerRecord, ActionContext and an @ObjectKey key");
        }
        ReflectionUtils.makeAccessible(method);
    }

    /** {@code Class.method} for messages. */
    String describe() {
        return method.getDeclaringClass().getName() + "." + method.getName();
    }

    /** Whether the method returns a stage the record waits for. */
    boolean isAsynchronous() {
        return CompletionStage.class.isAssignableFrom(method.getReturnType());
    }

    /**
     * Runs the method for {@code record}.
     *
     * @param key what an {@code @ObjectKey} parameter gets: the record's key, or the key extracted from its payload
     *
     * @return the method's result (a {@code CompletionStage} for an asynchronous method)
     * @throws Exception what the method threw, unwrapped
     */
    Object invoke(ActionContext context, ConsumerRecord<?, ?> record, Object key) throws Exception {
        Object[] args = new Object[sources.length];
        for (int i = 0; i < sources.length; i++) {
            args[i] = switch (sources[i]) {
                case RECORD -> record;
                case CONTEXT -> context;
                case KEY -> checked(key, i, "key");
                case VALUE -> checked(record.value(), i, "value");
            };
        }
        try {
            return method.invoke(bean, args);
        } catch (InvocationTargetException e) {
            Throwable cause = e.getCause();
            if (cause instanceof Exception exception) {
                throw exception;
            }
            throw (Error) cause;
        }
    }

    private Object checked(Object value, int index, String what) {
        if (value != null && !types[index].isInstance(value)) {
            throw new RecordValueTypeException("the record's " + what + " is a " + value.getClass().getName()
                    + ", but parameter " + index + " of " + describe() + " takes a " + types[index].getName()
                    + "; configure a matching deserializer (spring.kafka.consumer." + what + "-deserializer)");
        }
        return value;
    }

    /** A record's key or value does not fit the method's parameter; retrying cannot help. */
    static final class RecordValueTypeException extends IllegalArgumentException {
        RecordValueTypeException(String message) {
            super(message);
        }
    }
}
