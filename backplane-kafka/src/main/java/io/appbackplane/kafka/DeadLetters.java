package io.appbackplane.kafka;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.kafka.listener.DeadLetterPublishingRecoverer;

/**
 * Publishes failed records to their dead-letter topic with spring-kafka's {@link
 * DeadLetterPublishingRecoverer} (which adds the exception, original topic, partition and offset as
 * headers), on a thread of its own so no backplane worker waits for the broker. A record counts as
 * done only once the dead-letter topic has it; a failed publish is retried every {@code retryDelay}
 * until it succeeds or the node stops (then the record stays uncommitted and comes back).
 */
final class DeadLetters implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(DeadLetters.class);

    private final DeadLetterPublishingRecoverer recoverer;
    private final Duration retryDelay;
    private final ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread thread = new Thread(r, "backplane-kafka-dead-letters");
        thread.setDaemon(true);
        return thread;
    });

    DeadLetters(DeadLetterPublishingRecoverer recoverer, Duration retryDelay) {
        this.recoverer = recoverer;
        this.retryDelay = retryDelay;
    }

    /** Publishes {@code record} with {@code failure}'s details, then runs {@code published}. */
    void publish(ConsumerRecord<?, ?> record, Exception failure, Runnable published) {
        executor.execute(() -> attempt(record, failure, published));
    }

    private void attempt(ConsumerRecord<?, ?> record, Exception failure, Runnable published) {
        try {
            recoverer.accept(record, null, failure);
        } catch (RuntimeException e) {
            LOG.error("Could not publish record {}-{}@{} to its dead-letter topic ({}); it stays uncommitted, retrying in {}",
                    record.topic(), record.partition(), record.offset(), RecordDispatcher.rootMessage(e), retryDelay);
            if (!executor.isShutdown()) {
                executor.schedule(() -> attempt(record, failure, published), retryDelay.toMillis(), TimeUnit.MILLISECONDS);
            }
            return;
        }
        published.run();
    }

    @Override
    public void close() {
        executor.shutdown();
        try {
            executor.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
