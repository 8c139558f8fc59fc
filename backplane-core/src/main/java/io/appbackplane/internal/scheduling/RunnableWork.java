package io.appbackplane.internal.scheduling;

import io.appbackplane.BackplaneClock;

/**
 * What a worker that found nothing asks before it spins, yields or parks, and what the step driver
 * asks before it reports THROTTLED: whether an object is READY, whether the CPU budget lets it
 * start, when more budget is released. Reads only (the ready queues and the budget), takes nothing,
 * so any thread may ask at any time; every answer is a moment old.
 */
final class RunnableWork {

    private final ReadyQueues ready;
    private final CpuBudget cpu;
    private final BackplaneClock clock;

    RunnableWork(ReadyQueues ready, CpuBudget cpu, BackplaneClock clock) {
        this.ready = ready;
        this.cpu = cpu;
        this.clock = clock;
    }

    /**
     * Whether a worker that found nothing should look again rather than park: an object is READY
     * (a queued entry, what {@link ReadySelector#select} polls) and the CPU budget lets it start
     * (under {@code auto} an object READY at the most urgent priority starts without budget).
     */
    boolean hasRunnableWork() {
        return ready.anyQueued() && (!cpu.isLimited() || cpu.mayStart(clock.nanoTime())
                || (cpu.exemptsMostUrgent() && ready.hasQueued(0)));
    }

    /**
     * Whether any object is READY and pushed (cheap: whether a ready queue holds an entry, what
     * {@link ReadySelector#select} polls); the CPU budget may still hold it back.
     */
    boolean hasReadyObjects() {
        return ready.anyQueued();
    }

    /** When, on the backplane's clock, more CPU budget is released: the next slice or the period's end. */
    long nextBudgetRelease() {
        return cpu.nextReleaseAt(clock.nanoTime());
    }

    /**
     * Nanoseconds until more CPU budget is released, for a throttled worker's timed park; 0 when
     * the release is not in the future: the period is over but its real tick has not fired yet (the
     * timer thread is late, e.g. descheduled on a loaded machine). Then only the tick can release
     * budget, and it wakes every parked worker ({@code signalAll}), so the worker parks until then
     * instead of spinning on 1 ns parks whose CPU readings would be charged to the budget.
     */
    long nanosUntilRelease() {
        long now = clock.nanoTime();
        long until = cpu.nextReleaseAt(now) - now;
        return until > 0 ? until : 0;
    }
}
