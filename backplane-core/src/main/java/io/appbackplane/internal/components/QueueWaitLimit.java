package io.appbackplane.internal.components;

import java.time.Duration;
import java.util.concurrent.atomic.LongAdder;

/**
 * Adapts one component's admission limit to its queue-wait target (docs/scheduling.md, "Queue-wait target"), once per real
 * tick: a gradient on the queue wait at the most urgent priority the component ran actions at in
 * the period that ended, bounded by the configured operation limit (the ceiling, and where the
 * limit starts) and 1.
 *
 * <p>At each tick, with {@code w} the mean queue wait of the component's actions at that priority
 * in the period, {@code T} the target and {@code L} the limit:
 * <pre>
 *   w > T                       L = max(1, floor(L × max(MIN_GRADIENT, T / w)))
 *   w ≤ T and the limit binds   L = min(ceiling, L + max(1, floor(sqrt(L))))
 *   otherwise (or nothing ran)  L unchanged
 * </pre>
 * The limit binds when the component rejected a request in the period or has at least {@link
 * #BINDING_SHARE} of the limit outstanding at the tick: a limit that holds nothing back is not
 * raised, or it would climb without telling anything (Netflix's limiters skip such samples too).
 * It falls in proportion to how far the wait is over the target, at most by half per tick, and
 * rises by the square root of itself (Gradient2's queue allowance), so it approaches the highest
 * limit whose wait stays under the target and follows a capacity that changes.
 *
 * <p>Thread-safe: workers call {@link #actionRan} (contended adders, only for components with a
 * target); {@link #tick} is confined to the thread running the backplane's real ticks.
 */
public final class QueueWaitLimit {

    /** The most a limit falls in one tick: to half. */
    static final double MIN_GRADIENT = 0.5;

    /** The share of the limit outstanding at a tick that counts as the limit holding requests back. */
    static final double BINDING_SHARE = 0.9;

    private final long targetNanos;
    private final int ceiling;
    private final LongAdder[] waitNanos;
    private final LongAdder[] actions;
    /** The sums at the last tick, per priority; confined to the tick thread. */
    private final long[] lastWaitNanos;
    private final long[] lastActions;
    private long lastRejected;
    private volatile int limit;

    QueueWaitLimit(Duration target, int ceiling, int priorities) {
        this.targetNanos = target.toNanos();
        this.ceiling = ceiling;
        this.limit = ceiling;
        this.waitNanos = new LongAdder[priorities];
        this.actions = new LongAdder[priorities];
        for (int p = 0; p < priorities; p++) {
            waitNanos[p] = new LongAdder();
            actions[p] = new LongAdder();
        }
        this.lastWaitNanos = new long[priorities];
        this.lastActions = new long[priorities];
    }

    /** An action of the component waited {@code queueNanos} at {@code priority} before it ran. */
    public void actionRan(int priority, long queueNanos) {
        waitNanos[priority].add(queueNanos);
        actions[priority].increment();
    }

    /**
     * A real tick: the component has {@code outstanding} requests and has rejected {@code
     * rejectedSoFar} since it was installed. Returns the limit for the next period.
     */
    int tick(int outstanding, long rejectedSoFar) {
        long meanWait = -1;
        for (int p = 0; p < actions.length; p++) {
            long count = actions[p].sum();
            long wait = waitNanos[p].sum();
            long ran = count - lastActions[p];
            long waited = wait - lastWaitNanos[p];
            lastActions[p] = count;
            lastWaitNanos[p] = wait;
            if (meanWait < 0 && ran > 0) {
                meanWait = waited / ran; // the most urgent busy priority; the loop goes on to advance the rest
            }
        }
        boolean rejected = rejectedSoFar > lastRejected;
        lastRejected = rejectedSoFar;
        int current = limit;
        int next = current;
        if (meanWait > targetNanos) {
            double gradient = Math.max(MIN_GRADIENT, (double) targetNanos / meanWait);
            next = (int) Math.max(1, Math.floor(current * gradient));
        } else if (meanWait >= 0 && (rejected || outstanding >= current * BINDING_SHARE)) {
            next = (int) Math.min(ceiling, current + Math.max(1, (long) Math.sqrt(current)));
        }
        limit = next;
        return next;
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
