package io.appbackplane.kafka;

import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.util.Base64;
import java.util.BitSet;

/**
 * The offsets of one partition that completed above its committed offset, in the form the commit's
 * metadata string carries them, so that the partition's next owner skips the records that already
 * ran instead of running them again (as Confluent's Parallel Consumer does).
 *
 * <p>Format: {@code bp1:} then {@code b} (a bitset: bit {@code i} set when offset {@code committed +
 * i} completed, {@link BitSet#toByteArray()} order) or {@code r} (run lengths, alternately not
 * completed and completed, from the committed offset, each an unsigned LEB128 varint), then the
 * bytes in URL-safe Base64 without padding. The encoder writes whichever is shorter. When neither
 * fits {@code maxLength} it writes the one that describes more offsets, cut to fit: offsets beyond
 * the cut are then not known to be completed, and run again after a hand-over (at least once holds;
 * only the saving is smaller). Metadata in any other form (an application's own) means nothing is
 * known to be completed.
 *
 * <p>Immutable; thread-safe.
 */
final class CompletedOffsets {

    static final String PREFIX = "bp1:";
    private static final char BITSET = 'b';
    private static final char RUNS = 'r';
    private static final int HEADER = PREFIX.length() + 1;

    static final CompletedOffsets NONE = new CompletedOffsets(0, new BitSet());

    /** The committed offset the bits are relative to. */
    private final long base;
    /** Bit {@code i}: offset {@code base + i} completed. */
    private final BitSet done;

    private CompletedOffsets(long base, BitSet done) {
        this.base = base;
        this.done = done;
    }

    /** Whether {@code offset} is known to have completed. */
    boolean contains(long offset) {
        long i = offset - base;
        return i >= 0 && i < Integer.MAX_VALUE && done.get((int) i);
    }

    boolean isEmpty() {
        return done.isEmpty();
    }

    /** How many offsets are known to have completed. */
    int count() {
        return done.cardinality();
    }

    /** Calls {@code action} with every offset known to have completed, in increasing order. */
    void forEach(java.util.function.LongConsumer action) {
        for (int i = done.nextSetBit(0); i >= 0; i = done.nextSetBit(i + 1)) {
            action.accept(base + i);
        }
    }

    /**
     * The metadata describing {@code done} (bit {@code i}: offset {@code base + i} completed), at
     * most {@code maxLength} characters; empty when nothing completed or nothing fits.
     */
    static String encode(BitSet done, int maxLength) {
        if (done.isEmpty() || maxLength <= HEADER) {
            return "";
        }
        int budget = (maxLength - HEADER) * 3 / 4; // bytes whose unpadded Base64 fits
        byte[] bits = done.toByteArray();
        int bitsCovered = bits.length * 8;
        if (bits.length > budget) {
            bits = Arrays.copyOf(bits, budget);
            bitsCovered = budget * 8;
        }
        Runs runs = Runs.of(done, budget);
        boolean bitsWhole = bits.length * 8 >= done.length();
        char kind;
        byte[] chosen;
        if (bitsWhole && runs.whole) {
            kind = runs.bytes.length < bits.length ? RUNS : BITSET;
        } else {
            kind = runs.covered > bitsCovered ? RUNS : BITSET;
        }
        chosen = kind == RUNS ? runs.bytes : bits;
        if (chosen.length == 0) {
            return "";
        }
        return PREFIX + kind + Base64.getUrlEncoder().withoutPadding().encodeToString(chosen);
    }

    /**
     * Reads metadata committed with offset {@code committed}.
     *
     * @return the completed offsets it names; {@link #NONE} for empty or foreign metadata
     * @throws IllegalArgumentException if it has this format's prefix but cannot be read
     */
    static CompletedOffsets decode(long committed, String metadata) {
        if (metadata == null || !metadata.startsWith(PREFIX) || metadata.length() <= HEADER) {
            return NONE;
        }
        char kind = metadata.charAt(PREFIX.length());
        byte[] bytes = Base64.getUrlDecoder().decode(metadata.substring(HEADER));
        BitSet done = switch (kind) {
            case BITSET -> BitSet.valueOf(bytes);
            case RUNS -> Runs.read(bytes);
            default -> throw new IllegalArgumentException("unknown completed-offsets encoding '" + kind + "'");
        };
        return new CompletedOffsets(committed, done);
    }

    /** Run-length form: alternating runs of not completed and completed offsets, as varints. */
    private record Runs(byte[] bytes, long covered, boolean whole) {

        /** The runs of {@code done}, as many as fit in {@code budget} bytes. */
        static Runs of(BitSet done, int budget) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            int position = 0;
            boolean completed = false;
            int end = done.length();
            while (position < end) {
                int next = completed ? done.nextClearBit(position) : done.nextSetBit(position);
                int length = next - position;
                if (out.size() + varintSize(length) > budget) {
                    return new Runs(out.toByteArray(), position, false);
                }
                writeVarint(out, length);
                position = next;
                completed = !completed;
            }
            return new Runs(out.toByteArray(), position, true);
        }

        static BitSet read(byte[] bytes) {
            BitSet done = new BitSet();
            int position = 0;
            boolean completed = false;
            int i = 0;
            while (i < bytes.length) {
                long length = 0;
                int shift = 0;
                byte b;
                do {
                    if (i >= bytes.length || shift > 28) {
                        throw new IllegalArgumentException("truncated or oversized run length at byte " + i);
                    }
                    b = bytes[i++];
                    length |= (long) (b & 0x7f) << shift;
                    shift += 7;
                } while ((b & 0x80) != 0);
                if (position + length > Integer.MAX_VALUE) {
                    throw new IllegalArgumentException("runs longer than " + Integer.MAX_VALUE + " offsets");
                }
                if (completed) {
                    done.set(position, (int) (position + length));
                }
                position += (int) length;
                completed = !completed;
            }
            return done;
        }

        private static int varintSize(int value) {
            int size = 1;
            while ((value >>>= 7) != 0) {
                size++;
            }
            return size;
        }

        private static void writeVarint(ByteArrayOutputStream out, int value) {
            while ((value & ~0x7f) != 0) {
                out.write((value & 0x7f) | 0x80);
                value >>>= 7;
            }
            out.write(value);
        }
    }
}
