package io.appbackplane.internal.objects;

/**
 * The packing of a {@link WorkObject}'s state word: the state (low 3 bits: {@link WorkObject#IDLE}
 * .. {@link WorkObject#RELEASED}), the abandoned flag (bit 3, set by the shutdown sweep: work offered
 * afterwards fails at once), the two flags of the idle-object sweep (bits 4 and 5, {@link
 * IdleObjectSweep}) and the number of pins (handles and pools holding the object; the bits above).
 * One int instead of five fields keeps the object at 64 bytes (docs/benchmarks.md, W4).
 *
 * <p>Pure functions of the word: the word itself is read and written under the object's monitor.
 * Invariant: {@code word = state | flags | pins * PIN}, {@code pins >= 0}.
 */
final class ObjectStateWord {

    private static final int STATE_BITS = 0b111;
    /** The abandoned flag. */
    static final int ABANDONED = 1 << 3;
    /** On its component's idle list: the sweep will visit it (set by whoever lists it, cleared by the sweep). */
    static final int LISTED = 1 << 4;
    /** Found IDLE by a sweep and not used since: the next sweep that finds it so releases it. */
    static final int SWEPT = 1 << 5;
    /** One pin: add it to pin, subtract it to unpin. */
    static final int PIN = 1 << 6;

    private ObjectStateWord() {}

    static int state(int word) {
        return word & STATE_BITS;
    }

    /**
     * {@code word} with its state replaced by {@code state}, keeping the flags and the pins but
     * {@link #SWEPT}: any change of state is use, so a sweep must find the object idle again.
     */
    static int withState(int word, int state) {
        return (word & ~(STATE_BITS | SWEPT)) | state;
    }

    static int pins(int word) {
        return word >>> 6;
    }

    static boolean isAbandoned(int word) {
        return (word & ABANDONED) != 0;
    }

    static boolean isListed(int word) {
        return (word & LISTED) != 0;
    }

    static boolean isSwept(int word) {
        return (word & SWEPT) != 0;
    }
}
