package io.appbackplane.internal.base;

import io.appbackplane.ActionCounts;
import io.appbackplane.LatencyHistogram;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.atomic.LongAdder;

/**
 * The counters behind an {@link ActionCounts} snapshot; any thread may add.
 *
 * <h2>Concurrency</h2>
 * Submissions and rejections come from any thread and go to padded {@link StripedCounter}s. What
 * happens per action on a worker (an action ran, a request finished) goes to that worker's own
 * tally ({@link WorkerTallies}): only the thread holding the slot writes it (plain read of its own
 * last write, release write), snapshots read it with acquire, so a snapshot that sees a request
 * finished also sees it submitted (both are plain moves on x86). That saves about ten contended
 * atomic updates per action. Threads that are not workers (a timer, a reply's completer, the
 * shutdown sweep, the step driver) use the shared striped counters instead. A snapshot taken
 * while actions run is a moment-old sum, as it was with the adders alone.
 */
public final class ActionCounters {

    /** Value indexes in a worker's tally ({@link WorkerTallies}): one cache line of values. */
    private static final int ACTIONS_RUN = 0;
    private static final int QUEUE_NANOS = 1;
    private static final int RUN_NANOS = 2;
    private static final int MAX_QUEUE_NANOS = 3;
    private static final int MAX_RUN_NANOS = 4;
    private static final int COMPLETED = 5;
    private static final int FAILED = 6;
    /** Where a tally's queue-wait histogram starts (only the per-priority counters keep one): after the values' line. */
    private static final int HISTOGRAM = CacheLines.LONGS_PER_LINE;

    /** Added to by submitting threads on every request: padded (see {@link StripedCounter}). */
    public final StripedCounter submitted = new StripedCounter();
    public final StripedCounter rejected = new StripedCounter();
    private final LongAdder completed = new LongAdder();
    private final LongAdder failed = new LongAdder();
    private final LongAdder actionsRun = new LongAdder();
    public final LongAdder slowActions = new LongAdder();
    private final LongAdder queueNanos = new LongAdder();
    private final LongAdder runNanos = new LongAdder();
    private final LongAccumulator maxQueueNanos = new LongAccumulator(Math::max, 0);
    private final LongAccumulator maxRunNanos = new LongAccumulator(Math::max, 0);
    /** Each worker's own counts, by its slot. */
    private final WorkerTallies tallies;
    /**
     * Whether actions' queue waits are counted in a {@link LatencyHistogram} as well: one more plain
     * add to the worker's own tally per action (the bucket is a few shifts), for the live view's
     * per-priority percentiles.
     */
    private final boolean queueHistogram;
    /** The histogram's buckets for threads that are not workers; null without a histogram. */
    private final AtomicLongArray sharedQueueHistogram;

    /** Counters without a queue-wait histogram. */
    public ActionCounters() {
        this(false);
    }

    public ActionCounters(boolean queueHistogram) {
        this.queueHistogram = queueHistogram;
        this.sharedQueueHistogram = queueHistogram ? new AtomicLongArray(LatencyHistogram.BUCKETS) : null;
        this.tallies = new WorkerTallies(queueHistogram ? HISTOGRAM + LatencyHistogram.BUCKETS : HISTOGRAM);
    }

    /** An action ran, counted by the thread holding worker slot {@code slot} ({@link WorkerThread#currentSlot()}). */
    public void actionRan(int slot, long queueTime, long runTime) {
        long[] tally = tallies.of(slot);
        if (tally == null) {
            actionsRun.increment();
            queueNanos.add(queueTime);
            runNanos.add(runTime);
            maxQueueNanos.accumulate(queueTime);
            maxRunNanos.accumulate(runTime);
            if (queueHistogram) {
                sharedQueueHistogram.getAndIncrement(LatencyHistogram.bucketOf(queueTime));
            }
            return;
        }
        WorkerTallies.add(tally, ACTIONS_RUN, 1);
        WorkerTallies.add(tally, QUEUE_NANOS, queueTime);
        WorkerTallies.add(tally, RUN_NANOS, runTime);
        WorkerTallies.max(tally, MAX_QUEUE_NANOS, queueTime);
        WorkerTallies.max(tally, MAX_RUN_NANOS, runTime);
        if (queueHistogram) {
            WorkerTallies.add(tally, HISTOGRAM + LatencyHistogram.bucketOf(queueTime), 1);
        }
    }

    /** A request finished, counted by the thread holding worker slot {@code slot}. */
    public void finished(int slot, boolean success) {
        long[] tally = tallies.of(slot);
        if (tally == null) {
            (success ? completed : failed).increment();
        } else {
            WorkerTallies.add(tally, success ? COMPLETED : FAILED, 1);
        }
    }

    private long sum(int value, LongAdder shared) {
        return shared.sum() + tallies.sum(value);
    }

    private long max(int value, LongAccumulator shared) {
        return Math.max(shared.get(), tallies.max(value));
    }

    public ActionCounts snapshot() {
        // Read the finishing counters before "submitted", so outstanding() is never negative.
        long done = sum(COMPLETED, completed);
        long fail = sum(FAILED, failed);
        long rej = rejected.sum();
        return new ActionCounts(
                submitted.sum(),
                rej,
                done,
                fail,
                sum(ACTIONS_RUN, actionsRun),
                slowActions.sum(),
                Duration.ofNanos(sum(QUEUE_NANOS, queueNanos)),
                Duration.ofNanos(max(MAX_QUEUE_NANOS, maxQueueNanos)),
                Duration.ofNanos(sum(RUN_NANOS, runNanos)),
                Duration.ofNanos(max(MAX_RUN_NANOS, maxRunNanos)));
    }

    /** The queue waits counted so far, or an empty histogram for counters that keep none. */
    public LatencyHistogram queueWaitHistogram() {
        if (!queueHistogram) {
            return LatencyHistogram.empty();
        }
        long[] counts = new long[LatencyHistogram.BUCKETS];
        for (int i = 0; i < counts.length; i++) {
            counts[i] = sharedQueueHistogram.get(i);
        }
        for (int i = 0; i < counts.length; i++) {
            counts[i] += tallies.sum(HISTOGRAM + i);
        }
        return LatencyHistogram.of(counts);
    }

    public static ActionCounts sum(Iterable<ActionCounts> parts) {
        long s = 0, r = 0, c = 0, f = 0, a = 0, slow = 0;
        Duration q = Duration.ZERO, mq = Duration.ZERO, run = Duration.ZERO, mr = Duration.ZERO;
        for (ActionCounts p : parts) {
            s += p.submitted();
            r += p.rejected();
            c += p.completed();
            f += p.failed();
            a += p.actionsRun();
            slow += p.slowActions();
            q = q.plus(p.totalQueueTime());
            run = run.plus(p.totalRunTime());
            mq = mq.compareTo(p.maxQueueTime()) >= 0 ? mq : p.maxQueueTime();
            mr = mr.compareTo(p.maxRunTime()) >= 0 ? mr : p.maxRunTime();
        }
        return new ActionCounts(s, r, c, f, a, slow, q, mq, run, mr);
    }
}
