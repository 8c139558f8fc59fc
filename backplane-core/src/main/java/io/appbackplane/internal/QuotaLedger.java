package io.appbackplane.internal;

import io.appbackplane.BackplanePolicy;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Quotas per priority and their use in the current (virtual) period (DESIGN rules 2, 4, 6).
 *
 * <p>Invariant: {@code 0 <= used(p) <= quota(p)} for limited priorities. A charge is a CAS loop,
 * so concurrent workers never overdraw a quota. Replenishment (a real or virtual tick) resets every
 * use to 0; a virtual tick happens at most once per observed {@link #generation()}, so workers that
 * find every quota spent at the same moment replenish once, not once each.
 */
final class QuotaLedger {

    /** The use of priority p is at index {@code p * ReadyQueues.STRIDE}: one cache line each (no false sharing). */
    private final AtomicIntegerArray used;
    private final AtomicIntegerArray quotas;
    private final AtomicLong generation = new AtomicLong();
    private final AtomicLong virtualTicks = new AtomicLong();

    QuotaLedger(int[] quotas) {
        this.quotas = new AtomicIntegerArray(quotas);
        this.used = new AtomicIntegerArray(quotas.length * ReadyQueues.STRIDE);
    }

    /** Charges one action to priority {@code p}; false if its quota is spent. */
    boolean tryCharge(int p) {
        int quota = quotas.get(p);
        while (true) {
            int u = used.get(p * ReadyQueues.STRIDE);
            if (u >= quota) {
                return false;
            }
            if (used.compareAndSet(p * ReadyQueues.STRIDE, u, u + 1)) {
                return true;
            }
            // CAS lost to another worker charging or a tick resetting: re-read and retry.
        }
    }

    /** Returns a charge taken for an action that did not run (its entry turned out stale). */
    void refund(int p) {
        while (true) {
            int u = used.get(p * ReadyQueues.STRIDE);
            if (u == 0) {
                return; // a tick reset the use in between: nothing to return
            }
            if (used.compareAndSet(p * ReadyQueues.STRIDE, u, u - 1)) {
                return;
            }
        }
    }

    /** Changes a quota at run time; the use already counted this period stays. */
    void setQuota(int p, int quota) {
        quotas.set(p, quota); // a racing charge sees the old or the new quota; both are valid
        if (used.get(p * ReadyQueues.STRIDE) > quota) {
            used.set(p * ReadyQueues.STRIDE, quota);
        }
    }

    int quota(int p) {
        return quotas.get(p);
    }

    int used(int p) {
        return used.get(p * ReadyQueues.STRIDE);
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
            if (used.get(p * ReadyQueues.STRIDE) != 0) {
                used.set(p * ReadyQueues.STRIDE, 0);
            }
        }
    }

    static boolean isUnlimited(int quota) {
        return quota == BackplanePolicy.UNLIMITED_QUOTA;
    }
}
