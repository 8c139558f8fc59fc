package io.appbackplane.internal.base;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * A counter that submitting threads add to on every request, each stripe on a cache line of its
 * own. A {@link java.util.concurrent.atomic.LongAdder} would do, except for where its uncontended
 * {@code base} field lives: next to whatever the allocator or the garbage collector puts beside
 * the adder, which may be a line that workers write for every action (a tally, another counter).
 * Then each submit pays a cache miss, in some JVM runs and not in others (the layout changes with
 * every run and every GC). Here every stripe is padded on both sides inside one array, so no
 * other object shares its line whatever the layout ({@link CacheLines}: a line per stripe, a line
 * of padding before the first and after the last).
 *
 * <p>A thread adds to the stripe its identity hash picks, among as many stripes as the machine has
 * processors (rounded up to a power of two, at most 64; a {@code LongAdder} grows to that many
 * cells too): one submitting thread never contends; threads that share a stripe contend on its CAS,
 * as on a plain atomic counter, and unlike a {@code LongAdder} they stay together (no rehash).
 * {@link #sum} is a moment-old value while threads add, like {@code LongAdder.sum()}.
 */
public final class StripedCounter {

    private static final int LINE = CacheLines.LONGS_PER_LINE;
    private static final int STRIPES =
            Math.min(64, Integer.highestOneBit(Math.max(2, Runtime.getRuntime().availableProcessors()) * 2 - 1));

    /** Stripe i at {@code paddedIndex(LINE × i)}: a line each, between two lines of padding. */
    private final AtomicLongArray cells = new AtomicLongArray(CacheLines.paddedLength(LINE * STRIPES));

    public void increment() {
        cells.getAndIncrement(index());
    }

    public long sum() {
        long sum = 0;
        for (int i = 0; i < STRIPES; i++) {
            sum += cells.get(CacheLines.paddedIndex(LINE * i));
        }
        return sum;
    }

    private static int index() {
        int h = System.identityHashCode(Thread.currentThread());
        h ^= h >>> 16; // identity hashes may differ only in their high bits
        return CacheLines.paddedIndex(LINE * (h & (STRIPES - 1)));
    }
}
