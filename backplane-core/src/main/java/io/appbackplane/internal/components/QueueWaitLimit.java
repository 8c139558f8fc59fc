package io.appbackplane.internal.components;

import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.Locale;
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
 *   g = min(T / w, sqrt(LATE_SHARE / s))          how far over the target: the mean, and the tail
 *   g < 1                            L = max(1, floor(L × max(MIN_GRADIENT, g))), and C = the old L
 *   s ≤ ROOM_SHARE, w ≤ T, and the limit binds:
 *       L < PROBE_FROM × C           L = min(ceiling, L + max(1, floor(sqrt(L))))
 *       otherwise (probing)          L = min(ceiling, L + min(k, max(1, floor(sqrt(L)))))
 *   otherwise (or nothing ran)       L unchanged
 * </pre>
 * ({@code T / w} counts as 1 or more when {@code w ≤ T}, and {@code sqrt(LATE_SHARE / s)} when
 * {@code s ≤ LATE_SHARE}.) {@code C} is the last limit that proved too high (0 before any) and
 * {@code k} counts the consecutive probing rises, this one included: 1, 2, 3 ...; a tick that
 * does not rise ends the run.
 *
 * <p>Why each part: the limit falls in proportion to how far the wait is over the target, at most
 * by half per tick. It rises only with room to spare (a share of late actions at most half the
 * allowed one) and only when it binds: the component rejected a request in the period or has at
 * least {@link #BINDING_SHARE} of the limit outstanding at the tick; a limit that holds nothing
 * back is not raised, or it would climb without telling anything (Netflix's limiters skip such
 * samples too). Between half the allowed tail and the allowed tail it holds: rising into the target
 * from just under it would make every rise a late period. Far under the last limit that proved too
 * high it rises by its square root (Gradient2's queue allowance); near or past it, it probes one
 * step, then two, then three, up to the square root (as TCP CUBIC slows near the window that last
 * lost), so that it stays near the highest limit whose waits keep within the target and still
 * follows a capacity that comes back.
 *
 * <p>At debug level, the logger {@value #LOGGER} logs each tick's inputs and decision, one line per
 * tick and component, so that the loop itself can be watched.
 *
 * <p>Thread-safe: workers call {@link #actionRan} (contended adders, only for components with a
 * target); {@link #tick} is confined to the thread running the backplane's real ticks.
 */
public final class QueueWaitLimit {

    /** The logger name of the per-tick trace (docs/operations.md). */
    static final String LOGGER = "io.appbackplane.QueueWaitTarget";

    private static final System.Logger LOG = System.getLogger(LOGGER);

    /** The most a limit falls in one tick: to half. */
    static final double MIN_GRADIENT = 0.5;

    /** The share of actions that may wait longer than the target: the target is a 99th percentile. */
    static final double LATE_SHARE = 0.01;

    /** The share of late actions at most which the limit may rise: half the allowed tail. */
    static final double ROOM_SHARE = LATE_SHARE / 2;

    /** The share of the limit outstanding at a tick that counts as the limit holding requests back. */
    static final double BINDING_SHARE = 0.9;

    /** Below this share of the last limit that proved too high, the limit rises by its square root. */
    static final double PROBE_FROM = 0.9;

    private final String component;
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
    /** The last limit that proved too high; 0 before any. Confined to the tick thread. */
    private int tooHigh;
    /** Consecutive rises at or past {@link #PROBE_FROM} × {@code tooHigh}. Confined to the tick thread. */
    private int probes;
    private volatile int limit;

    QueueWaitLimit(String component, Duration target, int ceiling, int priorities) {
        this.component = component;
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
        Period period = null; // null: nothing ran
        for (int p = 0; p < actions.length; p++) {
            long count = actions[p].sum();
            long wait = waitNanos[p].sum();
            long late = lateActions[p].sum();
            long ran = count - lastActions[p];
            if (period == null && ran > 0) {
                // the most urgent busy priority; the loop goes on to advance the rest
                period = new Period(p, ran, wait - lastWaitNanos[p], late - lastLateActions[p]);
            }
            lastActions[p] = count;
            lastWaitNanos[p] = wait;
            lastLateActions[p] = late;
        }
        boolean rejected = rejectedSoFar > lastRejected;
        lastRejected = rejectedSoFar;
        int current = limit;
        int next = current;
        String decision;
        double gradient = period == null ? Double.NaN : period.gradient(targetNanos);
        if (period == null) {
            probes = 0;
            decision = "idle";
        } else if (gradient < 1) {
            tooHigh = current;
            probes = 0;
            next = (int) Math.max(1, Math.floor(current * Math.max(MIN_GRADIENT, gradient)));
            decision = "fall";
        } else if (period.hasRoom(targetNanos) && (rejected || outstanding >= current * BINDING_SHARE)) {
            int step = (int) Math.max(1, (long) Math.sqrt(current));
            if (current >= PROBE_FROM * tooHigh) {
                step = Math.min(++probes, step);
                decision = "probe";
            } else {
                decision = "rise";
            }
            next = (int) Math.min(ceiling, (long) current + step);
        } else {
            probes = 0;
            decision = "hold";
        }
        limit = next;
        if (LOG.isLoggable(Level.DEBUG)) {
            LOG.log(Level.DEBUG, String.format(Locale.ROOT,
                    "component '%s', queue-wait target %.1f ms: %s %d -> %d; outstanding %d, rejected %s; %s",
                    component, targetNanos / 1e6, decision, current, next, outstanding, rejected ? "yes" : "no",
                    period == null ? "nothing ran" : period));
        }
        return next;
    }

    /** One period's waits at the most urgent busy priority {@code priority}: how many ran, their total wait, how many were late. */
    private record Period(int priority, long actions, long waitNanos, long late) {

        long meanWait() {
            return waitNanos / actions;
        }

        double lateShare() {
            return (double) late / actions;
        }

        /** How far the waits are within the target: below 1 when over it (see the class comment). */
        double gradient(long targetNanos) {
            double ofMean = meanWait() > targetNanos ? (double) targetNanos / meanWait() : 1;
            double ofTail = lateShare() > LATE_SHARE ? Math.sqrt(LATE_SHARE / lateShare()) : 1;
            return Math.min(ofMean, ofTail);
        }

        /** Within the target with room to spare: the limit may rise. */
        boolean hasRoom(long targetNanos) {
            return meanWait() <= targetNanos && lateShare() <= ROOM_SHARE;
        }

        @Override
        public String toString() {
            return String.format(Locale.ROOT, "priority %d: %d actions, mean wait %.2f ms, %d late", priority, actions,
                    meanWait() / 1e6, late);
        }
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
