package io.appbackplane.internal.scheduling;

import io.appbackplane.BackplaneClock;
import io.appbackplane.internal.base.WorkerLocalPadding;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.function.LongSupplier;

/**
 * What one worker charges to its backplane's {@link CpuBudget} (scheduling rule 5), and when.
 *
 * <p>With the system clock, a worker charges the CPU time its thread actually used, read from the
 * operating system ({@link ThreadMXBean#getCurrentThreadCpuTime()}), not the wall-clock time its
 * actions took: on a machine where the workers share cores with other busy threads, an action's
 * wall time includes time it spent descheduled, and charging that would hold the backplane well
 * under its limit (and stall it for no reason). The thread's CPU time also covers the scheduling
 * work between actions, so the budget governs everything the backplane's workers burn. Reading it
 * costs a system call (about 0.5 µs, several tiny actions' worth), so a worker reads it and charges
 * the difference since its last reading: every {@value #FLUSH_NANOS} ns of action time; when it is
 * about to park idle, if its last reading is {@value #IDLE_FLUSH_NANOS} ns old or more (a worker
 * that alternates between tiny bursts and parking pays at most one reading per millisecond); when
 * it is throttled; and when it exits. Nothing is lost: what one reading misses, the next charges.
 * The budget lags a busy worker by at most {@value #FLUSH_NANOS} ns of action time plus the
 * scheduling work between them, and a parked worker by at most what it used in the last
 * millisecond before parking, until it runs again.
 *
 * <p>Each period is charged only the CPU time used inside it (scheduling rule 5).
 * A reading covers the interval since the previous one; when a real tick fell inside it, the CPU
 * time read is split at the tick in proportion to the wall time on either side ({@link
 * CpuBudget#charge(long, long, long)}: pro-rating, chosen over reading a running action's thread
 * CPU time from the tick's thread, which would cost the tick a system call per worker and race with
 * the worker's own readings). A CPU-bound action that runs across a tick is split exactly where it
 * ran; the interval of a worker that parked is cut at the park ({@link #parking}, {@link #woke}),
 * so CPU used before a park is never pro-rated over the time it slept; and a turn that starts after
 * a tick the last reading did not see reads first ({@link #turnStarting}), so a turn's actions are
 * never pro-rated over what came before them. A reading that spans more than one tick gives each
 * period only its share (the share of periods older than the last one is kept by no record). What
 * pro-rating can still misplace is the unevenness inside one reading: at most one reading's worth
 * (one turn's actions up to {@value #FLUSH_NANOS} ns of action time past the tick, or the
 * scheduling work before a turn) per worker per tick.
 *
 * <p>A reading never charges more CPU time than the wall time since the reading before: one thread
 * cannot use more, and a virtual machine's guest can report more when the host stalls it (the
 * stolen time charged to the thread that was on the processor; seen as 15.9 ms of thread CPU time
 * in 1.1 ms on a 2-vCPU KVM guest), which would otherwise charge a period for CPU no one used and
 * throttle the backplane for it.
 *
 * <p>With any other clock (a {@code ManualClock}, step mode) or where the JVM cannot
 * measure thread CPU time, each action's running time on the backplane's clock is charged when the
 * action ends, split at a tick that fell inside it, so tests that advance the clock inside an
 * action see exactly that charge in exactly the periods it ran in.
 *
 * <p>Confined to its worker's thread (or the stepping thread).
 */
public final class CpuMeter extends WorkerLocalPadding {

    /** Action time between two readings of the thread's CPU time (0.2 ms). */
    static final long FLUSH_NANOS = 200_000;

    /** A worker about to park idle reads its CPU time if its last reading is this old (1 ms). */
    static final long IDLE_FLUSH_NANOS = 1_000_000;

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private final CpuBudget budget;
    private final boolean threadCpu;
    /** The calling thread's CPU time (the operating system's; tests give their own). */
    private final LongSupplier threadCpuTime;
    /** Wall time, {@link System#nanoTime()} (tests give their own). */
    private final LongSupplier wallClock;
    /** Action time since the last reading (thread-CPU mode). */
    private long pendingNanos;
    /** The thread's CPU time at the last reading, or -1 before the first (thread-CPU mode). */
    private long lastThreadCpu = -1;
    /** When the last reading was taken, on {@link System#nanoTime()} (thread-CPU mode implies the system clock). */
    private long lastReadingAt;
    /** When the worker last announced it would park (thread-CPU mode). */
    private long parkedAt;

    public CpuMeter(CpuBudget budget, boolean threadCpu) {
        this(budget, threadCpu, THREADS::getCurrentThreadCpuTime, System::nanoTime);
    }

    /** A meter reading the thread's CPU time and the wall time from the given sources (tests). */
    CpuMeter(CpuBudget budget, boolean threadCpu, LongSupplier threadCpuTime, LongSupplier wallClock) {
        this.budget = budget;
        this.threadCpu = threadCpu;
        this.threadCpuTime = threadCpuTime;
        this.wallClock = wallClock;
    }

    /** Whether workers of a backplane with this clock and mode measure thread CPU time. */
    public static boolean measuresThreadCpu(BackplaneClock clock, boolean stepMode) {
        return !stepMode && clock == BackplaneClock.system()
                && THREADS.isCurrentThreadCpuTimeSupported() && THREADS.isThreadCpuTimeEnabled();
    }

    /** Called by the worker's thread before its first action: the reference reading. */
    void start() {
        if (threadCpu) {
            lastReadingAt = wallClock.getAsLong();
            lastThreadCpu = threadCpuTime.getAsLong();
        }
    }

    /** An action ran from {@code start} to {@code end} on the backplane's clock. */
    void actionRan(long start, long end) {
        long runNanos = end - start;
        if (!threadCpu) {
            budget.charge(runNanos, start, end);
            return;
        }
        pendingNanos += runNanos;
        if (pendingNanos >= FLUSH_NANOS) {
            flush();
        }
    }

    /**
     * The worker found no work and is about to park: reads now if the last reading is {@value
     * #IDLE_FLUSH_NANOS} ns old or more, so that an idle backplane's budget shows what it used, but
     * not at every park (a worker alternating between tiny bursts and parking would pay a system
     * call per burst).
     */
    void idle() {
        if (threadCpu && wallClock.getAsLong() - lastReadingAt >= IDLE_FLUSH_NANOS) {
            flush();
        }
        parking();
    }

    /** The worker is about to park (idle or throttled): remembers when, for {@link #woke}. */
    void parking() {
        if (threadCpu) {
            parkedAt = wallClock.getAsLong();
        }
    }

    /**
     * The worker is back from a park. If a real tick came since the last reading, the CPU time not
     * yet read was used before the park, so it is read now and charged to the interval that ended
     * at the park (the old period), not pro-rated over the sleep; otherwise nothing (no system call).
     */
    void woke() {
        if (threadCpu && budget.periodStart() - lastReadingAt > 0) {
            read(parkedAt);
        }
    }

    /**
     * A turn is about to start. If a real tick came since the last reading, reads now, so that the
     * CPU time used before the turn (scheduling work, a stretch the thread spent descheduled by the
     * operating system) is split at the tick on its own, and the turn's actions are charged to the
     * period they run in instead of being pro-rated over that stretch. Costs a volatile read per
     * turn, and a system call at most once per tick per worker.
     */
    void turnStarting() {
        if (threadCpu && budget.periodStart() - lastReadingAt > 0) {
            read(wallClock.getAsLong());
        }
    }

    /** Charges the thread's CPU time since the last reading (the reading is due; see the class comment). */
    void flush() {
        if (threadCpu) {
            read(wallClock.getAsLong());
        }
    }

    /** Reads the thread's CPU time and charges what it used since the last reading, as used until {@code usedUntil}. */
    private void read(long usedUntil) {
        pendingNanos = 0;
        long from = lastReadingAt;
        lastReadingAt = wallClock.getAsLong();
        long now = threadCpuTime.getAsLong();
        if (lastThreadCpu >= 0 && now > lastThreadCpu) {
            // Both CPU readings lie between the wall reading before the last one and a wall reading
            // after this one, so the thread cannot have used more than that (see the class comment).
            long used = Math.min(now - lastThreadCpu, wallClock.getAsLong() - from);
            budget.charge(used, from, Math.max(from, usedUntil));
        }
        lastThreadCpu = now;
    }
}
