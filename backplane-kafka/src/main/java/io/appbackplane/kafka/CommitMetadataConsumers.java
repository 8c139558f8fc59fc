package io.appbackplane.kafka;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.springframework.kafka.core.ConsumerPostProcessor;

/**
 * Wraps each consumer of one endpoint so that every offset it commits carries the partition's
 * completed offsets beyond it in its metadata ({@link CompletedOffsets}), and so that the endpoint
 * may commit on the consumer thread just before each poll. spring-kafka builds commit metadata
 * without knowing the partition ({@code OffsetAndMetadataProvider} gets only the offset), so the
 * commit calls themselves are where the partition is known.
 *
 * <p>A commit whose metadata is already set (by the application's {@code OffsetAndMetadataProvider},
 * or by {@link Source#beforePoll}) is left as it is. Threads: the wrapped consumer's, like the
 * consumer itself.
 */
final class CommitMetadataConsumers implements ConsumerPostProcessor<Object, Object> {

    /** What the wrapped consumers ask, on their own thread. */
    interface Source {
        /** The metadata to commit with {@code offset} for {@code partition}; empty for none. */
        String commitMetadata(TopicPartition partition, long offset);

        /**
         * Called on the consumer thread before a poll, with the wrapped consumer: before the first
         * poll and then at most once per {@link #BEFORE_POLL_INTERVAL}.
         */
        void beforePoll(Consumer<?, ?> consumer);
    }

    /** How often at most {@link Source#beforePoll} is called per consumer. */
    static final java.time.Duration BEFORE_POLL_INTERVAL = java.time.Duration.ofSeconds(1);

    private final Source source;

    CommitMetadataConsumers(Source source) {
        this.source = source;
    }

    @Override
    @SuppressWarnings("unchecked")
    public Consumer<Object, Object> apply(Consumer<Object, Object> consumer) {
        return (Consumer<Object, Object>) Proxy.newProxyInstance(Consumer.class.getClassLoader(),
                new Class<?>[] {Consumer.class}, new Handler(consumer, source));
    }

    private static final class Handler implements InvocationHandler {
        private final Consumer<Object, Object> consumer;
        private final Source source;
        /** When {@link Source#beforePoll} was last called (consumer thread only); 0 before the first. */
        private long lastBeforePoll;

        Handler(Consumer<Object, Object> consumer, Source source) {
            this.consumer = consumer;
            this.source = source;
        }

        @Override
        public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
            String name = method.getName();
            if (args != null && args.length > 0 && args[0] instanceof Map<?, ?> offsets
                    && (name.equals("commitSync") || name.equals("commitAsync"))) {
                args = args.clone();
                args[0] = withMetadata(offsets);
            } else if (name.equals("poll")) {
                long now = System.nanoTime();
                if (lastBeforePoll == 0 || now - lastBeforePoll >= BEFORE_POLL_INTERVAL.toNanos()) {
                    lastBeforePoll = now;
                    source.beforePoll((Consumer<?, ?>) proxy);
                }
            }
            try {
                return method.invoke(consumer, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        }

        private Map<TopicPartition, OffsetAndMetadata> withMetadata(Map<?, ?> offsets) {
            Map<TopicPartition, OffsetAndMetadata> result = new LinkedHashMap<>();
            offsets.forEach((key, value) -> {
                TopicPartition partition = (TopicPartition) key;
                OffsetAndMetadata offset = (OffsetAndMetadata) value;
                if (offset != null && (offset.metadata() == null || offset.metadata().isEmpty())) {
                    String metadata = source.commitMetadata(partition, offset.offset());
                    if (metadata != null && !metadata.isEmpty()) {
                        offset = new OffsetAndMetadata(offset.offset(), offset.leaderEpoch(), metadata);
                    }
                }
                result.put(partition, offset);
            });
            return result;
        }
    }
}
