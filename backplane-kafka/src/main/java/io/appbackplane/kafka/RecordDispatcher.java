package io.appbackplane.kafka;

import io.appbackplane.ActionEndpoint;
import io.appbackplane.BackplaneRejectedException;
import io.appbackplane.BackplaneShutdownException;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
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
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
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
        ConsumerAwareRebalanceListener, CommonErrorHandler, ComponentThrottle.Backlogs, CommitMetadataConsumers.Source {

    private static final Logger LOG = LoggerFactory.getLogger(RecordDispatcher.class);

    private final String name;
    private final ActionEndpoint<PartitionFeed.Pending, Object> endpoint;
    private final ComponentThrottle throttle;
    private final DeadLetters deadLetters;
    private final Duration revokeTimeout;
    private final RecordKeyExpression keyExpression; // null: the record's key names its object
    private final Map<TopicPartition, PartitionFeed> feeds = new ConcurrentHashMap<>();
    /** Revoked partitions between the revocation and spring-kafka's commit of their acknowledgments. */
    private final Map<TopicPartition, PartitionFeed> handingOver = new ConcurrentHashMap<>();
    private final Window window;
    /** Pauses and resumes a partition whose window is full; set once the container exists. */
    private volatile MessageListenerContainer container;
    private final Consumer<TopicPartition> firstSeen;
    private final Map<TopicPartition, Boolean> seen = new ConcurrentHashMap<>();
    private final RecordDeserializer deserializer;
    private final RateLimitedLog deadLetterLog = new RateLimitedLog(LOG, Duration.ofSeconds(5));
    /** Where the container's listener observation of the record being taken is current; null: records are not observed. */
    private final ObservationRegistry recordObservations;
    /** Stops this endpoint's container (dead-letter policy STOP); set once the container exists. */
    private volatile Runnable stopContainer = () -> {};
    final AtomicLong completed = new AtomicLong();
    final AtomicLong deadLettered = new AtomicLong();
    /** Records whose dead-letter publish failed every attempt and were skipped (policy SKIP). */
    final AtomicLong deadLetterFailed = new AtomicLong();
    /** Records in flight when their partition was revoked or lost: the new owner runs them again. */
    final AtomicLong abandonedAtRevoke = new AtomicLong();
    /** Of those, records running when their partition was lost: they may have overlapped with the new owner. */
    final AtomicLong runningAtLoss = new AtomicLong();
    /** Records queued in the backplane that did not start because their partition had moved on. */
    final AtomicLong cancelledAfterMove = new AtomicLong();
    /** Records not run because an earlier owner of their partition completed them (commit metadata). */
    final AtomicLong alreadyCompleted = new AtomicLong();
    /** Times a partition's window filled up and the partition was paused. */
    final AtomicLong windowPauses = new AtomicLong();
    final AtomicLong handovers = new AtomicLong();
    final AtomicLong lastHandoverNanos = new AtomicLong();
    final AtomicLong maxHandoverNanos = new AtomicLong();

    /**
     * Per partition: at most {@code limit} records received and not committed; a full partition is
     * paused until it falls to {@code resumeAt}. Commits carry the completed offsets beyond the first
     * unfinished record in at most {@code metadataMaxLength} characters of metadata (0: none).
     */
    record Window(int limit, int resumeAt, int metadataMaxLength) {}

    /**
     * @param name {@code component.endpoint}, for logs and metrics
     * @param keyExpression reads each record's object key from its payload; null to use the record's key
     * @param firstSeen called once per partition, the first time this node is assigned it (registers meters)
     * @param recordObservations the registry of the container's listener observations when it observes
     *     records ({@code spring.kafka.listener.observation-enabled}); null when it does not
     */
    RecordDispatcher(String name, ActionEndpoint<PartitionFeed.Pending, Object> endpoint,
            ComponentThrottle throttle, DeadLetters deadLetters, Duration revokeTimeout, RecordKeyExpression keyExpression,
            RecordDeserializer deserializer, Window window, Consumer<TopicPartition> firstSeen, ObservationRegistry recordObservations) {
        this.recordObservations = recordObservations;
        this.name = name;
        this.window = window;
        this.deserializer = deserializer;
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

    /** How to stop this endpoint's container (dead-letter policy STOP). */
    void stopContainerWith(Runnable stop) {
        this.stopContainer = stop;
    }

    /** The container whose partitions a full window pauses. */
    void partitionsPausedBy(MessageListenerContainer container) {
        this.container = container;
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

    /**
     * Takes a record as consumed (key and value as bytes). Whatever the application's code throws
     * for this one record — its deserializers, its key expression — sends the record to the
     * dead-letter path in its place in the partition's order, and the partition goes on.
     */
    @Override
    public void onMessage(ConsumerRecord<Object, Object> raw, Acknowledgment acknowledgment,
            org.apache.kafka.clients.consumer.Consumer<?, ?> consumer) {
        PartitionFeed feed = feed(new TopicPartition(raw.topic(), raw.partition()));
        if (consumer != null) {
            feed.lag(consumer.currentLag(feed.partition).orElse(-1));
        }
        PartitionProgress.Entry entry = admit(feed, raw, acknowledgment, consumer);
        if (entry == null || entry.done) {
            return;
        }
        PartitionFeed.Pending pending;
        try {
            RecordDeserializer.Result result = deserializer.deserialize(raw);
            if (result.failure() != null) {
                deadLetter(feed, raw, result.failure(), entry, "its " + (result.failure().isKey() ? "key" : "value")
                        + " cannot be deserialized: " + rootMessage(result.failure()));
                return;
            }
            ConsumerRecord<Object, Object> record = result.record();
            Object key = keyExpression != null ? keyExpression.keyOf(record) : record.key();
            pending = new PartitionFeed.Pending(record, raw, key, feed.progress, entry,
                    recordObservations == null ? null : recordObservations.getCurrentObservation());
        } catch (RuntimeException e) {
            String reason = e instanceof RecordKeyExpression.KeyNotReadableException ? e.getMessage()
                    : "reading it failed: " + e;
            deadLetter(feed, raw, e, entry, reason);
            return;
        }
        if (!feed.offer(pending)) {
            throttle.pause("could not take a record of " + feed.partition);
        }
    }

    /**
     * Registers {@code record} in its partition's window. Null when it must not run now: it was
     * fetched before the consumer was sought back to an earlier record, or the window is full — then
     * the consumer is sought back to it and the partition paused until the window has room, so no
     * record beyond the window is held in memory. An entry already done for a record an earlier
     * owner completed (it does not run again).
     */
    private PartitionProgress.Entry admit(PartitionFeed feed, ConsumerRecord<?, ?> record, Object token,
            org.apache.kafka.clients.consumer.Consumer<?, ?> consumer) {
        if (feed.rewound) {
            // After a poll the position is past every record it returned; at or before this one, the
            // record came from a fetch before the seek back.
            if (consumer != null && consumer.position(feed.partition) <= record.offset()) {
                return null;
            }
            feed.rewound = false;
        }
        PartitionProgress.Entry entry = feed.progress.admit(record.offset(), token);
        if (entry == null) {
            if (consumer == null) {
                return feed.progress.received(record.offset(), token); // no seek possible: taken beyond the window
            }
            consumer.seek(feed.partition, record.offset());
            feed.rewound = true;
            return null;
        }
        if (entry.done) {
            alreadyCompleted.incrementAndGet();
        }
        return entry;
    }

    private PartitionFeed feed(TopicPartition partition) {
        return feeds.computeIfAbsent(partition, tp -> {
            if (seen.putIfAbsent(tp, Boolean.TRUE) == null) {
                firstSeen.accept(tp);
            }
            PartitionProgress progress = new PartitionProgress(last -> ((Acknowledgment) last.token).acknowledge(),
                    window.limit(), window.resumeAt(), () -> pauseFull(tp), () -> resumeWithRoom(tp));
            return new PartitionFeed(tp, progress, this::submit, throttle);
        });
    }

    /** The partition's window is full: spring-kafka pauses it before its next poll. */
    private void pauseFull(TopicPartition partition) {
        windowPauses.incrementAndGet();
        LOG.debug("{}: {} has {} records received and not committed (backplane.kafka.max-uncommitted); pausing it", name,
                partition, window.limit());
        MessageListenerContainer current = container;
        if (current != null) {
            current.pausePartition(partition);
        }
    }

    private void resumeWithRoom(TopicPartition partition) {
        MessageListenerContainer current = container;
        if (current != null) {
            current.resumePartition(partition);
        }
    }

    /**
     * Partitions newly assigned to this consumer: listed at once (the actuator shows the assignment
     * as the consumer has it, before any record arrives).
     */
    @Override
    public void onPartitionsAssigned(org.apache.kafka.clients.consumer.Consumer<?, ?> consumer,
            Collection<TopicPartition> partitions) {
        partitions.forEach(this::feed);
        if (window.metadataMaxLength() > 0 && !partitions.isEmpty()) {
            inheritCompleted(consumer, partitions);
        }
    }

    /**
     * Reads the partitions' committed offsets and the offsets completed beyond them that their
     * metadata names, so those records are not run again here.
     */
    private void inheritCompleted(org.apache.kafka.clients.consumer.Consumer<?, ?> consumer,
            Collection<TopicPartition> partitions) {
        Map<TopicPartition, OffsetAndMetadata> committed;
        try {
            committed = consumer.committed(new java.util.HashSet<>(partitions));
        } catch (RuntimeException e) {
            LOG.warn("{}: could not read the committed offsets of {} ({}); records completed beyond them before the hand-over"
                    + " run again", name, partitions, e.toString());
            return;
        }
        committed.forEach((tp, offset) -> {
            PartitionFeed feed = feeds.get(tp);
            if (offset == null || feed == null) {
                return;
            }
            try {
                CompletedOffsets completed = CompletedOffsets.decode(offset.offset(), offset.metadata());
                if (!completed.isEmpty()) {
                    feed.progress.inherit(completed);
                    LOG.info("{}: {} from committed offset {}: {} records beyond it completed before (commit metadata);"
                            + " they do not run again", name, tp, offset.offset(), completed.count());
                }
            } catch (RuntimeException e) {
                LOG.warn("{}: the commit metadata of {} cannot be read ({}); records completed beyond offset {} run again",
                        name, tp, e.toString(), offset.offset());
            }
        });
    }

    @Override
    public String commitMetadata(TopicPartition partition, long offset) {
        PartitionFeed feed = feeds.get(partition);
        if (feed == null) {
            feed = handingOver.get(partition);
        }
        return feed == null ? "" : feed.progress.commitMetadata(offset, window.metadataMaxLength());
    }

    /**
     * Commits, for each partition of {@code consumer} that completed records beyond its first
     * unfinished one since its last commit, the offset of that record with the completed ones in the
     * metadata: without it nothing would be committed while one slow record holds the offset back, and
     * a crash would run them all again.
     */
    @Override
    public void beforePoll(org.apache.kafka.clients.consumer.Consumer<?, ?> consumer) {
        if (window.metadataMaxLength() <= 0) {
            return;
        }
        try {
            Map<TopicPartition, OffsetAndMetadata> commits = completedBeyondGap(consumer.assignment(), feeds, true);
            if (!commits.isEmpty()) {
                consumer.commitAsync(commits, (offsets, failure) -> {
                    if (failure != null) {
                        LOG.debug("{}: committing the completed offsets of {} failed: {}", name, commits.keySet(),
                                failure.toString());
                    }
                });
            }
        } catch (RuntimeException e) {
            // the next attempt, or the next commit of the partition, carries them
            LOG.debug("{}: committing the completed offsets failed: {}", name, e.toString());
        }
    }

    /**
     * For each of {@code partitions} with records completed beyond its first unfinished one (only if
     * that changed since its last commit, when {@code onlyChanged}): that record's offset, with the
     * completed ones in the metadata.
     */
    private Map<TopicPartition, OffsetAndMetadata> completedBeyondGap(Collection<TopicPartition> partitions,
            Map<TopicPartition, PartitionFeed> from, boolean onlyChanged) {
        Map<TopicPartition, OffsetAndMetadata> commits = new java.util.HashMap<>();
        for (TopicPartition tp : partitions) {
            PartitionFeed feed = from.get(tp);
            if (feed != null && (!onlyChanged || feed.progress.completedBeyondGap())) {
                long offset = feed.progress.firstNotDone();
                String metadata = offset < 0 ? "" : feed.progress.commitMetadata(offset, window.metadataMaxLength());
                if (!metadata.isEmpty()) {
                    commits.put(tp, new OffsetAndMetadata(offset, metadata));
                }
            }
        }
        return commits;
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
            handingOver.put(tp, feed);
            resumeWithRoom(tp); // a paused partition that comes back starts with an empty window
            any |= feed.progress.snapshot().received() > 0;
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
        commitCompletedAtHandOver(consumer, partitions);
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

    /** The completed offsets beyond the first gap go with the hand-over, so the new owner skips them. */
    private void commitCompletedAtHandOver(org.apache.kafka.clients.consumer.Consumer<?, ?> consumer,
            Collection<TopicPartition> partitions) {
        if (window.metadataMaxLength() <= 0) {
            return;
        }
        Map<TopicPartition, OffsetAndMetadata> commits = completedBeyondGap(partitions, handingOver, false);
        if (commits.isEmpty()) {
            return;
        }
        try {
            consumer.commitSync(commits);
        } catch (RuntimeException e) {
            LOG.warn("{}: committing the completed offsets of {} at the hand-over failed ({}); the new owner runs those records"
                    + " again", name, commits.keySet(), e.toString());
        }
    }

    @Override
    public void onPartitionsRevokedAfterCommit(org.apache.kafka.clients.consumer.Consumer<?, ?> consumer,
            Collection<TopicPartition> partitions) {
        partitions.forEach(handingOver::remove);
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
            resumeWithRoom(tp);
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
     * A record the container could not hand to the listener, or for which the listener threw
     * (neither should happen: records are consumed as bytes and {@link #onMessage} catches what the
     * application's code throws): it goes to the dead-letter path in its place in the partition's
     * order, and the partition goes on rather than the record being redelivered without end.
     */
    @Override
    public boolean handleOne(Exception thrownException, ConsumerRecord<?, ?> record,
            org.apache.kafka.clients.consumer.Consumer<?, ?> consumer, MessageListenerContainer container) {
        PartitionFeed feed = feed(new TopicPartition(record.topic(), record.partition()));
        PartitionProgress.Entry entry = feed.progress.entryFor(record.offset());
        if (entry == null) {
            entry = admit(feed, record, null, consumer);
            if (entry == null || entry.done) {
                return true; // read again once the window has room, or completed before
            }
        }
        deadLetter(feed, record, thrownException, entry, "the listener failed: " + rootMessage(thrownException));
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

    /**
     * Queues the record's action; throws {@link BackplaneRejectedException} when the component
     * cannot take it, and nothing else (any other failure to queue it fails the record).
     */
    private void submit(PartitionFeed feed, PartitionFeed.Pending pending) {
        CompletableFuture<Object> done;
        // The record's own listener observation is current while its action is queued, whichever
        // thread submits it (a held-back record is submitted by the thread that drains the backlog,
        // perhaps while a later record's observation is current there): the action's observations
        // are its children, so the trace of the record's headers continues into the action.
        Observation.Scope scope = pending.receivedIn() == null ? null : pending.receivedIn().openScope();
        try {
            done = endpoint.call(pending);
        } catch (BackplaneRejectedException e) {
            throw e;
        } catch (RuntimeException e) {
            done = CompletableFuture.failedFuture(e);
        } finally {
            if (scope != null) {
                scope.close();
            }
        }
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
        deadLetter(feed, pending.raw(), cause instanceof Exception e ? e : new IllegalStateException(cause),
                pending.entry(), cause instanceof RetryingRecordHandler.RecordFailedException ? cause.getMessage()
                        : "its action failed: " + cause);
    }

    /**
     * Sends {@code record} (as consumed) to the dead-letter path: logged (rate-limited) with its
     * coordinates and {@code reason}, published, and done once published. If every publish attempt
     * fails, {@code backplane.kafka.dead-letter.on-failure} decides: SKIP counts it and marks it done
     * (logged), STOP leaves it uncommitted and stops the endpoint's container (logged).
     */
    private void deadLetter(PartitionFeed feed, ConsumerRecord<?, ?> record, Exception failure, PartitionProgress.Entry entry,
            String reason) {
        String coordinates = DeadLetters.coordinates(record);
        deadLetterLog.warn(name + ": record " + coordinates + " goes to the dead-letter topic: " + reason);
        deadLetters.publish(record, failure, new DeadLetters.Outcome() {
            @Override
            public void published() {
                if (feed.progress.done(entry)) {
                    deadLettered.incrementAndGet();
                }
            }

            @Override
            public void gaveUp(Exception lastFailure) {
                BackplaneKafkaProperties.DeadLetter policy = deadLetters.policy();
                if (policy.getOnFailure() == BackplaneKafkaProperties.OnFailure.STOP) {
                    LOG.error("{}: record {} could not be published to its dead-letter topic in {} attempts ({}); it stays"
                            + " uncommitted and the endpoint's container stops (backplane.kafka.dead-letter.on-failure=stop)."
                            + " Why it was dead-lettered: {}", name, coordinates, policy.getAttempts(), rootMessage(lastFailure),
                            reason);
                    feed.progress.withdraw(entry);
                    stopContainer.run();
                    return;
                }
                LOG.error("{}: record {} could not be published to its dead-letter topic in {} attempts ({}); skipping it"
                        + " (backplane.kafka.dead-letter.on-failure=skip, counted as {}{{outcome=dead-letter-failed}})."
                        + " Why it was dead-lettered: {}", name, coordinates, policy.getAttempts(), rootMessage(lastFailure),
                        BackplaneKafkaMeters.RECORDS, reason);
                if (feed.progress.done(entry)) {
                    deadLetterFailed.incrementAndGet();
                }
            }
        });
    }

    /** Submits every partition's held-back records; whether all backlogs are now empty. */
    @Override
    public boolean drainBacklogs() {
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
