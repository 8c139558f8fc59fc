package io.appbackplane.kafka;

import io.appbackplane.BackplaneRejectedException;
import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;

/**
 * One partition while it is assigned to this node: its {@link PartitionProgress} (what may be
 * committed) and its backlog — records received while the component could not take them (at its
 * limit, or not in an accepting state), held in offset order until it can.
 *
 * <p>Threads: {@link #offer} on the consumer thread; {@link #drain} on any thread (the throttle's
 * resume, under the throttle's lock); {@link #revoke} on the consumer thread. The backlog is guarded
 * by this object's monitor. Invariant: while the backlog is not empty, no later record of the
 * partition is submitted before it (partition order, hence key order, holds).
 */
final class PartitionFeed {

    /**
     * A received record on its way through the backplane: the endpoint's request.
     *
     * @param key the key naming its object: the record's key, or the key extracted from its payload
     *     ({@code @KafkaEndpoint(key)}); see {@link RecordDispatcher#objectKey}
     * @param progress the assignment it was received in; once that is closed the record does not start
     * @param entry its place in the progress window
     */
    record Pending(ConsumerRecord<Object, Object> record, Object key, PartitionProgress progress,
            PartitionProgress.Entry entry) {}

    /** Submits a record to the backplane; throws {@link BackplaneRejectedException} when it is not taken. */
    interface Submitter {
        void submit(PartitionFeed feed, Pending pending);
    }

    final TopicPartition partition;
    final PartitionProgress progress;
    private final Submitter submitter;
    private final ArrayDeque<Pending> backlog = new ArrayDeque<>();
    private final long pausedNanosAtStart;
    private final ComponentThrottle throttle;
    private volatile long lag = -1;
    private boolean revoked;

    PartitionFeed(TopicPartition partition, PartitionProgress progress, Submitter submitter, ComponentThrottle throttle) {
        this.partition = partition;
        this.progress = progress;
        this.submitter = submitter;
        this.throttle = throttle;
        this.pausedNanosAtStart = throttle.pausedNanos();
    }

    /**
     * Submits {@code pending}, or holds it back behind earlier held-back records.
     *
     * @return false if it was held back (the caller pauses the partition's container)
     */
    synchronized boolean offer(Pending pending) {
        if (revoked) {
            return true; // not ours any more: it will be delivered to the new owner
        }
        if (!backlog.isEmpty()) {
            backlog.addLast(pending);
            return false;
        }
        if (!trySubmit(pending)) {
            backlog.addLast(pending);
            return false;
        }
        return true;
    }

    /**
     * Submits held-back records in order until one is rejected again.
     *
     * @return whether the backlog is now empty
     */
    synchronized boolean drain() {
        while (!revoked && !backlog.isEmpty()) {
            // Taken off before submitting: a completion that runs synchronously inside submit may
            // drain again (reentrant) and must see the next record as the head.
            Pending head = backlog.pollFirst();
            if (!trySubmit(head)) {
                backlog.offerFirst(head);
                return false;
            }
        }
        return true;
    }

    private boolean trySubmit(Pending pending) {
        try {
            submitter.submit(this, pending);
            return true;
        } catch (BackplaneRejectedException e) {
            if (!e.isRetryable()) {
                return true; // closing: left uncommitted, delivered again after the restart
            }
            return false;
        }
    }

    /**
     * Ends this assignment: drops the backlog (never started, so the next owner gets those records
     * from the committed offset), waits up to {@code timeoutNanos} for the in-flight records, and
     * closes the progress so nothing more is committed and no record still queued in the backplane starts.
     *
     * @return the records still in flight when it closed (the new owner will run them again)
     */
    int revoke(long timeoutNanos) throws InterruptedException {
        synchronized (this) {
            revoked = true;
            backlog.clear();
        }
        return progress.closeAfter(timeoutNanos, TimeUnit.NANOSECONDS);
    }

    /**
     * Ends this assignment at once (the partition was lost: its new owner may already run its
     * records, and no commit is possible): drops the backlog and closes the progress, so records
     * queued in the backplane do not start; only those already running may overlap with the new owner.
     *
     * @return the progress at the close
     */
    PartitionProgress.Snapshot lose() {
        synchronized (this) {
            revoked = true;
            backlog.clear();
        }
        return progress.close();
    }

    synchronized int backlogSize() {
        return backlog.size();
    }

    /** The consumer's lag for the partition at the last record received ({@code -1} if unknown). */
    long lag() {
        return lag;
    }

    void lag(long lag) {
        this.lag = lag;
    }

    /** Time the partition spent paused (its container paused) during this assignment. */
    long pausedNanos() {
        return Math.max(0, throttle.pausedNanos() - pausedNanosAtStart);
    }
}
