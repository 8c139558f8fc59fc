package io.appbackplane.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** {@link KeyTable}: map behaviour, its sizing rules, and lookups racing rebuilds on real threads. */
class KeyTableTest {

    /** A value that holds its key, as a {@code WorkObject} does. */
    record Entry(Object key) {}

    /** A key with a chosen hash code, to force segments, probe collisions and tombstones. */
    record Key(int id, int hash) {
        @Override
        public int hashCode() {
            return hash;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && k.id == id;
        }
    }

    private final KeyTable<Entry> table = new KeyTable<>(Entry::key);

    @Test
    void putGetRemove_behaveAsAMapOfValuesByTheirKey() {
        Entry a = new Entry("a");
        assertThat(table.putIfAbsent(a)).isNull();
        Entry otherA = new Entry("a");
        assertThat(table.putIfAbsent(otherA)).as("the key has a value").isSameAs(a);
        assertThat(table.get("a")).isSameAs(a);
        assertThat(table.get("b")).isNull();
        assertThat(table.remove(otherA)).as("not this value").isFalse();
        assertThat(table.remove(a)).isTrue();
        assertThat(table.remove(a)).isFalse();
        assertThat(table.get("a")).isNull();
        assertThat(table.size()).isZero();
    }

    @Test
    void keysWithOneHash_probePastEachOtherAndPastTombstones() {
        List<Entry> entries = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            Entry e = new Entry(new Key(i, 7)); // one segment, one first slot: a single probe chain
            entries.add(e);
            assertThat(table.putIfAbsent(e)).isNull();
        }
        for (int i = 0; i < 40; i += 2) {
            assertThat(table.remove(entries.get(i))).isTrue();
        }
        for (int i = 0; i < 40; i++) {
            assertThat(table.get(new Key(i, 7))).as("key %d", i).isSameAs(i % 2 == 0 ? null : entries.get(i));
        }
        assertThat(table.size()).isEqualTo(20);
        assertThat(table.values()).containsExactlyInAnyOrderElementsOf(entries.subList(0, 40).stream()
                .filter(e -> ((Key) e.key()).id() % 2 == 1).toList());
    }

    @Test
    void churnOfShortLivedKeys_keepsTheTableSmall() {
        int segments = KeyTable.SEGMENTS;
        for (int i = 0; i < 1_000_000; i++) {
            Entry e = new Entry("k" + i);
            table.putIfAbsent(e);
            if (i >= 100) {
                assertThat(table.remove(table.get("k" + (i - 100)))).isTrue();
            }
        }
        assertThat(table.size()).isEqualTo(100);
        // Tombstones are dropped at each rebuild and empty tables shrink: a few slots per live key.
        assertThat(table.capacity()).isLessThanOrEqualTo(Math.max(8 * segments, 8 * 100));
        for (int i = 999_900; i < 1_000_000; i++) {
            assertThat(table.get("k" + i)).isNotNull();
        }
    }

    @Test
    void growingToManyKeys_usesAtMostFourSlotsPerKeyAfterGrowth() {
        for (int i = 0; i < 100_000; i++) {
            table.putIfAbsent(new Entry(i));
        }
        assertThat(table.size()).isEqualTo(100_000);
        assertThat(table.capacity()).isLessThanOrEqualTo(4 * 100_000);
        for (int i = 0; i < 100_000; i++) {
            assertThat(table.get(i)).as("key %d", i).isNotNull();
        }
    }

    /**
     * Keys that stay in the table are never missed by lookups without a lock while two threads put
     * and remove other keys of the same segments, so that the tables are rebuilt (grown, shrunk,
     * cleared of tombstones) thousands of times under the readers.
     */
    @Test
    void lookups_neverMissAKeyThatStaysWhileOtherKeysChurnAndTablesAreRebuilt() throws Exception {
        int stayers = 64;
        List<Entry> staying = new ArrayList<>();
        for (int i = 0; i < stayers; i++) {
            Entry e = new Entry(new Key(-1 - i, i)); // spread over every segment
            staying.add(e);
            table.putIfAbsent(e);
        }
        AtomicBoolean churning = new AtomicBoolean(true);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        CountDownLatch done = new CountDownLatch(3);
        List<Thread> threads = new ArrayList<>();
        for (int w = 0; w < 2; w++) {
            int writer = w;
            threads.add(new Thread(() -> {
                try {
                    for (int i = 0; i < 300_000; i++) {
                        List<Entry> batch = new ArrayList<>();
                        for (int j = 0; j < 20; j++) {
                            Entry e = new Entry(new Key(writer * 1_000_000_000 + i * 20 + j, i * 20 + j));
                            batch.add(e);
                            table.putIfAbsent(e);
                        }
                        for (Entry e : batch) {
                            if (!table.remove(e)) {
                                throw new AssertionError("a value put by this thread was not removed: " + e);
                            }
                        }
                    }
                } catch (Throwable t) {
                    failure.compareAndSet(null, t);
                } finally {
                    done.countDown();
                }
            }, "churn-" + w));
        }
        threads.add(new Thread(() -> {
            try {
                long lookups = 0;
                while (churning.get() || lookups < 100_000) {
                    Entry e = staying.get((int) (lookups++ % stayers));
                    if (table.get(e.key()) != e) {
                        throw new AssertionError("a staying key was missed: " + e.key());
                    }
                }
            } catch (Throwable t) {
                failure.compareAndSet(null, t);
            } finally {
                done.countDown();
            }
        }, "reader"));
        threads.forEach(Thread::start);
        for (int i = 0; i < 2; i++) {
            threads.get(i).join(TimeUnit.SECONDS.toMillis(60));
        }
        churning.set(false);
        assertThat(done.await(60, TimeUnit.SECONDS)).isTrue();
        assertThat(failure.get()).isNull();
        assertThat(table.size()).isEqualTo(stayers);
        assertThat(table.values()).containsExactlyInAnyOrderElementsOf(staying);
    }
}
