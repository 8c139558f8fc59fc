package io.appbackplane.internal.scheduling;

import io.appbackplane.BackplanePolicy;
import io.appbackplane.CpuLimit;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * The CPU budget of one backplane (scheduling rule 5): at most {@code limit × period} of CPU time
 * (what the workers' {@link CpuMeter}s charge) per integration period, released in {@code slices} equal parts across the period so that a
 * backplane that spends its budget early waits at most until the next slice, not until the next
 * real tick.
 *
 * <p>Released budget at time {@code t} of a period that started at {@code s}:
 * {@code released(t) = budget × min(slices, floor((t - s) × slices / period) + 1) / slices}.
 * A new action may start while {@code used < released(now)}; running actions always finish, so the
 * use may exceed the budget by at most the run time of the actions already running when it ran out.
 * Budget not used in one slice stays available in the later slices of the same period; nothing
 * carries over past a real tick. Under an {@code auto} limit the most urgent priority is not held
 * ({@link #exemptsMostUrgent()}): its actions start at once and are charged, so less urgent work
 * gets what they leave of the budget; less urgent work also waits, above the floor's share of the
 * budget, while the whole process used the share of its quota over the last kernel period ({@link
 * AutoCpuLimit#processHasRoom(long)}).
 *
 * <p>Thread-safe: any worker charges and checks; only the tick (one timer) resets.
 */
public final class CpuBudget {

    /**
     * The longest slice under an {@code auto} limit. The kernel enforces a quota per 100 ms period;
     * a budget released every 10 ms keeps the workers from spending a whole slice at 2 cores at its
     * start (a burst the kernel throttles), and the most urgent work waits at most 10 ms for budget.
     */
    static final long AUTO_SLICE_NANOS = 10_000_000;

    private final long periodNanos;
    /** The slices the policy asks for; an {@code auto} limit may release in more (see {@link #AUTO_SLICE_NANOS}). */
    private final int configuredSlices;
    private volatile int slices;
    private volatile long budgetNanos;
    private volatile CpuLimit limit;
    /** Sets the budget at each real tick when the limit is {@code auto}; null otherwise. */
    private volatile AutoCpuLimit auto;
    private volatile long periodStart;
    /** When the period before the current one started: the part of a charge before it belongs to no kept record. */
    private volatile long previousPeriodStart;
    /** An AtomicLong: a charge split at a tick adds its part before the tick after the tick (see {@link #charge(long, long, long)}). */
    private final AtomicLong usedLastPeriod = new AtomicLong();
    /**
     * One AtomicLong, not a LongAdder: every worker reads it before every action (mayStart), and a
     * LongAdder's sum walks its cells, which the other workers write.
     */
    private final AtomicLong usedThisPeriod = new AtomicLong();
    /** When the backplane started being throttled, or {@link #NOT_THROTTLED}. */
    private final AtomicLong throttledSince = new AtomicLong(NOT_THROTTLED);
    private final LongAdder throttledNanos = new LongAdder();

    private static final long NOT_THROTTLED = Long.MIN_VALUE;

    public CpuBudget(CpuLimit limit, Duration period, int slices, long now) {
        this.periodNanos = period.toNanos();
        this.configuredSlices = slices;
        this.slices = slices;
        this.periodStart = now;
        this.previousPeriodStart = now;
        setLimit(limit, now);
    }

    /** Sets the limit; {@code auto} starts following this process's cgroup quota from {@code now}. */
    public void setLimit(CpuLimit limit, long now) {
        if (limit.isAuto()) {
            follow(AutoCpuLimit.forProcess(now));
            return;
        }
        this.auto = null;
        this.limit = limit;
        this.slices = configuredSlices;
        this.budgetNanos = limit.budgetNanos(Duration.ofNanos(periodNanos));
    }

    /** Sets the {@code auto} limit, its budget set by {@code controller} (tests pass their own sources). */
    void follow(AutoCpuLimit controller) {
        this.auto = controller;
        this.limit = CpuLimit.auto();
        long autoSlices = (periodNanos + AUTO_SLICE_NANOS - 1) / AUTO_SLICE_NANOS;
        this.slices = (int) Math.max(configuredSlices, Math.min(BackplanePolicy.MAX_CPU_BUDGET_SLICES, autoSlices));
        this.budgetNanos = controller.initialBudget(periodNanos);
    }

    /** Into how many slices the budget of a period is released now. */
    int slices() {
        return slices;
    }

    public CpuLimit limit() {
        return limit;
    }

    /** Whether the budget limits anything: false when unlimited, or {@code auto} without a quota. */
    public boolean isLimited() {
        return budgetNanos != Long.MAX_VALUE;
    }

    /** The limit in force in cores: the budget over the period ({@link Double#POSITIVE_INFINITY} when not limited). */
    public double coresInForce() {
        long budget = budgetNanos;
        return budget == Long.MAX_VALUE ? Double.POSITIVE_INFINITY : (double) budget / periodNanos;
    }

    /** What the {@code auto} limit follows, or null when the limit is not {@code auto}. */
    public AutoCpuLimit auto() {
        return auto;
    }

    /**
     * Whether actions at the most urgent priority start whatever the budget released (they are still
     * charged): under {@code auto}, whose budget exists to keep the process under its container's
     * quota, not to ration its most urgent work (rule 5). A fixed limit holds every priority.
     */
    boolean exemptsMostUrgent() {
        return auto != null;
    }

    /**
     * Whether a new action at {@code priority} may start at {@code now}: as {@link #mayStart(long)},
     * except that the most urgent priority is not held where {@link #exemptsMostUrgent()}.
     */
    boolean mayStart(long now, int priority) {
        return (priority == 0 && exemptsMostUrgent()) || mayStart(now);
    }

    /**
     * Whether a new action may start at {@code now}: the use is under the budget released by now;
     * under {@code auto}, also under the floor's released part or with room left by the whole process
     * over the last kernel period ({@link AutoCpuLimit#processHasRoom(long)}).
     */
    boolean mayStart(long now) {
        if (!isLimited()) {
            return true;
        }
        long used = usedThisPeriod.get();
        double share = releasedShare(now); // once: the budget and the floor are released in the same slices
        if (used >= released(budgetNanos, share)) {
            return false;
        }
        AutoCpuLimit controller = auto;
        return controller == null || used < released(controller.floorBudget(periodNanos), share) || controller.processHasRoom(now);
    }

    /** The budget released by {@code now} in the current period. */
    long released(long now) {
        return released(budgetNanos, releasedShare(now));
    }

    /** The share of a period's budget released by {@code now}: the slices begun so far, over all slices. */
    private double releasedShare(long now) {
        int n = slices;
        long elapsed = Math.max(0, now - periodStart);
        long slice = Math.min(n, elapsed / Math.max(1, periodNanos / n) + 1);
        return slice >= n ? 1 : (double) slice / n;
    }

    /** The part of a period's {@code budget} released at a released {@code share}. */
    private static long released(long budget, double share) {
        return share >= 1 ? budget : (long) (budget * share);
    }

    /** When the next slice of budget is released, or the period ends (for a timed park). */
    long nextReleaseAt(long now) {
        int n = slices;
        long sliceNanos = Math.max(1, periodNanos / n);
        long elapsed = Math.max(0, now - periodStart);
        long next = periodStart + (elapsed / sliceNanos + 1) * sliceNanos;
        return Math.min(next, periodStart + periodNanos);
    }

    /**
     * Charges {@code cpuNanos} used between {@code from} and {@code to} (clock nanos), each period
     * only the part inside it (scheduling rule 5), in proportion to the wall time of {@code [from, to]}
     * inside it: the current period's share to its use, the last period's share to its record (for
     * its statistics; nothing can start in a period that is over), and a share in any older period
     * to no one (its record is gone; charging it to the last period would make that one look over
     * budget for CPU it did not use). With the action's own start and end on the backplane's clock
     * (step mode, a manual clock) the shares are exact; with a thread's CPU time read at both ends
     * they assume the CPU was used evenly over the interval (see {@link CpuMeter}).
     *
     * <p>Benign race: a tick between this method's read of the period starts and its adds puts the
     * part meant for the old period into the new one (at most one reading's worth, once a period).
     */
    void charge(long cpuNanos, long from, long to) {
        long start = periodStart;
        if (from - start >= 0 || cpuNanos <= 0) {
            usedThisPeriod.addAndGet(cpuNanos);
            return;
        }
        long previous = previousPeriodStart;
        long wall = to - from;
        if (wall <= 0) { // an instant before the current period: all of it in the period that held it
            if (from - previous >= 0) {
                usedLastPeriod.addAndGet(cpuNanos);
            }
            return;
        }
        long inThisPeriod = to - start > 0 ? share(cpuNanos, to - start, wall) : 0;
        long lastFrom = from - previous > 0 ? from : previous;
        long lastTo = to - start < 0 ? to : start;
        long inLastPeriod = lastTo - lastFrom > 0 ? share(cpuNanos, lastTo - lastFrom, wall) : 0;
        usedThisPeriod.addAndGet(inThisPeriod);
        usedLastPeriod.addAndGet(inLastPeriod);
    }

    private static long share(long cpuNanos, long part, long wall) {
        return (long) ((double) cpuNanos * part / wall);
    }

    /** When the current period started (clock nanos). */
    long periodStart() {
        return periodStart;
    }

    /**
     * A real tick: the use of the period that ended becomes "last period"; an {@code auto} limit
     * sets the new period's budget from it first.
     */
    void realTick(long now) {
        AutoCpuLimit controller = auto;
        if (controller != null) {
            budgetNanos = controller.tick(now, usedThisPeriod.get(), periodNanos);
        }
        usedLastPeriod.set(usedThisPeriod.getAndSet(0));
        previousPeriodStart = periodStart;
        periodStart = now;
        resumed(now);
    }

    public long usedThisPeriod() {
        return usedThisPeriod.get();
    }

    public long usedLastPeriod() {
        return usedLastPeriod.get();
    }

    public long budgetNanos() {
        return budgetNanos;
    }

    /** Records that ready work could not start for lack of budget. */
    void throttled(long now) {
        throttledSince.compareAndSet(NOT_THROTTLED, now);
    }

    /** Records that work may start again; adds the throttled interval, if any, once. */
    public void resumed(long now) {
        long since = throttledSince.get();
        if (since != NOT_THROTTLED && throttledSince.compareAndSet(since, NOT_THROTTLED)) {
            throttledNanos.add(Math.max(0, now - since));
        }
    }

    /** Whether a throttled interval is open. */
    boolean isThrottled() {
        return throttledSince.get() != NOT_THROTTLED;
    }

    /** Total time throttled, including an interval still open at {@code now}. */
    public long throttledNanos(long now) {
        long since = throttledSince.get();
        return throttledNanos.sum() + (since == NOT_THROTTLED ? 0 : Math.max(0, now - since));
    }
}
