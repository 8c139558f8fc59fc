package io.appbackplane.internal;

import io.appbackplane.ActionCounts;
import io.appbackplane.LatencyHistogram;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.atomic.LongAdder;

/**
 * The counters behind an {@link ActionCounts} snapshot; any thread may add.
 *
 * <h2>Concurrency</h2>
 * Submissions and rejections come from any thread and go to padded {@link StripedCounter}s. What
 * happens per action on a worker (an action ran, a request finished) goes to that worker's own
 * tally, a {@code long[]} indexed by {@link WorkerThread#slot}: only the thread holding the slot
 * writes it (plain read of its own last write, release write), snapshots read it with acquire, so
 * a snapshot that sees a request finished also sees it submitted (both are plain moves on x86). That saves about ten contended
 * atomic updates per action. Threads that are not workers (a timer, a reply's completer, the
 * shutdown sweep, the step driver) use the shared striped counters instead. A snapshot taken
 * while actions run is a moment-old sum, as it was with the adders alone.
 */
final class ActionCounters {

    /**
     * A tally is a padded array ({@link CacheLines}), its values between a cache line of padding on
     * either side: the garbage collector may place any object next to the array, and a neighbour
     * that another thread writes (a submitter's counter, another worker's tally) would otherwise
     * cost a cache miss per action, in some runs and not in others.
     */
    private static final int ACTIONS_RUN = CacheLines.paddedIndex(0);
    private static final int QUEUE_NANOS = CacheLines.paddedIndex(1);
    private static final int RUN_NANOS = CacheLines.paddedIndex(2);
    private static final int MAX_QUEUE_NANOS = CacheLines.paddedIndex(3);
    private static final int MAX_RUN_NANOS = CacheLines.paddedIndex(4);
    private static final int COMPLETED = CacheLines.paddedIndex(5);
    private static final int FAILED = CacheLines.paddedIndex(6);
    /** Where a tally's queue-wait histogram starts (only the per-priority counters keep one): after the values' line. */
    private static final int HISTOGRAM = CacheLines.paddedIndex(CacheLines.LONGS_PER_LINE);
    /** Longs per tally without a histogram: one line of values between two lines of padding. */
    private static final int TALLY_LENGTH = CacheLines.paddedLength(CacheLines.LONGS_PER_LINE);
    /** Longs per tally with a histogram: the values' line and the histogram between two lines of padding. */
    private static final int TALLY_LENGTH_WITH_HISTOGRAM =
            CacheLines.paddedLength(CacheLines.LONGS_PER_LINE + LatencyHistogram.BUCKETS);

    private static final VarHandle TALLY = MethodHandles.arrayElementVarHandle(long[].class);

    /** Added to by submitting threads on every request: padded (see {@link StripedCounter}). */
    final StripedCounter submitted = new StripedCounter();
    final StripedCounter rejected = new StripedCounter();
    private final LongAdder completed = new LongAdder();
    private final LongAdder failed = new LongAdder();
    private final LongAdder actionsRun = new LongAdder();
    final LongAdder slowActions = new LongAdder();
    private final LongAdder queueNanos = new LongAdder();
    private final LongAdder runNanos = new LongAdder();
    private final LongAccumulator maxQueueNanos = new LongAccumulator(Math::max, 0);
    private final LongAccumulator maxRunNanos = new LongAccumulator(Math::max, 0);
    /** Tallies by worker slot; grown (copied) under this object's lock, published by the volatile write. */
    private volatile long[][] tallies = new long[0][];
    /**
     * Whether actions' queue waits are counted in a {@link LatencyHistogram} as well: one more plain
     * add to the worker's own tally per action (the bucket is a few shifts), for the live view's
     * per-priority percentiles.
     */
    private final boolean queueHistogram;
    /** The histogram's buckets for threads that are not workers; null without a histogram. */
    private final AtomicLongArray sharedQueueHistogram;

    /** Counters without a queue-wait histogram. */
    ActionCounters() {
        this(false);
    }

    ActionCounters(boolean queueHistogram) {
        this.queueHistogram = queueHistogram;
        this.sharedQueueHistogram = queueHistogram ? new AtomicLongArray(LatencyHistogram.BUCKETS) : null;
    }

    void actionRan(long queueTime, long runTime) {
        long[] tally = tally(WorkerThread.currentSlot());
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
        add(tally, ACTIONS_RUN, 1);
        add(tally, QUEUE_NANOS, queueTime);
        add(tally, RUN_NANOS, runTime);
        max(tally, MAX_QUEUE_NANOS, queueTime);
        max(tally, MAX_RUN_NANOS, runTime);
        if (queueHistogram) {
            add(tally, HISTOGRAM + LatencyHistogram.bucketOf(queueTime), 1);
        }
    }

    void finished(boolean success) {
        long[] tally = tally(WorkerThread.currentSlot());
        if (tally == null) {
            (success ? completed : failed).increment();
        } else {
            add(tally, success ? COMPLETED : FAILED, 1);
        }
    }

    /** The calling worker's tally (created on first use), or null for a thread that is not a worker. */
    private long[] tally(int slot) {
        if (slot == WorkerThread.NO_SLOT) {
            return null;
        }
        long[][] all = tallies;
        long[] tally;
        if (slot < all.length && (tally = all[slot]) != null) {
            return tally;
        }
        return createTally(slot);
    }

    private synchronized long[] createTally(int slot) {
        long[][] all = tallies;
        if (slot >= all.length) {
            all = Arrays.copyOf(all, Math.max(slot + 1, 2 * all.length));
        } else {
            all = all.clone();
        }
        if (all[slot] == null) {
            // With a histogram, its buckets sit between the values' line and the trailing padding.
            all[slot] = new long[queueHistogram ? TALLY_LENGTH_WITH_HISTOGRAM : TALLY_LENGTH];
        }
        tallies = all;
        return all[slot];
    }

    /** Only the slot's holder calls this: a plain read of its own last write, a release write for readers. */
    private static void add(long[] tally, int index, long delta) {
        TALLY.setRelease(tally, index, tally[index] + delta);
    }

    private static void max(long[] tally, int index, long value) {
        if (value > tally[index]) {
            TALLY.setRelease(tally, index, value);
        }
    }

    private long sum(int index, LongAdder shared) {
        long total = shared.sum();
        for (long[] tally : tallies) {
            if (tally != null) {
                total += (long) TALLY.getAcquire(tally, index);
            }
        }
        return total;
    }

    private long max(int index, LongAccumulator shared) {
        long max = shared.get();
        for (long[] tally : tallies) {
            if (tally != null) {
                max = Math.max(max, (long) TALLY.getAcquire(tally, index));
            }
        }
        return max;
    }

    ActionCounts snapshot() {
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
    LatencyHistogram queueWaitHistogram() {
        if (!queueHistogram) {
            return LatencyHistogram.empty();
        }
        long[] counts = new long[LatencyHistogram.BUCKETS];
        for (int i = 0; i < counts.length; i++) {
            counts[i] = sharedQueueHistogram.get(i);
        }
        for (long[] tally : tallies) {
            if (tally != null) {
                for (int i = 0; i < counts.length; i++) {
                    counts[i] += (long) TALLY.getAcquire(tally, HISTOGRAM + i);
                }
            }
        }
        return LatencyHistogram.of(counts);
    }

    static ActionCounts sum(Iterable<ActionCounts> parts) {
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
