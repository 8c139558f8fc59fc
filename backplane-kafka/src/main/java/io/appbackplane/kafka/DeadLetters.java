package io.appbackplane.kafka;

import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hands failed records to the {@link KafkaDeadLetterRecoverer} on a thread of its own, so no
 * backplane worker or consumer thread waits for the broker. A failed publish is tried again a
 * bounded number of times ({@code backplane.kafka.dead-letter.attempts}, {@code retry-delay}
 * apart); then the caller is told it gave up and applies {@code on-failure}. No record waits
 * without end for its dead-letter copy.
 *
 * <p>Threads: {@link #publish} from any thread; the recoverer and the outcome callbacks run on the
 * dead-letter thread. Once closed, records not yet published stay uncommitted (delivered again
 * after the restart).
 */
final class DeadLetters implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(DeadLetters.class);

    /** What became of a record's dead-letter publish. */
    interface Outcome {
        /** The recoverer stored it. */
        void published();

        /** Every attempt failed; {@code lastFailure} is the last attempt's. */
        void gaveUp(Exception lastFailure);
    }

    private final KafkaDeadLetterRecoverer recoverer;
    private final BackplaneKafkaProperties.DeadLetter policy;
    private final ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread thread = new Thread(r, "backplane-kafka-dead-letters");
        thread.setDaemon(true);
        return thread;
    });

    DeadLetters(KafkaDeadLetterRecoverer recoverer, BackplaneKafkaProperties.DeadLetter policy) {
        this.recoverer = recoverer;
        this.policy = policy;
    }

    BackplaneKafkaProperties.DeadLetter policy() {
        return policy;
    }

    /** Publishes {@code record} (as consumed) with {@code failure}'s details; tells {@code outcome}. */
    void publish(ConsumerRecord<?, ?> record, Exception failure, Outcome outcome) {
        try {
            executor.execute(() -> attempt(record, failure, outcome, 1));
        } catch (RejectedExecutionException e) {
            LOG.debug("Not publishing {} to its dead-letter topic: shutting down; it stays uncommitted", coordinates(record));
        }
    }

    private void attempt(ConsumerRecord<?, ?> record, Exception failure, Outcome outcome, int attempt) {
        try {
            recoverer.recover(record, failure);
        } catch (Exception e) {
            if (executor.isShutdown()) {
                LOG.debug("Could not publish {} to its dead-letter topic while shutting down; it stays uncommitted",
                        coordinates(record));
                return;
            }
            if (attempt < policy.getAttempts()) {
                LOG.warn("Could not publish record {} to its dead-letter topic (attempt {} of {}): {}; trying again in {}",
                        coordinates(record), attempt, policy.getAttempts(), RecordDispatcher.rootMessage(e),
                        policy.getRetryDelay());
                try {
                    executor.schedule(() -> attempt(record, failure, outcome, attempt + 1), policy.getRetryDelay().toNanos(),
                            TimeUnit.NANOSECONDS);
                    return;
                } catch (RejectedExecutionException closing) {
                    return; // shutting down: it stays uncommitted
                }
            }
            outcome.gaveUp(e);
            return;
        }
        outcome.published();
    }

    static String coordinates(ConsumerRecord<?, ?> record) {
        return record.topic() + "-" + record.partition() + "@" + record.offset();
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
