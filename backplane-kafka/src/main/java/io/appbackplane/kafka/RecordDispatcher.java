package io.appbackplane.kafka;

import io.appbackplane.ActionEndpoint;
import io.appbackplane.BackplaneRejectedException;
import io.appbackplane.BackplaneShutdownException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Collection;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.kafka.listener.AcknowledgingConsumerAwareMessageListener;
import org.springframework.kafka.listener.CommonErrorHandler;
import org.springframework.kafka.listener.ConsumerAwareRebalanceListener;
import org.springframework.kafka.listener.MessageListenerContainer;
import org.springframework.kafka.support.Acknowledgment;

/**
 * The listener of one {@link KafkaEndpoint}'s container: turns each record into an action on the
 * object named by its key, tracks completion per partition and commits up to the first unfinished
 * record, holds records back and pauses when the component is full, and on revocation waits
 * (bounded) for the revoked partitions' in-flight records before their offsets are committed and
 * the partitions handed over.
 *
 * <p>Threads: the container's consumer threads call the listener, rebalance and error-handler
 * methods; actions complete on backplane workers (or the dead-letter publisher). Commits always
 * happen on the consumer thread: a completion calls {@code Acknowledgment.acknowledge()}, which
 * spring-kafka queues for the consumer thread (AckMode.MANUAL), and the revocation callback runs
 * before spring-kafka commits the queued acknowledgments of the revoked partitions.
 */
final class RecordDispatcher implements AcknowledgingConsumerAwareMessageListener<Object, Object>,
        ConsumerAwareRebalanceListener, CommonErrorHandler {

    private static final Logger LOG = LoggerFactory.getLogger(RecordDispatcher.class);

    private final String name;
    private final ActionEndpoint<PartitionFeed.Pending, Object> endpoint;
    private final ComponentThrottle throttle;
    private final DeadLetters deadLetters;
    private final Duration revokeTimeout;
    private final RecordKeyExpression keyExpression; // null: the record's key names its object
    private final Map<TopicPartition, PartitionFeed> feeds = new ConcurrentHashMap<>();
    private final Consumer<TopicPartition> firstSeen;
    private final Map<TopicPartition, Boolean> seen = new ConcurrentHashMap<>();
    final AtomicLong completed = new AtomicLong();
    final AtomicLong deadLettered = new AtomicLong();
    /** Records in flight when their partition was revoked or lost: the new owner runs them again. */
    final AtomicLong abandonedAtRevoke = new AtomicLong();
    /** Of those, records running when their partition was lost: they may have overlapped with the new owner. */
    final AtomicLong runningAtLoss = new AtomicLong();
    /** Records queued in the backplane that did not start because their partition had moved on. */
    final AtomicLong cancelledAfterMove = new AtomicLong();
    final AtomicLong handovers = new AtomicLong();
    final AtomicLong lastHandoverNanos = new AtomicLong();
    final AtomicLong maxHandoverNanos = new AtomicLong();

    /**
     * @param name {@code component.endpoint}, for logs and metrics
     * @param keyExpression reads each record's object key from its payload; null to use the record's key
     * @param firstSeen called once per partition, the first time this node is assigned it (registers meters)
     */
    RecordDispatcher(String name, ActionEndpoint<PartitionFeed.Pending, Object> endpoint,
            ComponentThrottle throttle, DeadLetters deadLetters, Duration revokeTimeout, RecordKeyExpression keyExpression,
            Consumer<TopicPartition> firstSeen) {
        this.name = name;
        this.endpoint = endpoint;
        this.throttle = throttle;
        this.deadLetters = deadLetters;
        this.revokeTimeout = revokeTimeout;
        this.keyExpression = keyExpression;
        this.firstSeen = firstSeen;
    }

    String name() {
        return name;
    }

    /** The payload key expression, or null when the record's key names its object. */
    String keyExpression() {
        return keyExpression == null ? null : keyExpression.toString();
    }

    ComponentThrottle throttle() {
        return throttle;
    }

    /**
     * The object a record runs on: its key (or the key extracted from its payload); a record without
     * one runs on its partition's object.
     */
    static Object objectKey(PartitionFeed.Pending pending) {
        Object key = pending.key();
        if (key == null) {
            return new PartitionKey(pending.record().topic(), pending.record().partition());
        }
        if (key instanceof byte[] bytes) {
            return ByteBuffer.wrap(bytes.clone()); // arrays compare by identity; buffers by content
        }
        return key;
    }

    /** The object of a record without a key: its partition (partition order). */
    record PartitionKey(String topic, int partition) {}

    // ---- consumer thread ---------------------------------------------------------------------

    @Override
    public void onMessage(ConsumerRecord<Object, Object> record, Acknowledgment acknowledgment,
            org.apache.kafka.clients.consumer.Consumer<?, ?> consumer) {
        PartitionFeed feed = feed(new TopicPartition(record.topic(), record.partition()));
        if (consumer != null) {
            feed.lag(consumer.currentLag(feed.partition).orElse(-1));
        }
        PartitionProgress.Entry entry = feed.progress.received(record.offset(), acknowledgment);
        Object key = record.key();
        if (keyExpression != null) {
            try {
                key = keyExpression.keyOf(record);
            } catch (RecordKeyExpression.KeyNotReadableException e) {
                LOG.error("{}: {}; sending it to the dead-letter topic", name, e.getMessage());
                deadLetter(feed, record, e, entry); // done in its place: the partition's later records go on
                return;
            }
        }
        if (!feed.offer(new PartitionFeed.Pending(record, key, feed.progress, entry))) {
            throttle.pause("could not take a record of " + feed.partition);
        }
    }

    private PartitionFeed feed(TopicPartition partition) {
        return feeds.computeIfAbsent(partition, tp -> {
            if (seen.putIfAbsent(tp, Boolean.TRUE) == null) {
                firstSeen.accept(tp);
            }
            return new PartitionFeed(tp, new PartitionProgress(last -> ((Acknowledgment) last.token).acknowledge()),
                    this::submit, throttle);
        });
    }

    @Override
    public void onPartitionsRevokedBeforeCommit(org.apache.kafka.clients.consumer.Consumer<?, ?> consumer,
            Collection<TopicPartition> partitions) {
        long start = System.nanoTime();
        long deadline = start + revokeTimeout.toNanos();
        int abandoned = 0;
        boolean any = false;
        for (TopicPartition tp : partitions) {
            PartitionFeed feed = feeds.remove(tp);
            if (feed == null) {
                continue;
            }
            any = true;
            try {
                abandoned += feed.revoke(Math.max(0, deadline - System.nanoTime()));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                abandoned += feed.progress.close().inFlight();
            }
        }
        if (!any) {
            return;
        }
        long took = System.nanoTime() - start;
        handovers.incrementAndGet();
        lastHandoverNanos.set(took);
        maxHandoverNanos.accumulateAndGet(took, Math::max);
        abandonedAtRevoke.addAndGet(abandoned);
        if (abandoned > 0) {
            LOG.warn("{}: handing over {} after {} ms with {} records still running (backplane.kafka.revoke-timeout = {});"
                    + " the new owner will run them again", name, partitions, took / 1_000_000, abandoned, revokeTimeout);
        } else {
            LOG.info("{}: handing over {} after {} ms; every received record finished and is committed", name, partitions,
                    took / 1_000_000);
        }
        // spring-kafka now commits the acknowledgments queued so far, on this thread, before the hand-over.
    }

    /**
     * The partitions were lost (this consumer was dropped from the group, e.g. closed during a
     * cooperative rebalance): their new owner may already be running their records, and no commit
     * is possible. Records held back or queued in the backplane are cancelled (they do not start
     * here; see {@link PartitionProgress#start}); only records already running may overlap with the
     * new owner, and their offsets are not committed.
     */
    @Override
    public void onPartitionsLost(org.apache.kafka.clients.consumer.Consumer<?, ?> consumer,
            Collection<TopicPartition> partitions) {
        for (TopicPartition tp : partitions) {
            PartitionFeed feed = feeds.remove(tp);
            if (feed != null) {
                PartitionProgress.Snapshot atLoss = feed.lose();
                abandonedAtRevoke.addAndGet(atLoss.inFlight());
                runningAtLoss.addAndGet(atLoss.running());
                LOG.warn("{}: lost {} (no commit possible) with {} records not done: {} still running (they may overlap with"
                        + " the new owner), the others cancelled here; the new owner runs them all again", name, tp,
                        atLoss.inFlight(), atLoss.running());
            }
        }
    }

    /**
     * A record the container could not hand to the listener (its key or value did not deserialize):
     * it goes to the dead-letter topic and counts as done, in its place in the partition's order.
     */
    @Override
    public boolean handleOne(Exception thrownException, ConsumerRecord<?, ?> record,
            org.apache.kafka.clients.consumer.Consumer<?, ?> consumer, MessageListenerContainer container) {
        PartitionFeed feed = feed(new TopicPartition(record.topic(), record.partition()));
        PartitionProgress.Entry entry = feed.progress.received(record.offset(), null);
        LOG.error("{}: record {}-{}@{} cannot be read ({}); sending it to the dead-letter topic", name, record.topic(),
                record.partition(), record.offset(), rootMessage(thrownException));
        deadLetter(feed, record, thrownException, entry);
        return true;
    }

    @Override
    public boolean isAckAfterHandle() {
        return false; // spring-kafka would commit past records still running in the backplane
    }

    @Override
    public void handleOtherException(Exception thrownException, org.apache.kafka.clients.consumer.Consumer<?, ?> consumer,
            MessageListenerContainer container, boolean batchListener) {
        LOG.error("{}: consumer error: {}", name, thrownException.toString(), thrownException);
    }

    // ---- any thread ---------------------------------------------------------------------------

    /** Queues the record's action; throws {@link BackplaneRejectedException} when the component cannot take it. */
    private void submit(PartitionFeed feed, PartitionFeed.Pending pending) {
        CompletableFuture<Object> done = endpoint.call(pending);
        done.whenComplete((result, failure) -> finished(feed, pending, failure));
        throttle.afterSubmit();
    }

    private void finished(PartitionFeed feed, PartitionFeed.Pending pending, Throwable failure) {
        if (failure == null) {
            if (feed.progress.done(pending.entry())) {
                completed.incrementAndGet();
            }
            throttle.afterDone();
            return;
        }
        Throwable cause = failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
        if (cause instanceof RetryingRecordHandler.PartitionMovedException) {
            cancelledAfterMove.incrementAndGet(); // not done here: the partition's new owner runs it
            throttle.afterDone();
            return;
        }
        if (cause instanceof BackplaneShutdownException
                || cause instanceof BackplaneRejectedException rejected && !rejected.isRetryable()) {
            // Not done: the offset stays uncommitted and the record is delivered again after the restart.
            LOG.debug("{}: record {}-{}@{} not finished before shutdown; it will be delivered again", name,
                    feed.partition.topic(), feed.partition.partition(), pending.record().offset());
            return;
        }
        throttle.afterDone();
        deadLetter(feed, pending.record(), cause instanceof Exception e ? e : new IllegalStateException(cause),
                pending.entry());
    }

    private void deadLetter(PartitionFeed feed, ConsumerRecord<?, ?> record, Exception failure, PartitionProgress.Entry entry) {
        deadLetters.publish(record, failure, () -> {
            if (feed.progress.done(entry)) {
                deadLettered.incrementAndGet();
            }
        });
    }

    /** Submits every partition's held-back records; whether all backlogs are now empty. */
    boolean drainBacklogs() {
        boolean empty = true;
        for (PartitionFeed feed : feeds.values()) {
            empty &= feed.drain();
        }
        return empty;
    }

    /** The partitions assigned to this node now. */
    Map<TopicPartition, PartitionFeed> feeds() {
        return feeds;
    }

    static String rootMessage(Throwable t) {
        Throwable root = t;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root == t ? t.toString() : t + " caused by " + root;
    }
}
