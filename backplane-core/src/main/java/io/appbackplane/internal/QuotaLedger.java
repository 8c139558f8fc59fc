package io.appbackplane.internal;

import io.appbackplane.BackplanePolicy;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Quotas per priority and their use in the current (virtual) period (scheduling rules 2, 4, 6).
 *
 * <p>Invariant: {@code 0 <= used(p) <= quota(p)} for limited priorities. A charge is a CAS loop,
 * so concurrent workers never overdraw a quota. Replenishment (a real or virtual tick) resets every
 * use to 0; a virtual tick happens at most once per observed {@link #generation()}, so workers that
 * find every quota spent at the same moment replenish once, not once each.
 *
 * <p>Each priority's slot holds {@code epoch << 32 | used}; a reset of a used slot moves its epoch
 * on. A charge returns the epoch it was taken in as its receipt, and a refund returns the charge
 * only while the slot is still in that epoch, in the same CAS: a charge taken before a tick and
 * refunded after it must not give back a unit of the new period (which would let one more action
 * run than the quota: issue 13, defect 8).
 */
final class QuotaLedger {

    /** No charge was taken (the quota is spent). */
    static final long NO_CHARGE = -1;

    /**
     * Longs from one priority's slot in {@link #used} to the next: two cache lines ({@link
     * CacheLines}), so that charging one priority does not invalidate the line of another's slot
     * (false sharing). One line would do for that; two is the layout the ledger has had since its
     * slots became longs (epoch and use) and kept the stride of the ints they were, {@link
     * ReadyQueues#STRIDE}.
     */
    private static final int STRIDE = 2 * CacheLines.LONGS_PER_LINE;

    /** The slot of priority p, {@code epoch << 32 | used}, is at index {@link #slot}(p) ({@link CacheLines#stridedIndex}). */
    private final AtomicLongArray used;
    private final AtomicIntegerArray quotas;
    private final AtomicLong generation = new AtomicLong();
    private final AtomicLong virtualTicks = new AtomicLong();

    QuotaLedger(int[] quotas) {
        this.quotas = new AtomicIntegerArray(quotas);
        this.used = new AtomicLongArray(CacheLines.stridedLength(quotas.length, STRIDE));
    }

    /**
     * Charges one action to priority {@code p}.
     *
     * @return the charge's receipt (for {@link #refund}), or {@link #NO_CHARGE} if the quota is spent
     */
    long charge(int p) {
        int quota = quotas.get(p);
        int i = slot(p);
        while (true) {
            long slot = used.get(i);
            if (usedOf(slot) >= quota) {
                return NO_CHARGE;
            }
            if (used.compareAndSet(i, slot, slot + 1)) {
                return epochOf(slot);
            }
            // CAS lost to another worker charging or a tick resetting: re-read and retry.
        }
    }

    /** Charges one action to priority {@code p} that is never refunded; false if its quota is spent. */
    boolean tryCharge(int p) {
        return charge(p) != NO_CHARGE;
    }

    /**
     * Returns a charge taken for an action that did not run (its entry turned out stale), unless a
     * tick replenished the priority since: then the charge belonged to a period that is over.
     */
    void refund(int p, long receipt) {
        int i = slot(p);
        while (true) {
            long slot = used.get(i);
            if (epochOf(slot) != receipt || usedOf(slot) == 0) {
                return; // a tick reset the use in between: nothing of this period to return
            }
            if (used.compareAndSet(i, slot, slot - 1)) {
                return;
            }
        }
    }

    /** Changes a quota at run time; the use already counted this period stays. */
    void setQuota(int p, int quota) {
        quotas.set(p, quota); // a racing charge sees the old or the new quota; both are valid
        int i = slot(p);
        while (true) {
            long slot = used.get(i);
            if (usedOf(slot) <= quota || used.compareAndSet(i, slot, (slot & ~USED_MASK) | quota)) {
                return;
            }
        }
    }

    private static int slot(int p) {
        return CacheLines.stridedIndex(p, STRIDE);
    }

    private static final long USED_MASK = 0xFFFF_FFFFL;

    private static int usedOf(long slot) {
        return (int) (slot & USED_MASK);
    }

    private static long epochOf(long slot) {
        return slot >>> 32;
    }

    int quota(int p) {
        return quotas.get(p);
    }

    /** The epoch priority {@code p}'s slot is in: the receipt a charge taken now would get (for tests). */
    long epoch(int p) {
        return epochOf(used.get(slot(p)));
    }

    int used(int p) {
        return usedOf(used.get(slot(p)));
    }

    /** Changes with every replenishment; read before a scan that may end in a virtual tick. */
    long generation() {
        return generation.get();
    }

    /**
     * Replenishes all quotas because every priority with work has spent its quota (rule 6), unless
     * another worker already did since {@code observedGeneration}.
     *
     * @return whether this call replenished
     */
    boolean virtualTick(long observedGeneration) {
        if (!generation.compareAndSet(observedGeneration, observedGeneration + 1)) {
            return false;
        }
        reset();
        virtualTicks.incrementAndGet();
        return true;
    }

    /** Replenishes all quotas at a real tick (rule 4). */
    void realTick() {
        generation.incrementAndGet();
        reset();
    }

    long virtualTicks() {
        return virtualTicks.get();
    }

    /**
     * Sets every use to 0, writing only the priorities that were used: a virtual tick comes every
     * few dozen actions under load, and a write to an unused priority's line would only take that
     * line away from the cores reading it (a select reads the use of every priority it charges).
     */
    private void reset() {
        for (int p = 0; p < quotas.length(); p++) {
            int i = slot(p);
            while (true) {
                long slot = used.get(i);
                // an unused slot holds no charge to refund: leaving its epoch is safe. The epoch wraps
                // after 2^32 resets: a refund would have to hold its receipt across all of them.
                if (usedOf(slot) == 0 || used.compareAndSet(i, slot, (epochOf(slot) + 1) << 32)) {
                    break;
                }
                // CAS lost to a charge or refund: reset what it left
            }
        }
    }

    static boolean isUnlimited(int quota) {
        return quota == BackplanePolicy.UNLIMITED_QUOTA;
    }
}
