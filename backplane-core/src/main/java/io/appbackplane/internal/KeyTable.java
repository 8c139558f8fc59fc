package io.appbackplane.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * A concurrent map from keys to values that hold their own key (a component's objects by key, DESIGN
 * rule 16), with no node per entry: an open-addressing table of the values themselves, with a
 * one-byte tag of each key's hash beside it. A {@link java.util.concurrent.ConcurrentHashMap} spends
 * a 32-byte node per entry on top of its table; here an entry costs its share of a table slot (a
 * reference and a tag byte, at most two-thirds of the slots used): about 11 bytes at 100,000 keys
 * instead of about 42, for every object and so for every conversation waiting for a reply (W4).
 *
 * <p>The keys are spread over {@value #SEGMENTS} segments, each with a table of a power-of-two size
 * probed linearly from the key's hash. Writers ({@link #putIfAbsent}, {@link #remove}) lock their
 * segment; readers ({@link #get}, {@link #values}, {@link #size}) take no lock.
 *
 * <h2>Invariants (each table; kept under its segment's lock)</h2>
 * <ul>
 *   <li>A slot goes from empty (null) to a value, and from a value to {@link #TOMBSTONE} and back
 *       to a value: it never empties again. So an entry never moves within a table, and every slot
 *       before it on its key's probe stays non-empty: a probe that meets an empty slot has passed
 *       every slot its key could be in.
 *   <li>A key has at most one value in the current table: an insert probes up to the first empty
 *       slot, and puts its value (into the first tombstone it passed, else into that empty slot)
 *       only if it met no value with an equal key. Reusing tombstones keeps a table of short-lived
 *       keys from filling with them, which would lengthen probes and force rebuilds.
 *   <li>The current table always has an empty slot: used slots (values and tombstones) stay at most
 *       two-thirds of its size; an insert that would pass that rebuilds the table first (from its
 *       values alone, which also drops the tombstones), and a remove that leaves it under one-eighth
 *       full shrinks it.
 *   <li>A table is never written after its segment published its replacement: a rebuild fills a new
 *       table and then publishes it, so a reader still holding the old one sees it frozen.
 *   <li>A slot's tag is written before its value, and the value with release semantics; a reader
 *       reads the value with acquire semantics and then the tag.
 * </ul>
 *
 * <p>As with {@code ConcurrentHashMap}, a {@link #get} that races a writer may miss a value being
 * put or return one being removed; callers decide under the value's own lock (a submitter that
 * finds a RELEASED object removes it and looks the key up again, see {@link KeyedObjects}).
 *
 * @param <V> the values; {@code keyOf} gives a value's key, which must not change
 */
final class KeyTable<V> {

    private static final int SEGMENT_BITS = 4;
    static final int SEGMENTS = 1 << SEGMENT_BITS;
    private static final int MIN_CAPACITY = 8;
    /** A removed value's slot: probes go past it, an insert of a key not in the table may reuse it. */
    private static final Object TOMBSTONE = new Object();
    private static final VarHandle SLOT = MethodHandles.arrayElementVarHandle(Object[].class);

    private final Function<? super V, ?> keyOf;
    private final Segment[] segments = new Segment[SEGMENTS];

    KeyTable(Function<? super V, ?> keyOf) {
        this.keyOf = keyOf;
        for (int i = 0; i < SEGMENTS; i++) {
            segments[i] = new Segment();
        }
    }

    /** The value for {@code key}, or null. */
    @SuppressWarnings("unchecked")
    V get(Object key) {
        int h = spread(key.hashCode());
        Table t = segments[h & (SEGMENTS - 1)].table;
        byte tag = tag(h);
        int mask = t.values.length - 1;
        for (int i = t.start(h); ; i = (i + 1) & mask) {
            Object v = SLOT.getAcquire(t.values, i);
            if (v == null) {
                return null; // an empty slot ends the probe (first invariant)
            }
            if (v != TOMBSTONE && t.tags[i] == tag && key.equals(keyOf.apply((V) v))) {
                return (V) v;
            }
        }
    }

    /** Puts {@code value} under its key unless the key has a value: then returns that one (and puts nothing). */
    V putIfAbsent(V value) {
        Object key = keyOf.apply(value);
        int h = spread(key.hashCode());
        Segment s = segments[h & (SEGMENTS - 1)];
        synchronized (s) {
            return s.putIfAbsent(key, h, value, keyOf);
        }
    }

    /** Removes {@code value} (this very value, under its key); false if it is not in the table. */
    boolean remove(V value) {
        Object key = keyOf.apply(value);
        int h = spread(key.hashCode());
        Segment s = segments[h & (SEGMENTS - 1)];
        synchronized (s) {
            Table t = s.table;
            int mask = t.values.length - 1;
            for (int i = t.start(h); ; i = (i + 1) & mask) {
                Object v = t.values[i];
                if (v == null) {
                    return false;
                }
                if (v == value) {
                    SLOT.setRelease(t.values, i, TOMBSTONE);
                    s.live--;
                    if (s.live < t.values.length / 8 && t.values.length > MIN_CAPACITY) {
                        s.rebuild(s.live, keyOf);
                    }
                    return true;
                }
            }
        }
    }

    /** Values in the table (a moment-old sum while writers work). */
    int size() {
        int n = 0;
        for (Segment s : segments) {
            n += s.live;
        }
        return n;
    }

    /**
     * The values, weakly consistent (as a {@code ConcurrentHashMap}'s iterators are): every value
     * in the table for the whole iteration is returned once; one put or removed meanwhile may be or
     * not. A copy, so the caller may remove values while it iterates.
     */
    @SuppressWarnings("unchecked")
    List<V> values() {
        List<V> values = new ArrayList<>();
        for (Segment s : segments) {
            Object[] slots = s.table.values;
            for (int i = 0; i < slots.length; i++) {
                Object v = SLOT.getAcquire(slots, i);
                if (v != null && v != TOMBSTONE) {
                    values.add((V) v);
                }
            }
        }
        return values;
    }

    /** Slots of every segment's table, for tests of the sizing rules. */
    int capacity() {
        int n = 0;
        for (Segment s : segments) {
            n += s.table.values.length;
        }
        return n;
    }

    /** Mixes the high bits into the low ones, which pick the segment and the tag. */
    private static int spread(int hashCode) {
        return hashCode ^ (hashCode >>> 16);
    }

    private static byte tag(int h) {
        return (byte) (h >>> SEGMENT_BITS);
    }

    /** One table: values and their tags, slot by slot. */
    private static final class Table {
        final Object[] values;
        final byte[] tags;
        /** {@code 32 − log2(size)}: the top bits of a Fibonacci hash pick a key's first slot. */
        private final int shift;

        Table(int capacity) {
            values = new Object[capacity];
            tags = new byte[capacity];
            shift = 32 - Integer.numberOfTrailingZeros(capacity);
        }

        int start(int h) {
            return (h * 0x9E3779B9) >>> shift;
        }

        /** Used slots allowed: two-thirds, so that probes stay short and an empty slot always remains. */
        int maxUsed() {
            return values.length * 2 / 3;
        }
    }

    /** A segment: its table and counts, written under its own lock. */
    private static final class Segment {
        volatile Table table = new Table(MIN_CAPACITY);
        /** Values in {@code table} (read without the lock by {@link #size}). */
        volatile int live;
        /** Slots of {@code table} that are not empty: values and tombstones. */
        int used;

        /**
         * Probes for {@code key} up to the first empty slot: returns its value if there is one;
         * otherwise puts {@code value} into the first tombstone on the way (reused: the key is in no
         * later slot), or else into the empty slot, rebuilding first if that would pass the limit.
         */
        @SuppressWarnings("unchecked")
        <V> V putIfAbsent(Object key, int h, V value, Function<? super V, ?> keyOf) {
            Table t = table;
            byte tag = tag(h);
            int mask = t.values.length - 1;
            int reusable = -1;
            int i = t.start(h);
            for (; ; i = (i + 1) & mask) {
                Object v = t.values[i];
                if (v == null) {
                    break;
                }
                if (v == TOMBSTONE) {
                    if (reusable < 0) {
                        reusable = i;
                    }
                } else if (t.tags[i] == tag && key.equals(keyOf.apply((V) v))) {
                    return (V) v;
                }
            }
            if (reusable >= 0) {
                i = reusable;
            } else if (used + 1 > t.maxUsed()) {
                rebuild(live + 1, keyOf);
                t = table;
                mask = t.values.length - 1;
                for (i = t.start(h); t.values[i] != null; i = (i + 1) & mask) {
                    // the first empty slot of the fresh table (it holds no tombstones)
                }
                used++;
            } else {
                used++;
            }
            t.tags[i] = tag;
            SLOT.setRelease(t.values, i, value); // after the tag: last invariant
            live++;
            return null;
        }

        /** Replaces the table by one for {@code needed} values (one-quarter to one-half full), with the values alone. */
        @SuppressWarnings("unchecked")
        <V> void rebuild(int needed, Function<? super V, ?> keyOf) {
            Table old = table;
            int capacity = Math.max(MIN_CAPACITY, Integer.highestOneBit(Math.max(1, 2 * needed - 1)) << 1);
            Table fresh = new Table(capacity);
            int mask = capacity - 1;
            int count = 0;
            for (Object v : old.values) {
                if (v != null && v != TOMBSTONE) {
                    int h = spread(keyOf.apply((V) v).hashCode());
                    int i = fresh.start(h);
                    while (fresh.values[i] != null) {
                        i = (i + 1) & mask;
                    }
                    fresh.tags[i] = tag(h);
                    fresh.values[i] = v;
                    count++;
                }
            }
            used = count;
            live = count;
            table = fresh; // the volatile write publishes the filled table; the old one is never written again
        }
    }
}
