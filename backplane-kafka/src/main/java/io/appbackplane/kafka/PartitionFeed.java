package io.appbackplane.kafka;

import io.appbackplane.BackplaneRejectedException;
import io.micrometer.observation.Observation;
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
 * resume); {@link #revoke} and {@link #lose} on the consumer thread. The backlog and the {@code
 * submitting} flag are guarded by this object's monitor, which is <em>never held across a
 * submit</em>: a submit may complete the action on the calling thread, and that completion takes
 * the throttle's lock (to resume), while the throttle's resume takes this monitor — holding it
 * across the submit would order the two locks both ways and deadlock.
 *
 * <p>Invariants: at most one thread submits this partition's records at a time (the one that set
 * {@code submitting}), always the backlog's head, so records are submitted in offset order (hence
 * key order); while the backlog is not empty no later record of the partition is submitted before it.
 */
final class PartitionFeed {

    /**
     * A received record on its way through the backplane: the endpoint's request.
     *
     * @param record the record as the endpoint method sees it (key and value deserialized)
     * @param raw the record as consumed (key and value as bytes): what the dead-letter topic gets
     * @param key the key naming its object: the record's key, or the key extracted from its payload
     *     ({@code @KafkaEndpoint(key)}); see {@link RecordDispatcher#objectKey}
     * @param progress the assignment it was received in; once that is closed the record does not start
     * @param entry its place in the progress window
     * @param receivedIn the record's listener observation (spring-kafka's, carrying the trace of the
     *     record's headers), current while its action is submitted; null when records are not observed
     */
    record Pending(ConsumerRecord<Object, Object> record, ConsumerRecord<?, ?> raw, Object key, PartitionProgress progress,
            PartitionProgress.Entry entry, Observation receivedIn) {

        /** A record received outside any listener observation. */
        Pending(ConsumerRecord<Object, Object> record, ConsumerRecord<?, ?> raw, Object key, PartitionProgress progress,
                PartitionProgress.Entry entry) {
            this(record, raw, key, progress, entry, null);
        }
    }

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

    /**
     * The consumer was sought back to a record the full window refused: records fetched before the
     * seek are still being delivered, and are dropped (the consumer reads them again). Consumer thread only.
     */
    boolean rewound;

    private boolean revoked;
    /** A thread is submitting the backlog's records (outside the monitor); others only append. */
    private boolean submitting;

    PartitionFeed(TopicPartition partition, PartitionProgress progress, Submitter submitter, ComponentThrottle throttle) {
        this.partition = partition;
        this.progress = progress;
        this.submitter = submitter;
        this.throttle = throttle;
        this.pausedNanosAtStart = throttle.pausedNanos();
    }

    /**
     * Submits {@code pending} after the records held back before it, or holds it back.
     *
     * @return false if it was held back because the component did not take a record (the caller
     *     pauses the partition's container); true if it was submitted, or another thread is
     *     submitting this partition's records and will submit it
     */
    boolean offer(Pending pending) {
        synchronized (this) {
            if (revoked) {
                return true; // not ours any more: it will be delivered to the new owner
            }
            backlog.addLast(pending);
            if (submitting) {
                return true;
            }
            submitting = true;
        }
        return submitBacklog();
    }

    /**
     * Submits held-back records in order until one is rejected again.
     *
     * @return whether the backlog is now empty (false also while another thread is submitting it)
     */
    boolean drain() {
        synchronized (this) {
            if (revoked || backlog.isEmpty()) {
                return true;
            }
            if (submitting) {
                return false; // that thread submits them (or pauses); the throttle's sweeper looks again
            }
            submitting = true;
        }
        return submitBacklog();
    }

    /** Called with {@code submitting} set by this thread; clears it before returning. */
    private boolean submitBacklog() {
        while (true) {
            Pending head;
            synchronized (this) {
                if (revoked || backlog.isEmpty()) {
                    submitting = false;
                    return true;
                }
                // Taken off before submitting: only this thread submits, and a revoke that clears the
                // backlog meanwhile must not see the record as still held back.
                head = backlog.pollFirst();
            }
            if (!trySubmit(head)) {
                synchronized (this) {
                    submitting = false;
                    if (revoked) {
                        progress.withdraw(head.entry());
                        return true;
                    }
                    backlog.offerFirst(head);
                    return false;
                }
            }
        }
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
     * Ends this assignment: withdraws the backlog (never started, so it is not waited for and the
     * next owner gets those records from the committed offset), waits up to {@code timeoutNanos}
     * for the records submitted to the backplane, and closes the progress so nothing more is
     * committed and no record still queued in the backplane starts.
     *
     * @return the records still in flight when it closed (the new owner will run them again)
     */
    int revoke(long timeoutNanos) throws InterruptedException {
        withdrawBacklog();
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
        withdrawBacklog();
        return progress.close();
    }

    private synchronized void withdrawBacklog() {
        revoked = true;
        for (Pending held : backlog) {
            progress.withdraw(held.entry());
        }
        backlog.clear();
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
