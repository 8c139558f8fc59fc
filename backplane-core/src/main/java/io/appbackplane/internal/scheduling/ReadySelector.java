package io.appbackplane.internal.scheduling;

import io.appbackplane.BackplaneClock;
import io.appbackplane.internal.objects.NothingTaken;
import io.appbackplane.internal.objects.ReadyEntry;
import io.appbackplane.internal.objects.Selection;
import io.appbackplane.internal.objects.WorkObject;

/**
 * Takes the next object to run (scheduling rules 3, 5, 6): the head of the most urgent ready queue
 * with quota left, after the CPU budget check, with a virtual tick when every priority with work has
 * spent its quota.
 *
 * <h2>Concurrency</h2>
 * Any number of workers select concurrently; there is no global lock. Selection scans priorities
 * from the most urgent, charges the quota with a CAS before polling (so a quota is never overdrawn
 * and a polled entry never has to be put back), and takes the object with its monitor; a stale
 * entry refunds its charge. Once an object is taken (RUNNING), its worker is the only thread that
 * runs its actions until the object leaves RUNNING, which gives per-object order and one action at
 * a time.
 */
final class ReadySelector {

    private final BackplaneClock clock;
    private final ReadyQueues ready;
    private final QuotaLedger quotas;
    private final CpuBudget cpu;

    ReadySelector(BackplaneClock clock, ReadyQueues ready, QuotaLedger quotas, CpuBudget cpu) {
        this.clock = clock;
        this.ready = ready;
        this.quotas = quotas;
        this.cpu = cpu;
    }

    /**
     * Takes the next object to run: the head of the most urgent ready queue with quota left (rule
     * 3), replenishing all quotas by a virtual tick when every priority with work has spent its
     * quota (rule 6), unless the CPU budget is used up (rule 5; under {@code auto} the most urgent
     * priority is still taken then, {@link CpuBudget#exemptsMostUrgent()}).
     *
     * @return a taken entry (its object is now RUNNING and owned by the caller, its priority's quota
     *     charged), {@link NothingTaken#NOTHING_READY} or {@link NothingTaken#THROTTLED}
     */
    Selection select() {
        return select(cpu.isLimited() ? clock.nanoTime() : 0);
    }

    /**
     * {@link #select()} at a time the caller read a moment ago (a worker passes the end of the
     * action it just ran, saving a clock read per turn; the CPU budget changes per slice, not per
     * microsecond). Ignored without a CPU limit.
     */
    Selection select(long now) {
        int priorities = ready.priorities();
        int scanned = priorities; // the priorities this selection may take from
        if (cpu.isLimited()) {
            if (!cpu.mayStart(now)) {
                if (!ready.anyQueued()) {
                    return NothingTaken.NOTHING_READY;
                }
                boolean urgent = cpu.exemptsMostUrgent() && ready.hasQueued(0);
                if (!urgent || ready.anyQueuedBelow(0)) {
                    cpu.throttled(now); // less urgent work waits for budget
                }
                if (!urgent) {
                    return NothingTaken.THROTTLED;
                }
                scanned = 1; // rule 5 under auto: only the most urgent priority starts without budget
            } else if (cpu.isThrottled()) {
                cpu.resumed(now);
            }
        }
        while (true) {
            long generation = quotas.generation();
            boolean quotaSpent = false;
            for (int p = 0; p < scanned; p++) {
                // A queued entry is work (as for the park check): a stale entry is dead and
                // purged when it reaches its queue's head (ReadyEntry), never taken.
                while (ready.hasQueued(p)) {
                    long charge = quotas.charge(p);
                    if (charge == QuotaLedger.NO_CHARGE) {
                        quotaSpent = true;
                        break;
                    }
                    ReadyEntry entry = ready.poll(p);
                    if (entry == null) {
                        // Another worker polled the last entry since the check: nothing to take here now.
                        quotas.refund(p, charge);
                        break;
                    }
                    WorkObject object = entry.object; // read once: null if the entry is dead
                    if (object != null && object.take(entry)) {
                        ready.purgeDeadHead(p); // the entry after it may be dead
                        return entry;
                    }
                    quotas.refund(p, charge); // a stale entry: try this priority again
                }
            }
            if (scanned < priorities) {
                // Budget spent and nothing taken at the most urgent priority. Its quota is spent:
                // it waits for budget too, as no virtual tick comes without budget (rule 6). Else
                // another worker took its entry since the check.
                if (quotaSpent) {
                    cpu.throttled(now);
                    return NothingTaken.THROTTLED;
                }
                return NothingTaken.NOTHING_READY;
            }
            if (!quotaSpent) {
                return NothingTaken.NOTHING_READY;
            }
            quotas.virtualTick(generation); // if another worker replenished first, just rescan
        }
    }
}
