package io.appbackplane.internal;

import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Lincheck tests of {@link KeyTable}: {@code get}, {@code putIfAbsent}, {@code remove} and {@code
 * size} are linearizable. All four keys fall into one segment and share first slots in pairs, so a
 * scenario probes past other keys and tombstones, and rebuilds the table (a table of 8 slots takes
 * 5 used slots, tombstones included) while lookups without a lock run. Each key has one value object,
 * so that the identity-based {@code remove} has a deterministic sequential meaning.
 */
public class KeyTableLincheckTest {

    record Entry(Key key) {}

    record Key(int id) {
        @Override
        public int hashCode() {
            return (id / 2) << 20; // low bits 0: one segment; pairs share a hash, so a first slot
        }
    }

    static final Entry[] VALUES = new Entry[4];

    static {
        for (int i = 0; i < VALUES.length; i++) {
            VALUES[i] = new Entry(new Key(i));
        }
    }

    @Param(name = "key", gen = IntGen.class, conf = "0:3")
    public static class Table {
        private final KeyTable<Entry> table = new KeyTable<>(Entry::key);

        public Table() {}

        @Operation
        public boolean get(@Param(name = "key") int key) {
            return table.get(new Key(key)) != null;
        }

        @Operation
        public boolean put(@Param(name = "key") int key) {
            return table.putIfAbsent(VALUES[key]) == null;
        }

        @Operation
        public boolean remove(@Param(name = "key") int key) {
            return table.remove(VALUES[key]);
        }

        @Operation
        public int size() {
            return table.size();
        }
    }

    /** The sequential specification: a map of each key's one value. */
    public static class Model {
        private final java.util.Map<Integer, Entry> map = new java.util.HashMap<>();

        public Model() {}

        public boolean get(int key) {
            return map.containsKey(key);
        }

        public boolean put(int key) {
            return map.putIfAbsent(key, VALUES[key]) == null;
        }

        public boolean remove(int key) {
            return map.remove(key) != null;
        }

        public int size() {
            return map.size();
        }
    }

    @Test
    public void stress_isLinearizable() {
        LincheckScenarios.stress(2, 300).actorsPerThread(4).sequentialSpecification(Model.class).check(Table.class);
    }

    @Test
    public void modelChecking_isLinearizable() {
        LincheckScenarios.modelChecking(3, 300).actorsPerThread(4).actorsBefore(4).sequentialSpecification(Model.class).check(Table.class);
    }

    @Test
    @Tag("stress")
    public void longRun() {
        LincheckScenarios.stress(10, 2_000).actorsPerThread(4).sequentialSpecification(Model.class).check(Table.class);
        LincheckScenarios.modelChecking(10, 2_000).actorsPerThread(4).actorsBefore(4).sequentialSpecification(Model.class).check(Table.class);
    }
}
