package io.appbackplane.internal;

/**
 * The packing of a {@link WorkObject}'s state word: the state (low 3 bits: {@link WorkObject#IDLE}
 * .. {@link WorkObject#RELEASED}), the abandoned flag (bit 3, set by the shutdown sweep: work offered
 * afterwards fails at once) and the number of pins (handles and pools holding the object; the bits
 * above). One int instead of three fields keeps the object at 64 bytes (docs/benchmarks.md, W4).
 *
 * <p>Pure functions of the word: the word itself is read and written under the object's monitor.
 * Invariant: {@code word = state | (abandoned ? ABANDONED : 0) | pins * PIN}, {@code pins >= 0}.
 */
final class ObjectStateWord {

    private static final int STATE_BITS = 0b111;
    /** The abandoned flag. */
    static final int ABANDONED = 1 << 3;
    /** One pin: add it to pin, subtract it to unpin. */
    static final int PIN = 1 << 4;

    private ObjectStateWord() {}

    static int state(int word) {
        return word & STATE_BITS;
    }

    /** {@code word} with its state replaced by {@code state}, keeping the flag and the pins. */
    static int withState(int word, int state) {
        return (word & ~STATE_BITS) | state;
    }

    static int pins(int word) {
        return word >>> 4;
    }

    static boolean isAbandoned(int word) {
        return (word & ABANDONED) != 0;
    }
}
