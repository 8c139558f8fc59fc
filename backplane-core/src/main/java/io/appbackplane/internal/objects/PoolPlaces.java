package io.appbackplane.internal.objects;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Which members of one pool are idle, and how many places are taken ({@link PooledObjects}): the
 * members claimed and not waiting for a reply. Lock-free: a lock here would be taken by a submitter
 * and a member at once on every hand-over, and a lock holder preempted on a busy machine would hold
 * the other up for a time slice.
 *
 * <p>{@code counts} packs the number of idle members (high 32 bits) and the places taken (low 32
 * bits) in one word, so that a claim checks both and takes one of each in one CAS. {@code bits} says
 * which members are idle. Invariants: {@code idle(counts) <= |bits|} (a member's bit is set before
 * it is counted idle, and a claim takes the count before it takes a bit, so a claim that took the
 * count always finds a bit); {@code taken(counts) >= 0}; at rest {@code idle(counts) = |bits|}.
 * Every change is a CAS or an atomic add on {@code counts} (a full fence), which the pool's
 * hand-over relies on: a member that frees its place writes {@code counts} and then reads the
 * backlog.
 */
final class PoolPlaces {

    private static final long ONE_IDLE = 1L << 32;

    private final PooledWorkObject[] members;
    private final AtomicLong counts;
    private final AtomicLongArray bits;

    /** All {@code members} idle, no place taken. */
    PoolPlaces(PooledWorkObject[] members) {
        this.members = members;
        this.counts = new AtomicLong(members.length * ONE_IDLE);
        this.bits = new AtomicLongArray((members.length + 63) / 64);
        for (int i = 0; i < members.length; i++) {
            setBit(i);
        }
    }

    /** Claims an idle member if fewer than {@code cap} places are taken: one place taken, the member no longer idle; else null. */
    PooledWorkObject claim(int cap) {
        long c = counts.get();
        while (true) {
            if (idle(c) == 0 || taken(c) >= cap) {
                return null;
            }
            long next = c - ONE_IDLE + 1;
            long witness = counts.compareAndExchange(c, next);
            if (witness == c) {
                return members[takeBit()];
            }
            c = witness;
        }
    }

    /** Whether a {@link #claim} could succeed now (a moment-old answer: one read, no write). */
    boolean mayClaim(int cap) {
        long c = counts.get();
        return idle(c) > 0 && taken(c) < cap;
    }

    /** {@code member} is idle again; {@code heldPlace}: it also gives back its place. */
    void idled(PooledWorkObject member, boolean heldPlace) {
        setBit(member.poolIndex()); // before it is counted: a claim that counts it finds its bit
        counts.getAndAdd(heldPlace ? ONE_IDLE - 1 : ONE_IDLE);
    }

    /** A claimed member gives its place back without going idle (it waits for a reply). */
    void placeFreed() {
        counts.getAndAdd(-1);
    }

    /** A waiting member resumed: it takes a place again, over the cap if need be. */
    void placeRetaken() {
        counts.getAndAdd(1);
    }

    int idleMembers() {
        return idle(counts.get());
    }

    int placesTaken() {
        return taken(counts.get());
    }

    /** The idle bits set, for tests (at rest it equals {@link #idleMembers()}). */
    int idleBits() {
        int n = 0;
        for (int i = 0; i < bits.length(); i++) {
            n += Long.bitCount(bits.get(i));
        }
        return n;
    }

    /** Clears one set bit and returns its member's index; the caller took an idle count, so one is set (or about to be). */
    private int takeBit() {
        while (true) {
            for (int w = 0; w < bits.length(); w++) {
                long word = bits.get(w);
                while (word != 0) {
                    long lowest = word & -word;
                    long witness = bits.compareAndExchange(w, word, word & ~lowest);
                    if (witness == word) {
                        return (w << 6) + Long.numberOfTrailingZeros(lowest);
                    }
                    word = witness;
                }
            }
            Thread.onSpinWait(); // lost each race to a claim that took the bit: as many bits are left as claims still looking
        }
    }

    private void setBit(int index) {
        long bit = 1L << (index & 63);
        bits.getAndUpdate(index >>> 6, word -> word | bit);
    }

    private static int idle(long c) {
        return (int) (c >>> 32);
    }

    private static int taken(long c) {
        return (int) c;
    }
}
