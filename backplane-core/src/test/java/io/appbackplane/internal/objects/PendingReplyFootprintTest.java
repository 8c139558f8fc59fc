package io.appbackplane.internal.objects;

import static org.assertj.core.api.Assertions.assertThat;

import io.appbackplane.ReplyHandler;
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
        AllocatedBytes.requireCounting();
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

    private static long bytesEach(Supplier<Object> make) {
        return AllocatedBytes.each(make, RECORDS);
    }

    /** The yardstick: exactly three reference fields. */
    @SuppressWarnings("unused")
    private static final class ThreeReferences {
        private Object first;
        private Object second;
        private Object third;
    }
}
