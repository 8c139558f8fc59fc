package io.appbackplane.internal.objects;

import static org.assertj.core.api.Assertions.assertThat;

import io.appbackplane.ReplyHandler;
import java.lang.management.ManagementFactory;
import java.util.function.Supplier;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A waiting conversation keeps one {@link PendingReply} for as long as it waits, so the record's
 * size is paid once per waiting object: an untraced, untimed wait record is three references
 * (object, request, handler) and nothing more. Sizes are compared with an object of exactly three
 * reference fields allocated the same way, so the test holds under any object layout (compressed
 * references or not, any header size). Allocated bytes come from the thread's own allocation
 * counter, which counts every byte the thread allocates, so the comparison is exact.
 */
class PendingReplyFootprintTest {

    private static final int RECORDS = 20_000;
    private static final ReplyHandler<Object, Object> HANDLER = (context, value, failure) -> value;

    @BeforeAll
    static void allocationCounterIsThere() {
        assertThat(counter().isThreadAllocatedMemorySupported())
                .as("this JVM's ThreadMXBean must count allocated bytes (HotSpot does)")
                .isTrue();
        counter().setThreadAllocatedMemoryEnabled(true);
    }

    @Test
    void anUntracedWaitRecordIsThreeReferences() {
        long record = bytesEach(() -> PendingReply.create(null, null, HANDLER, false, null));
        long threeReferences = bytesEach(ThreeReferences::new);

        assertThat(record)
                .as("bytes of an untraced PendingReply without a timeout vs an object of three references (%d)",
                        threeReferences)
                .isEqualTo(threeReferences);
    }

    /**
     * Bytes the current thread allocates per object made by {@code make}, objects kept alive in an
     * array: the least of a few rounds, as a round's first calls may load classes or resolve call
     * sites (allocations that are not the object's).
     */
    private static long bytesEach(Supplier<Object> make) {
        long threadId = Thread.currentThread().getId();
        long least = Long.MAX_VALUE;
        for (int round = 0; round < 5; round++) {
            Object[] kept = new Object[RECORDS];
            long before = counter().getThreadAllocatedBytes(threadId);
            for (int i = 0; i < RECORDS; i++) {
                kept[i] = make.get();
            }
            long after = counter().getThreadAllocatedBytes(threadId);
            assertThat(kept[RECORDS - 1]).isNotNull();
            least = Math.min(least, Math.round((after - before) / (double) RECORDS));
        }
        return least;
    }

    private static com.sun.management.ThreadMXBean counter() {
        return (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    }

    /** The yardstick: exactly three reference fields. */
    @SuppressWarnings("unused")
    private static final class ThreeReferences {
        private Object first;
        private Object second;
        private Object third;
    }
}
