package io.appbackplane.internal.scheduling;

import io.appbackplane.BackplanePolicy;
import io.appbackplane.internal.base.CacheLines;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Quotas per priority and their use in the current (virtual) period (scheduling rules 2, 4, 6).
 *
 * <p>Invariant: {@code 0 <= used(p) <= quota(p)} for limited priorities. A charge is a CAS loop,
 * so concurrent workers never overdraw a quota. Replenishment (a real or virtual tick) moves the
 * {@link #generation()} on, which is the whole of the tick: one CAS (virtual) or increment (real),
 * so every reader sees a tick as one step. A virtual tick happens at most once per observed
 * generation, so workers that find every quota spent at the same moment replenish once, not once
 * each.
 *
 * <p>Each priority's slot holds {@code epoch << 32 | used}: the use counted in the period whose
 * generation's low 32 bits are {@code epoch}. A slot whose epoch is not the current generation's
 * holds the use of a period that is over, which counts as 0; the first charge of a new period
 * writes the new epoch with a use of 1 (so a tick writes no slot, and a priority that was not used
 * is not written at all). Readers read the slot and then the generation: a slot's epoch was read
 * from the generation by its writer, so it is never newer than the generation read after it. A
 * charge returns its epoch as its receipt, and a refund returns the charge only while the slot is
 * still in that epoch, in the same CAS: a charge taken before a tick and refunded after it must not
 * give back a unit of the new period (which would let one more action run than the quota).
 *
 * <p>A tick is the one CAS on the generation, never a reset of the slots one by one after it: a
 * worker that read the new generation in between would find the quotas still spent and tick
 * again, and the first tick's late reset would then forgive what was charged after the second, so
 * a priority could get twice its quota and the virtual-tick count would be inflated. A charge that overlaps a tick
 * may still be counted in the period that the tick ended (it read the slot and generation before
 * the tick): a tick at most forgives the charges made while it happened.
 */
public final class QuotaLedger {

    /** No charge was taken (the quota is spent). */
    static final long NO_CHARGE = -1;

    /**
     * Longs from one priority's slot in {@link #used} to the next: two cache lines ({@link
     * CacheLines}), so that charging one priority does not invalidate the line of another's slot
     * (false sharing). One line would do for that; two is the layout the ledger has had since its
     * slots became longs (epoch and use) and kept the stride of the ints they were.
     */
    private static final int STRIDE = 2 * CacheLines.LONGS_PER_LINE;

    /** The slot of priority p, {@code epoch << 32 | used}, is at index {@link #slot}(p) ({@link CacheLines#stridedIndex}). */
    private final AtomicLongArray used;
    private final AtomicIntegerArray quotas;
    /** Replenishments so far (real and virtual); its low 32 bits are the current period's epoch. */
    private final AtomicLong generation = new AtomicLong();
    private final AtomicLong virtualTicks = new AtomicLong();

    public QuotaLedger(int[] quotas) {
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
            long epoch = epochOfGeneration(generation.get()); // read after the slot (class comment)
            int use = epochOf(slot) == epoch ? usedOf(slot) : 0; // a period that is over counts as none
            if (use >= quota) {
                return NO_CHARGE;
            }
            if (used.compareAndSet(i, slot, epoch << 32 | (use + 1))) {
                return epoch;
            }
            // CAS lost to another worker charging or refunding: re-read and retry.
        }
    }

    /**
     * Returns a charge taken for an action that did not run (its entry turned out stale), unless a
     * period began since and was charged: then the charge belonged to a period that is over. (A
     * refund into a slot still in the charge's epoch after a tick lowers a use that counts as 0.)
     */
    void refund(int p, long receipt) {
        int i = slot(p);
        while (true) {
            long slot = used.get(i);
            if (epochOf(slot) != receipt || usedOf(slot) == 0) {
                return; // a later period's use: nothing of the charge's period to return
            }
            if (used.compareAndSet(i, slot, slot - 1)) {
                return;
            }
        }
    }

    /** Changes a quota at run time; the use already counted this period stays. */
    public void setQuota(int p, int quota) {
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

    /**
     * The epoch of {@code generation}'s period. Epochs repeat every 2^32 replenishments: a slot not
     * charged for exactly a multiple of that many would count its old use again, for one period.
     */
    private static long epochOfGeneration(long generation) {
        return generation & USED_MASK;
    }

    public int quota(int p) {
        return quotas.get(p);
    }

    /** Priority {@code p}'s use in the current period. */
    public int used(int p) {
        long slot = used.get(slot(p));
        return epochOf(slot) == epochOfGeneration(generation.get()) ? usedOf(slot) : 0;
    }

    /**
     * Changes with every replenishment; read before a scan that may end in a virtual tick. Its low
     * 32 bits are the receipt a charge taken now would get.
     */
    long generation() {
        return generation.get();
    }

    /**
     * Replenishes all quotas because every priority with work has spent its quota (rule 6), unless
     * another replenishment (virtual or real) happened since {@code observedGeneration}: one CAS,
     * which is the whole tick.
     *
     * @return whether this call replenished
     */
    boolean virtualTick(long observedGeneration) {
        if (!generation.compareAndSet(observedGeneration, observedGeneration + 1)) {
            return false;
        }
        virtualTicks.incrementAndGet();
        return true;
    }

    /** Replenishes all quotas at a real tick (rule 4). */
    void realTick() {
        generation.incrementAndGet();
    }

    public long virtualTicks() {
        return virtualTicks.get();
    }

    static boolean isUnlimited(int quota) {
        return quota == BackplanePolicy.UNLIMITED_QUOTA;
    }
}
