package io.appbackplane.internal.components;

import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.atomic.LongAdder;

/**
 * Adapts one component's admission limit to its queue-wait target (docs/scheduling.md, "Queue-wait
 * target"), once per real tick: a gradient on the queue waits at the most urgent priority the
 * component ran actions at in the period that ended, bounded by the configured operation limit (the
 * ceiling, and where the limit starts) and 1.
 *
 * <p>The target is met when the 99th percentile wait is within it: at most {@link #LATE_SHARE} of
 * the actions waited longer. The mean alone is not enough: a mean well under the target hides a
 * tail of waits several times over it. The tail is judged over a window of recent ticks, not one
 * period: at a hundred or so actions per period, 1 % is zero, one or two actions, and a limit judged
 * on that count alone rises on every lucky period and pays on the next. The window at priority
 * {@code p} is the last periods, back to the first that brings it to at least {@link
 * #WINDOW_ACTIONS} actions at {@code p}, spanning at most {@link #WINDOW_TICKS} ticks and none before
 * the last fall (the waits at a limit that proved too high say nothing about the lower one, and
 * counting them again would cut twice). It is <em>full</em> when it holds {@link #WINDOW_ACTIONS}
 * actions or spans {@link #WINDOW_TICKS} ticks. At each tick, with {@code T} the target, {@code L}
 * the limit, {@code w} the period's mean wait, {@code n} the window's actions and {@code m} those
 * that waited longer than {@code T}:
 * <pre>
 *   A = LATE_SHARE × max(n, WINDOW_ACTIONS)          the late actions the window may hold
 *   g = min(T / w, sqrt(LATE_SHARE × n / m))         how far over the target: the mean, and the tail
 *   g < 1                            L = max(1, floor(L × max(MIN_GRADIENT, g))), and C = the old L
 *                                    unless the last tick fell too
 *   the window full, m ≤ ROOM_SHARE × n, w ≤ ROOM_MEAN × T, and the limit binds:
 *       C = 0                        L = min(ceiling, L + max(1, floor(sqrt(L))))
 *       L < PROBE_FROM × C           L = min(ceiling, L + max(1, floor(sqrt(L))), max(L + 1, floor(PROBE_FROM × C)))
 *       otherwise (probing), if the window since the last rise is full too
 *                                    L = min(ceiling, L + 1)
 *   otherwise (or nothing ran)       L unchanged
 * </pre>
 * ({@code T / w} counts as 1 or more when {@code w ≤ T}, and {@code sqrt(LATE_SHARE × n / m)} when
 * {@code m ≤ A}.) {@code C} is the last limit that proved too high (0 before any).
 *
 * <p>Why each part: a period clearly over the target still cuts at once, since the window includes
 * it: its mean over {@code T}, or its late actions alone more than the window may hold. A window
 * with fewer than {@link #WINDOW_ACTIONS} actions cannot tell 1 % from chance, so its allowance is
 * that of a window of {@link #WINDOW_ACTIONS}; the mean still counts. The limit falls in proportion
 * to how far the waits are over the target, at most by half per tick. It rises only on a full
 * window with room to spare (a share of late actions at most half the allowed one, and a mean wait
 * at most a quarter of the target) and only when it binds: the component rejected a request in the period
 * or has at least {@link #BINDING_SHARE} of the limit outstanding at the tick; a limit that holds
 * nothing back is not raised, or it would climb without telling anything (Netflix's limiters skip
 * such samples too). Between half the allowed tail and the allowed tail it holds: rising into the
 * target from just under it would make every rise a late period. The mean is the early sign: where
 * the waits are all close to the queue's length over the throughput, the tail stays clean while the
 * limit climbs and then breaks in one period, many actions late at once. Rising only while the
 * mean is at most a quarter of the target leaves the rest for what the queue does not explain (a
 * CPU-limited worker waiting for its next slice, a pause, a stretch in which the workers get less
 * CPU than their limit): in such a stretch every queued action's wait grows by the queue's length
 * over the reduced throughput, so the shorter the queue the fewer actions go late. (A quarter, as
 * waits that spread like an exponential distribution have a 99th percentile 4.6 times their mean.)
 * After a fall the window refills before
 * the next rise. Far under the last limit that proved too high it rises by its square root
 * (Gradient2's queue allowance), but no further than where probing begins, so that a square-root
 * step never lands on or past the wall itself; near or past it, it probes by one, once per full window of its
 * own, so that each step is judged before the next (as TCP CUBIC slows near the window that last
 * lost). The wall is sharp: the tail stays clean up to a limit and breaks there in one period, and
 * a break costs far more late actions than a limit a little low costs throughput (the workers stay
 * busy well under it). A fall in the tick right after a fall keeps {@code C}: that tick's actions
 * queued under the limit that proved too high, so the halved limit has not been judged yet.
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

    /** The share of the target the period's mean wait may reach at most for the limit to rise (see the class comment). */
    static final double ROOM_MEAN = 0.25;

    /** The actions the window reaches back for: enough that its allowed tail is several actions, not one. */
    static final int WINDOW_ACTIONS = 500;

    /** The most ticks the window spans, so that a light load is still judged on recent waits. */
    static final int WINDOW_TICKS = 10;

    /** The share of the limit outstanding at a tick that counts as the limit holding requests back. */
    static final double BINDING_SHARE = 0.9;

    /** Below this share of the last limit that proved too high, the limit rises by its square root. */
    static final double PROBE_FROM = 0.9;

    /** The sums kept per priority: those of this tick and of the {@link #WINDOW_TICKS} before it. */
    private static final int SLOTS = WINDOW_TICKS + 1;

    private final String component;
    private final long targetNanos;
    private final int ceiling;
    private final LongAdder[] waitNanos;
    private final LongAdder[] actions;
    private final LongAdder[] lateActions;
    /**
     * Per priority, the sums at each of the last {@link #SLOTS} ticks: tick {@code t}'s in slot
     * {@code t % SLOTS} (tick 0 is the installation, all zero). Confined to the tick thread.
     */
    private final long[][] waitAt;
    private final long[][] actionsAt;
    private final long[][] lateAt;
    /** Ticks so far. Confined to the tick thread. */
    private long ticks;
    /** The tick of the last fall (0 before any): the window reaches back no further. Confined to the tick thread. */
    private long lastFall;
    /** The tick of the last rise (0 before any): a probing rise waits for a full window after it. Confined to the tick thread. */
    private long lastRise;
    private long lastRejected;
    /** The last limit that proved too high; 0 before any. Confined to the tick thread. */
    private int tooHigh;
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
        this.waitAt = new long[priorities][SLOTS];
        this.actionsAt = new long[priorities][SLOTS];
        this.lateAt = new long[priorities][SLOTS];
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
        long t = ++ticks;
        int now = slot(t);
        int previous = slot(t - 1);
        Window window = null; // null: nothing ran
        for (int p = 0; p < actions.length; p++) {
            actionsAt[p][now] = actions[p].sum();
            waitAt[p][now] = waitNanos[p].sum();
            lateAt[p][now] = lateActions[p].sum();
            if (window == null && actionsAt[p][now] > actionsAt[p][previous]) {
                window = window(p, t, lastFall); // the most urgent busy priority; the loop goes on to record the rest
            }
        }
        boolean rejected = rejectedSoFar > lastRejected;
        lastRejected = rejectedSoFar;
        int current = limit;
        int next = current;
        String decision;
        double gradient = window == null ? Double.NaN : window.gradient(targetNanos);
        if (window == null) {
            decision = "idle";
        } else if (gradient < 1) {
            if (lastFall == 0 || lastFall != t - 1) {
                tooHigh = current; // not after a fall in the last tick, whose waits would still be the old limit's
            }
            lastFall = t;
            next = (int) Math.max(1, Math.floor(current * Math.max(MIN_GRADIENT, gradient)));
            decision = "fall";
        } else if (window.hasRoom(targetNanos) && (rejected || outstanding >= current * BINDING_SHARE)) {
            if (tooHigh == 0 || current < PROBE_FROM * tooHigh) { // no wall found yet, or far under it
                long rise = current + Math.max(1, (long) Math.sqrt(current));
                if (tooHigh > 0) {
                    rise = Math.min(rise, Math.max(current + 1, probeFrom())); // stops where probing begins, short of the wall
                }
                next = (int) Math.min(ceiling, rise);
                decision = "rise";
            } else if (window(window.priority(), t, Math.max(lastFall, lastRise)).full()) {
                next = Math.min(ceiling, current + 1);
                decision = "probe";
            } else {
                decision = "hold"; // probing: the last step is not judged yet
            }
        } else {
            decision = "hold";
        }
        if (next > current) {
            lastRise = t;
        }
        limit = next;
        if (LOG.isLoggable(Level.DEBUG)) {
            LOG.log(Level.DEBUG, String.format(Locale.ROOT,
                    "component '%s', queue-wait target %.1f ms: %s %d -> %d; outstanding %d, rejected %s; %s",
                    component, targetNanos / 1e6, decision, current, next, outstanding, rejected ? "yes" : "no",
                    window == null ? "nothing ran" : window));
        }
        return next;
    }

    /** The lowest limit that probes: {@link #PROBE_FROM} of the last limit that proved too high, rounded down. */
    private long probeFrom() {
        return (long) Math.floor(PROBE_FROM * tooHigh);
    }

    private static int slot(long tick) {
        return (int) (tick % SLOTS);
    }

    /** The window at priority {@code p} at tick {@code t}, reaching back no further than tick {@code since} (see the class comment). */
    private Window window(int p, long t, long since) {
        long[] ran = actionsAt[p];
        int now = slot(t);
        int span = (int) Math.min(WINDOW_TICKS, t - since);
        int back = 1;
        while (back < span && ran[now] - ran[slot(t - back)] < WINDOW_ACTIONS) {
            back++;
        }
        int previous = slot(t - 1);
        int first = slot(t - back);
        long n = ran[now] - ran[first];
        return new Window(p, ran[now] - ran[previous], waitAt[p][now] - waitAt[p][previous], back, n,
                lateAt[p][now] - lateAt[p][first], n >= WINDOW_ACTIONS || back == WINDOW_TICKS);
    }

    /**
     * The waits at the most urgent busy priority {@code priority}: the period's actions and their
     * total wait, and the window's ticks, actions and late actions, and whether it is full.
     */
    private record Window(int priority, long periodActions, long periodWaitNanos, int ticks, long actions, long late,
            boolean full) {

        long meanWait() {
            return periodWaitNanos / periodActions;
        }

        /** The late actions the window may hold: 1 % of its actions, or of {@link #WINDOW_ACTIONS} if it holds fewer. */
        double allowance() {
            return LATE_SHARE * Math.max(actions, WINDOW_ACTIONS);
        }

        /** How far the waits are within the target: below 1 when over it (see the class comment). */
        double gradient(long targetNanos) {
            double ofMean = meanWait() > targetNanos ? (double) targetNanos / meanWait() : 1;
            double ofTail = late > allowance() ? Math.sqrt(LATE_SHARE * actions / late) : 1;
            return Math.min(ofMean, ofTail);
        }

        /** A full window within the target with room to spare: the limit may rise. */
        boolean hasRoom(long targetNanos) {
            return full && meanWait() <= ROOM_MEAN * targetNanos && late <= ROOM_SHARE * actions;
        }

        @Override
        public String toString() {
            return String.format(Locale.ROOT, "priority %d: period %d actions, mean wait %.2f ms; window %d ticks (%s),"
                    + " %d actions, %d late", priority, periodActions, meanWait() / 1e6, ticks, full ? "full" : "filling",
                    actions, late);
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
