package io.appbackplane.internal.objects;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.function.Supplier;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every key a component has seen recently and every waiting conversation holds one {@link
 * WorkObject}, so its size is paid per key: a keyed object is six references (component, key, the
 * ready entry or awaited reply, the FIFO's tail, the front, the prefetched action) and three ints
 * (state word, queue length, most urgent priority with its count). A pool's member adds its pool
 * and its index there. Sizes are compared with objects of exactly those fields allocated the
 * same way, so the test holds under any object layout (compressed references or not, any header
 * size); allocated bytes come from the thread's own allocation counter, which is exact.
 */
class WorkObjectFootprintTest {

    private static final int OBJECTS = 20_000;

    @BeforeAll
    static void allocationCounterIsThere() {
        AllocatedBytes.requireCounting();
    }

    @Test
    void aKeyedObjectIsSixReferencesAndThreeInts() {
        long object = bytesEach(() -> new WorkObject(null, "key"));
        long yardstick = bytesEach(SixReferencesThreeInts::new);

        assertThat(object)
                .as("bytes of a keyed WorkObject vs an object of six references and three ints (%d)", yardstick)
                .isEqualTo(yardstick);
    }

    @Test
    void aPoolsMemberAddsItsPoolAndIndex() {
        long object = bytesEach(() -> new PooledWorkObject(null, "pool#0"));
        long yardstick = bytesEach(SevenReferencesFourInts::new);

        assertThat(object)
                .as("bytes of a pool's WorkObject vs an object of seven references and four ints (%d)", yardstick)
                .isEqualTo(yardstick);
    }

    private static long bytesEach(Supplier<Object> make) {
        return AllocatedBytes.each(make, OBJECTS);
    }

    /** The keyed object's yardstick. */
    @SuppressWarnings("unused")
    private static class SixReferencesThreeInts {
        private Object r1;
        private Object r2;
        private Object r3;
        private Object r4;
        private Object r5;
        private Object r6;
        private int i1;
        private int i2;
        private int i3;
    }

    /** The pool member's yardstick. */
    @SuppressWarnings("unused")
    private static final class SevenReferencesFourInts extends SixReferencesThreeInts {
        private Object r7;
        private int i4;
    }
}
