package io.appbackplane.internal;

import io.appbackplane.BackplaneClock;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * What one worker charges to its backplane's {@link CpuBudget} (DESIGN rule 5), and when.
 *
 * <p>With the system clock, a worker charges the CPU time its thread actually used, read from the
 * operating system ({@link ThreadMXBean#getCurrentThreadCpuTime()}), not the wall-clock time its
 * actions took: on a machine where the workers share cores with other busy threads, an action's
 * wall time includes time it spent descheduled, and charging that would hold the backplane well
 * under its limit (and stall it for no reason). The thread's CPU time also covers the scheduling
 * work between actions, so the budget governs everything the backplane's workers burn. Reading it
 * costs a system call (about 0.5 µs, several tiny actions' worth), so a worker reads it once per
 * {@value #FLUSH_NANOS} ns of action time, where going idle counts as {@value #IDLE_NANOS} ns (a
 * park and its wake-up cost CPU that no action time shows), when it is throttled, and when it
 * exits, and charges the difference. Between two readings the budget lags by about that much per
 * worker, and nothing is lost: the next reading charges it.
 *
 * <p>With any other clock (a {@code ManualClock}, step mode) or where the JVM cannot
 * measure thread CPU time, each action's running time on the backplane's clock is charged when the
 * action ends, so tests that advance the clock inside an action see exactly that charge.
 *
 * <p>Confined to its worker's thread (or the stepping thread).
 */
final class CpuMeter {

    /** Action time between two readings of the thread's CPU time (0.2 ms). */
    static final long FLUSH_NANOS = 200_000;

    /** What going idle counts towards {@link #FLUSH_NANOS}: a reading at least every 20 parks. */
    static final long IDLE_NANOS = 10_000;

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private final CpuBudget budget;
    private final boolean threadCpu;
    /** Action time since the last reading (thread-CPU mode). */
    private long pendingNanos;
    /** The thread's CPU time at the last reading, or -1 before the first (thread-CPU mode). */
    private long lastThreadCpu = -1;

    CpuMeter(CpuBudget budget, boolean threadCpu) {
        this.budget = budget;
        this.threadCpu = threadCpu;
    }

    /** Whether workers of a backplane with this clock and mode measure thread CPU time. */
    static boolean measuresThreadCpu(BackplaneClock clock, boolean stepMode) {
        return !stepMode && clock == BackplaneClock.system()
                && THREADS.isCurrentThreadCpuTimeSupported() && THREADS.isThreadCpuTimeEnabled();
    }

    /** Called by the worker's thread before its first action: the reference reading. */
    void start() {
        if (threadCpu) {
            lastThreadCpu = THREADS.getCurrentThreadCpuTime();
        }
    }

    /** An action ran for {@code runNanos} on the backplane's clock. */
    void actionRan(long runNanos) {
        if (!threadCpu) {
            budget.charge(runNanos);
            return;
        }
        pendingNanos += runNanos;
        if (pendingNanos >= FLUSH_NANOS) {
            flush();
        }
    }

    /**
     * The worker found no work and is about to park: counts the park towards the next reading, and
     * reads now if that is due (not at every park: an idle-busy alternation would pay a system
     * call per tiny action).
     */
    void idle() {
        if (threadCpu) {
            actionRan(IDLE_NANOS);
        }
    }

    /** Charges the thread's CPU time since the last reading (called when throttled and on exit). */
    void flush() {
        if (!threadCpu) {
            return;
        }
        pendingNanos = 0;
        long now = THREADS.getCurrentThreadCpuTime();
        if (lastThreadCpu >= 0 && now > lastThreadCpu) {
            budget.charge(now - lastThreadCpu);
        }
        lastThreadCpu = now;
    }
}
