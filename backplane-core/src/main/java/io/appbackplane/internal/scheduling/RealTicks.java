package io.appbackplane.internal.scheduling;

import io.appbackplane.internal.base.TimerService;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A backplane's real ticks (scheduling rule 4): once per integration period, on its timer service's
 * thread (or the thread advancing a manual clock), replenishes every quota, resets the CPU use and
 * wakes throttled workers. (Virtual ticks, rule 6, are the {@link QuotaLedger}'s, taken by the
 * {@link Scheduler}.)
 *
 * <p>Invariants: at most one tick is pending; each tick schedules the next unless the backplane is
 * STOPPED, so ticks go on through shutdown until it has stopped (not just until it begins) and a
 * CPU-limited backplane can drain. Deadlines stay on the grid {@code first + k × period}: a late
 * timer skips the ticks it missed, to the first deadline after now, rather than ticking in a burst.
 * {@code nextTickDeadline} is confined to the timer that fires ticks (after {@link #start}).
 */
public final class RealTicks {

    private final SchedulingHost backplane;
    private final QuotaLedger quotas;
    private final CpuBudget cpu;
    private final TimerService timers;
    private final AtomicLong count = new AtomicLong();
    /** The deadline of the pending real tick; confined to the timer that fires ticks. */
    private long nextTickDeadline;

    public RealTicks(SchedulingHost backplane, QuotaLedger quotas, CpuBudget cpu, TimerService timers) {
        this.backplane = backplane;
        this.quotas = quotas;
        this.cpu = cpu;
        this.timers = timers;
    }

    /** Schedules the first tick one integration period after {@code now}; called once, by the constructing thread. */
    public void start(long now) {
        nextTickDeadline = now + backplane.policy().integrationPeriod().toNanos();
        timers.schedule(nextTickDeadline, this::realTick);
    }

    /** Real ticks so far. */
    public long count() {
        return count.get();
    }

    /** A real tick (rule 4): replenish quotas, reset CPU use, adapt limits to queue-wait targets (rule 19), wake throttled workers. */
    private void realTick() {
        long now = backplane.clock().nanoTime();
        quotas.realTick();
        cpu.realTick(now);
        backplane.adaptLimits();
        count.incrementAndGet();
        backplane.signalAll();
        if (backplane.isStopped()) {
            return;
        }
        long period = backplane.policy().integrationPeriod().toNanos();
        long next = nextTickDeadline + period;
        while (next - now <= 0) {
            next += period; // the timer fell behind: skip missed ticks rather than tick in a burst
        }
        nextTickDeadline = next;
        timers.schedule(next, this::realTick);
    }
}
