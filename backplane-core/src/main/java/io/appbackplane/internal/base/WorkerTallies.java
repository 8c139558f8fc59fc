package io.appbackplane.internal.base;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;

/**
 * Counts that workers add to on every action or request, kept as one tally per {@link
 * WorkerThread#slot}: a {@code long[]} that only the slot's holder writes, so counting costs plain
 * stores instead of atomic updates that move a cache line between cores. A caller that is not a
 * worker gets no tally ({@link #of} returns null) and counts in a shared counter of its own.
 *
 * <h2>Concurrency</h2>
 * The holder reads its own last write plainly and publishes with a release write; {@link #sum} and
 * {@link #max} read with acquire, so a reader that sees a count also sees what happened before it on
 * the counting thread. A slot passes from one thread to the next under {@link WorkerThread}'s lock,
 * so the next holder reads the last one's writes. Values only grow (sums) or only rise (maxima), so
 * a reading is at least what the value was when the reading began: every tally created before then
 * is in the published array the reader scans, and one created later was 0 then.
 *
 * <p>Layout: a padded array ({@link CacheLines}), value {@code v} at {@code paddedIndex(v)} with a
 * cache line of padding on either side: the garbage collector may place any object next to a tally, and a
 * neighbour that another thread writes would otherwise cost a cache miss per count, in some runs and
 * not in others (docs/benchmarks.md, "slow and fast modes").
 */
public final class WorkerTallies {

    private static final VarHandle TALLY = MethodHandles.arrayElementVarHandle(long[].class);

    private final int length;
    /** Tallies by slot; grown (copied) under this object's lock, published by the volatile write. */
    private volatile long[][] tallies = new long[0][];

    /** Tallies of {@code values} longs each. */
    public WorkerTallies(int values) {
        this.length = CacheLines.paddedLength(values);
    }

    /** The tally of {@code slot} (created on first use), or null for {@link WorkerThread#NO_SLOT}. */
    public long[] of(int slot) {
        if (slot == WorkerThread.NO_SLOT) {
            return null;
        }
        long[][] all = tallies;
        long[] tally;
        if (slot < all.length && (tally = all[slot]) != null) {
            return tally;
        }
        return create(slot);
    }

    private synchronized long[] create(int slot) {
        long[][] all = tallies;
        all = slot >= all.length ? Arrays.copyOf(all, Math.max(slot + 1, 2 * all.length)) : all.clone();
        if (all[slot] == null) {
            all[slot] = new long[length];
        }
        tallies = all;
        return all[slot];
    }

    /** Adds to value {@code v} of the caller's own tally (only the slot's holder may call this). */
    public static void add(long[] tally, int v, long delta) {
        TALLY.setRelease(tally, CacheLines.paddedIndex(v), tally[CacheLines.paddedIndex(v)] + delta);
    }

    /** Raises value {@code v} of the caller's own tally to {@code value} if it is lower. */
    static void max(long[] tally, int v, long value) {
        if (value > tally[CacheLines.paddedIndex(v)]) {
            TALLY.setRelease(tally, CacheLines.paddedIndex(v), value);
        }
    }

    /** The sum of value {@code v} over all tallies: a moment-old reading while workers count. */
    public long sum(int v) {
        long total = 0;
        for (long[] tally : tallies) {
            if (tally != null) {
                total += (long) TALLY.getAcquire(tally, CacheLines.paddedIndex(v));
            }
        }
        return total;
    }

    /** The largest value {@code v} of all tallies (0 without any). */
    long max(int v) {
        long max = 0;
        for (long[] tally : tallies) {
            if (tally != null) {
                max = Math.max(max, (long) TALLY.getAcquire(tally, CacheLines.paddedIndex(v)));
            }
        }
        return max;
    }
}
