package io.appbackplane.internal.base;

/**
 * The padding rule of this package, stated once: a value that threads write on every request or
 * action has a cache line ({@value #BYTES} bytes) that no value written by other threads shares.
 *
 * <p>Arrays follow it by index, with the geometry below: a padded array is its values between a
 * line of padding on either side ({@link #paddedLength}, value i at {@link #paddedIndex}(i)), since
 * the garbage collector may place any object next to the array, and values written by different
 * threads are a line apart ({@link #LONGS_PER_LINE} longs, {@link #INTS_PER_LINE} ints). So do
 * {@link StripedCounter} (a stripe per line), {@link WorkerTallies} (a worker's tally, for
 * {@link ActionCounters}: one line of values, then the histogram; for {@link AdmissionCounter}: its
 * finishes) and, a line or two per priority ({@link #stridedIndex}), {@link ReadyQueues} and {@link
 * QuotaLedger}. Objects written per action by one worker follow it
 * by their fields instead: they extend {@link WorkerLocalPadding}.
 *
 * <p>The geometry is that of x86-64 and of most AArch64 cores; it relies on HotSpot's array layout
 * (elements contiguous after the header), not on a language guarantee.
 */
public final class CacheLines {

    /** Bytes per cache line. */
    static final int BYTES = 64;
    /** Longs per cache line: the distance between two padded longs that different threads write. */
    public static final int LONGS_PER_LINE = BYTES / Long.BYTES;
    /** Ints per cache line: the distance between two padded ints that different threads write. */
    public static final int INTS_PER_LINE = BYTES / Integer.BYTES;

    private CacheLines() {
    }

    /** The index of value {@code i} of a padded long array: after the leading line of padding. */
    static int paddedIndex(int i) {
        return LONGS_PER_LINE + i;
    }

    /** The length of a padded long array of {@code values} longs: a line of padding on either side. */
    static int paddedLength(int values) {
        return values + 2 * LONGS_PER_LINE;
    }

    /**
     * The index of slot {@code i} of a strided array, {@code stride} elements (at least a line) per
     * slot: a stride of padding before slot 0, since the collector may place any object right
     * before the array.
     */
    public static int stridedIndex(int i, int stride) {
        return (i + 1) * stride;
    }

    /** The length of a strided array of {@code slots} slots: the last one has a stride minus one element after it. */
    public static int stridedLength(int slots, int stride) {
        return (slots + 1) * stride;
    }
}
