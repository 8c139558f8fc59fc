package io.appbackplane.kafka;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.ToDoubleFunction;
import org.apache.kafka.common.TopicPartition;

/**
 * The {@code backplane.kafka.*} meters. Per endpoint (tags {@code component}, {@code endpoint},
 * {@code group}): records by outcome, time paused, hand-overs. Per partition (plus tags {@code
 * topic}, {@code partition}), registered when this node is first assigned the partition and
 * reading NaN while it is not: lag, in-flight records, committed offset, time paused.
 */
public final class BackplaneKafkaMeters implements MeterBinder, KafkaEndpointRegistrar.Listener {

    /**
     * Records finished, by outcome: completed, dead-lettered, dead-letter-failed (every dead-letter
     * publish failed and the record was skipped), redelivered (still running at a hand-over),
     * already-completed (not run: an earlier owner of the partition completed it, as its commit metadata said).
     */
    public static final String RECORDS = "backplane.kafka.records";
    /**
     * Of the redelivered records, those still running here when their partition was lost (no
     * revocation: they may have run on two nodes at once) (counter).
     */
    public static final String RUNNING_WHEN_LOST = "backplane.kafka.records.running.when.lost";
    /**
     * Of the redelivered records, those queued in the backplane that never started here because
     * their partition had moved on (the new owner runs them) (counter).
     */
    public static final String CANCELLED_AFTER_HANDOVER = "backplane.kafka.records.cancelled.after.handover";
    /** Seconds the endpoint's partitions were paused by back pressure (counter). */
    public static final String PAUSED = "backplane.kafka.paused";
    /** Partition hand-overs (revocations) this node went through (counter). */
    public static final String HANDOVERS = "backplane.kafka.handovers";
    /** How long the last hand-over waited for in-flight records, seconds (gauge). */
    public static final String HANDOVER_LAST = "backplane.kafka.handover.last";
    /** Records the consumer has not fetched yet, at the last record received (gauge, per partition). */
    public static final String LAG = "backplane.kafka.lag";
    /** Records received and not done (gauge, per partition). */
    public static final String IN_FLIGHT = "backplane.kafka.in.flight";
    /**
     * Records received and not committed: in flight, or done behind an earlier one that is not (gauge,
     * per partition); at most {@code backplane.kafka.max-uncommitted}.
     */
    public static final String UNCOMMITTED = "backplane.kafka.uncommitted";
    /** Times a partition's window of uncommitted records filled up and the partition was paused (counter). */
    public static final String WINDOW_PAUSES = "backplane.kafka.window.pauses";
    /** The offset handed on for commit (gauge, per partition). */
    public static final String COMMITTED = "backplane.kafka.committed.offset";
    /** Seconds the partition was paused during this assignment (gauge, per partition). */
    public static final String PARTITION_PAUSED = "backplane.kafka.partition.paused";

    private volatile MeterRegistry registry;
    private final List<Runnable> deferred = new CopyOnWriteArrayList<>();

    @Override
    public synchronized void bindTo(MeterRegistry registry) {
        this.registry = registry;
        deferred.forEach(Runnable::run);
        deferred.clear();
    }

    private synchronized void whenBound(Runnable registration) {
        if (registry != null) {
            registration.run();
        } else {
            deferred.add(registration);
        }
    }

    @Override
    public void registered(KafkaEndpointRegistrar.Registration r) {
        Tags tags = Tags.of("component", r.component(), "endpoint", r.endpoint(), "group", r.groupId());
        RecordDispatcher d = r.dispatcher();
        whenBound(() -> {
            FunctionCounter.builder(RECORDS, d, x -> x.completed.get()).tags(tags).tag("outcome", "completed").register(registry);
            FunctionCounter.builder(RECORDS, d, x -> x.deadLettered.get()).tags(tags).tag("outcome", "dead-lettered").register(registry);
            FunctionCounter.builder(RECORDS, d, x -> x.deadLetterFailed.get()).tags(tags).tag("outcome", "dead-letter-failed").register(registry);
            FunctionCounter.builder(RECORDS, d, x -> x.abandonedAtRevoke.get()).tags(tags).tag("outcome", "redelivered").register(registry);
            FunctionCounter.builder(RECORDS, d, x -> x.alreadyCompleted.get()).tags(tags).tag("outcome", "already-completed").register(registry);
            FunctionCounter.builder(WINDOW_PAUSES, d, x -> x.windowPauses.get()).tags(tags).register(registry);
            FunctionCounter.builder(RUNNING_WHEN_LOST, d, x -> x.runningAtLoss.get()).tags(tags).register(registry);
            FunctionCounter.builder(CANCELLED_AFTER_HANDOVER, d, x -> x.cancelledAfterMove.get()).tags(tags).register(registry);
            FunctionCounter.builder(PAUSED, d, x -> x.throttle().pausedNanos() / 1e9).tags(tags).baseUnit("seconds").register(registry);
            FunctionCounter.builder(HANDOVERS, d, x -> x.handovers.get()).tags(tags).register(registry);
            Gauge.builder(HANDOVER_LAST, d, x -> x.lastHandoverNanos.get() / 1e9).tags(tags).baseUnit("seconds").register(registry);
        });
    }

    @Override
    public void partitionAssigned(KafkaEndpointRegistrar.Registration r, TopicPartition tp) {
        Tags tags = Tags.of("component", r.component(), "endpoint", r.endpoint(), "group", r.groupId(),
                "topic", tp.topic(), "partition", Integer.toString(tp.partition()));
        RecordDispatcher d = r.dispatcher();
        whenBound(() -> {
            gauge(LAG, d, tp, tags, PartitionFeed::lag);
            gauge(IN_FLIGHT, d, tp, tags, f -> f.progress.snapshot().inFlight());
            gauge(UNCOMMITTED, d, tp, tags, f -> f.progress.snapshot().uncommitted());
            gauge(COMMITTED, d, tp, tags, f -> f.progress.snapshot().committedOffset());
            gauge(PARTITION_PAUSED, d, tp, tags, f -> f.pausedNanos() / 1e9);
        });
    }

    private void gauge(String name, RecordDispatcher d, TopicPartition tp, Tags tags, ToDoubleFunction<PartitionFeed> value) {
        Gauge.builder(name, d, x -> {
            PartitionFeed feed = x.feeds().get(tp);
            return feed == null ? Double.NaN : value.applyAsDouble(feed);
        }).tags(tags).register(registry);
    }
}
