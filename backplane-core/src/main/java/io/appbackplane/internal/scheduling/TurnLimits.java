package io.appbackplane.internal.scheduling;

/**
 * What decides whether a turn may go on with its object's next action (rule 7; {@link
 * RunContext#mayContinue}): the actions per turn, nothing more urgent READY, the CPU budget (rule
 * 5) and the quota of the turn's priority, charged for each action. Reads the backplane's shared
 * ready queues and budget; any worker may ask at any time, and every answer is a moment old.
 */
final class TurnLimits {

    private final ReadyQueues ready;
    private final QuotaLedger quotas;
    private final CpuBudget cpu;
    private final int actionsPerTurn;

    TurnLimits(ReadyQueues ready, QuotaLedger quotas, CpuBudget cpu, int actionsPerTurn) {
        this.ready = ready;
        this.quotas = quotas;
        this.cpu = cpu;
        this.actionsPerTurn = actionsPerTurn;
    }

    int actionsPerTurn() {
        return actionsPerTurn;
    }

    /** Whether an object is READY at a priority more urgent than {@code priority} (this backplane). */
    boolean readyAbove(int priority) {
        return ready.queuedAbove(priority);
    }

    /** Whether no object is READY at {@code priority} (one that rejoined its tail would be its head). */
    boolean noneReadyAt(int priority) {
        return !ready.hasQueued(priority);
    }

    /**
     * Whether the CPU budget lets one more action at {@code priority} start at {@code now} (rule 5);
     * checked before each action of a turn, with the end of the action before it as {@code now}.
     */
    boolean cpuAllowsStart(long now, int priority) {
        return !cpu.isLimited() || cpu.mayStart(now, priority);
    }

    /** Charges one action to {@code priority}: its receipt, or {@link QuotaLedger#NO_CHARGE}. */
    long charge(int priority) {
        return quotas.charge(priority);
    }

    /** Gives back a charge taken by {@link #charge} for an action that will not run now. */
    void refund(int priority, long charge) {
        quotas.refund(priority, charge);
    }

    /** The backplane's CPU budget (tests set an {@code auto} limit with their own sources on it). */
    CpuBudget cpuBudget() {
        return cpu;
    }
}
