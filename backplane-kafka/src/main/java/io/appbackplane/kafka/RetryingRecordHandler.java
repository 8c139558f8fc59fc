package io.appbackplane.kafka;

import io.appbackplane.ActionContext;
import io.appbackplane.EndpointHandler;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Runs a {@link KafkaEndpoint} method for a record, and retries a failure with exponential back-off
 * on the same object: between attempts the object waits for a timer reply (rule 8) — no thread is
 * held, and the key's next record cannot overtake the retried one. After the last attempt the
 * action fails with {@link RecordFailedException} and the record goes to the dead-letter topic.
 */
final class RetryingRecordHandler implements EndpointHandler<PartitionFeed.Pending, Object> {

    private final RecordInvoker invoker;
    private final BackplaneKafkaProperties.Retry retry;

    RetryingRecordHandler(RecordInvoker invoker, BackplaneKafkaProperties.Retry retry) {
        this.invoker = invoker;
        this.retry = retry;
    }

    @Override
    public Object handle(ActionContext context, PartitionFeed.Pending pending) throws Exception {
        if (!pending.progress().start(pending.entry())) {
            throw new PartitionMovedException(pending.record());
        }
        return attempt(context, pending, 1);
    }

    private Object attempt(ActionContext context, PartitionFeed.Pending pending, int attempt) throws Exception {
        ConsumerRecord<Object, Object> record = pending.record();
        Object result;
        try {
            result = invoker.invoke(context, record, pending.key());
        } catch (Exception e) {
            return retryOrFail(context, pending, attempt, e);
        }
        if (result instanceof CompletableFuture<?> future && future.isDone()) {
            // Already answered (a cache hit, a synchronous path): no wait, so no second turn for its reply.
            try {
                return future.join();
            } catch (CompletionException | CancellationException e) {
                return retryOrFail(context, pending, attempt, e);
            }
        }
        if (result instanceof CompletionStage<?> stage) {
            return context.awaitReply(stage, (ctx, value, failure) ->
                    failure == null ? value : retryOrFail(ctx, pending, attempt, failure));
        }
        return result;
    }

    private Object retryOrFail(ActionContext context, PartitionFeed.Pending pending, int attempt, Throwable failure)
            throws Exception {
        ConsumerRecord<Object, Object> record = pending.record();
        Throwable cause = failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
        if (attempt >= retry.getAttempts() || cause instanceof RecordInvoker.RecordValueTypeException) {
            throw new RecordFailedException(record, attempt, cause);
        }
        CompletableFuture<Void> backoff = new CompletableFuture<Void>()
                .completeOnTimeout(null, retry.backoffBefore(attempt + 1).toMillis(), TimeUnit.MILLISECONDS);
        return context.awaitReply(backoff, (ctx, ignored, timerFailure) -> {
            if (!pending.progress().isOpen()) {
                throw new PartitionMovedException(record); // the new owner retries it
            }
            return attempt(ctx, pending, attempt + 1);
        });
    }

    /**
     * The record's partition was revoked or lost before the record started (or before its next
     * attempt): it does not run here, the partition's new owner runs it. Not a failure of the record.
     */
    static final class PartitionMovedException extends Exception {
        private static final long serialVersionUID = 1L;

        PartitionMovedException(ConsumerRecord<?, ?> record) {
            super("record " + record.topic() + "-" + record.partition() + "@" + record.offset()
                    + " not started: its partition moved to another consumer, which runs it", null, false, false);
        }
    }

    /** A record's action failed on its last attempt. */
    static final class RecordFailedException extends Exception {
        private static final long serialVersionUID = 1L;

        RecordFailedException(ConsumerRecord<?, ?> record, int attempts, Throwable cause) {
            super("record " + record.topic() + "-" + record.partition() + "@" + record.offset() + " (key " + record.key()
                    + ") failed " + attempts + (attempts == 1 ? " time" : " times") + ": " + cause, cause);
        }
    }
}
