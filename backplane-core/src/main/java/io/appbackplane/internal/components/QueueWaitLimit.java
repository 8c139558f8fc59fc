package io.appbackplane.internal.components;

import java.time.Duration;
import java.util.concurrent.atomic.LongAdder;

/**
 * Adapts one component's admission limit to its queue-wait target (docs/scheduling.md, "Queue-wait target"), once per real
 * tick: a gradient on the queue waits at the most urgent priority the component ran actions at in
 * the period that ended, bounded by the configured operation limit (the ceiling, and where the
 * limit starts) and 1.
 *
 * <p>The target is met when the period's 99th percentile wait is within it: at most {@link
 * #LATE_SHARE} of the actions waited longer. The mean alone is not enough: a mean well under the
 * target hides a tail of waits several times over it. At each tick, with {@code T} the target,
 * {@code L} the limit, {@code w} the mean wait and {@code s} the share of actions that waited
 * longer than {@code T} at that priority in the period:
 * <pre>
 *   g = min(T / w, sqrt(LATE_SHARE / s))         how far over the target: the mean, and the tail
 *   g < 1                       L = max(1, floor(L × max(MIN_GRADIENT, g)))
 *   g ≥ 1 and the limit binds   L = min(ceiling, L + max(1, floor(sqrt(L))))
 *   otherwise (or nothing ran)  L unchanged
 * </pre>
 * ({@code T / w} counts as 1 or more when {@code w ≤ T}, and {@code sqrt(LATE_SHARE / s)} when
 * {@code s ≤ LATE_SHARE}.) The limit binds when the component rejected a request in the period or
 * has at least {@link #BINDING_SHARE} of the limit outstanding at the tick: a limit that holds
 * nothing back is not raised, or it would climb without telling anything (Netflix's limiters skip
 * such samples too). It falls in proportion to how far the wait is over the target, at most by
 * half per tick, and rises by the square root of itself (Gradient2's queue allowance), so it
 * approaches the highest limit whose waits stay within the target and follows a capacity that
 * changes.
 *
 * <p>Thread-safe: workers call {@link #actionRan} (contended adders, only for components with a
 * target); {@link #tick} is confined to the thread running the backplane's real ticks.
 */
public final class QueueWaitLimit {

    /** The most a limit falls in one tick: to half. */
    static final double MIN_GRADIENT = 0.5;

    /** The share of actions that may wait longer than the target: the target is a 99th percentile. */
    static final double LATE_SHARE = 0.01;

    /** The share of the limit outstanding at a tick that counts as the limit holding requests back. */
    static final double BINDING_SHARE = 0.9;

    private final long targetNanos;
    private final int ceiling;
    private final LongAdder[] waitNanos;
    private final LongAdder[] actions;
    private final LongAdder[] lateActions;
    /** The sums at the last tick, per priority; confined to the tick thread. */
    private final long[] lastWaitNanos;
    private final long[] lastActions;
    private final long[] lastLateActions;
    private long lastRejected;
    private volatile int limit;

    QueueWaitLimit(Duration target, int ceiling, int priorities) {
        this.targetNanos = target.toNanos();
        this.ceiling = ceiling;
        this.limit = ceiling;
        this.waitNanos = new LongAdder[priorities];
        this.actions = new LongAdder[priorities];
        this.lateActions = new LongAdder[priorities];
        for (int p = 0; p < priorities; p++) {
            waitNanos[p] = new LongAdder();
            actions[p] = new LongAdder();
            lateActions[p] = new LongAdder();
        }
        this.lastWaitNanos = new long[priorities];
        this.lastActions = new long[priorities];
        this.lastLateActions = new long[priorities];
    }

    /** An action of the component waited {@code queueNanos} at {@code priority} before it ran. */
    public void actionRan(int priority, long queueNanos) {
        waitNanos[priority].add(queueNanos);
        actions[priority].increment();
        if (queueNanos > targetNanos) {
            lateActions[priority].increment();
        }
    }

    /**
     * A real tick: the component has {@code outstanding} requests and has rejected {@code
     * rejectedSoFar} since it was installed. Returns the limit for the next period.
     */
    int tick(int outstanding, long rejectedSoFar) {
        double gradient = Double.NaN; // NaN: nothing ran
        for (int p = 0; p < actions.length; p++) {
            long count = actions[p].sum();
            long wait = waitNanos[p].sum();
            long late = lateActions[p].sum();
            long ran = count - lastActions[p];
            long waited = wait - lastWaitNanos[p];
            long lateRan = late - lastLateActions[p];
            lastActions[p] = count;
            lastWaitNanos[p] = wait;
            lastLateActions[p] = late;
            if (Double.isNaN(gradient) && ran > 0) {
                gradient = gradient(waited / ran, (double) lateRan / ran); // the most urgent busy priority; the loop goes on to advance the rest
            }
        }
        boolean rejected = rejectedSoFar > lastRejected;
        lastRejected = rejectedSoFar;
        int current = limit;
        int next = current;
        if (gradient < 1) {
            next = (int) Math.max(1, Math.floor(current * Math.max(MIN_GRADIENT, gradient)));
        } else if (gradient >= 1 && (rejected || outstanding >= current * BINDING_SHARE)) {
            next = (int) Math.min(ceiling, current + Math.max(1, (long) Math.sqrt(current)));
        }
        limit = next;
        return next;
    }

    /** How far the period's waits are within the target: below 1 when over it (see the class comment). */
    private double gradient(long meanWait, double lateShare) {
        double ofMean = meanWait > targetNanos ? (double) targetNanos / meanWait : 1;
        double ofTail = lateShare > LATE_SHARE ? Math.sqrt(LATE_SHARE / lateShare) : 1;
        return Math.min(ofMean, ofTail);
    }

    /** The limit in force. */
    int limit() {
        return limit;
    }

    /** The target, in nanoseconds. */
    long targetNanos() {
        return targetNanos;
    }
}
