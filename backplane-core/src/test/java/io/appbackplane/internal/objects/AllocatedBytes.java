package io.appbackplane.internal.objects;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.util.function.Supplier;

/**
 * Bytes the current thread allocates per object, from its own allocation counter (exact: it counts
 * every byte the thread allocates), for tests that pin an object's size against a yardstick class.
 */
final class AllocatedBytes {

    private AllocatedBytes() {}

    /** Asserts that this JVM counts allocated bytes per thread, and turns the counting on. */
    static void requireCounting() {
        assertThat(counter().isThreadAllocatedMemorySupported())
                .as("this JVM's ThreadMXBean must count allocated bytes (HotSpot does)")
                .isTrue();
        counter().setThreadAllocatedMemoryEnabled(true);
    }

    /**
     * Bytes allocated per object made by {@code make}, {@code count} objects kept alive in an array:
     * the least of a few rounds, as a round's first calls may load classes or resolve call sites
     * (allocations that are not the object's).
     */
    static long each(Supplier<Object> make, int count) {
        long threadId = Thread.currentThread().getId();
        long least = Long.MAX_VALUE;
        for (int round = 0; round < 5; round++) {
            Object[] kept = new Object[count];
            long before = counter().getThreadAllocatedBytes(threadId);
            for (int i = 0; i < count; i++) {
                kept[i] = make.get();
            }
            long after = counter().getThreadAllocatedBytes(threadId);
            assertThat(kept[count - 1]).isNotNull();
            least = Math.min(least, Math.round((after - before) / (double) count));
        }
        return least;
    }

    private static com.sun.management.ThreadMXBean counter() {
        return (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    }
}
