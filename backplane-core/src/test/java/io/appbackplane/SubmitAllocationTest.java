package io.appbackplane;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.sun.management.HotSpotDiagnosticMXBean;
import com.sun.management.ThreadMXBean;
import java.lang.management.ManagementFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What one fire-and-forget submit allocates in the submitting thread: the request, its first
 * action's node and, when the object was idle, its ready entry. Counted with the JVM's per-thread
 * allocation counter, which is exact for the calling thread and independent of timing, over many
 * submits in step mode (no worker runs while the submits are counted). The sizes assume compressed
 * references and class pointers (the default below a 32 GiB heap); the test is skipped without them.
 */
class SubmitAllocationTest {

    private static final int KEYS = 1_000;
    private static final int ROUNDS = 20;
    private static final int PRIORITY = 6;

    /**
     * Bytes per submit to an idle object: the {@code Request} (32), the action node (32: action,
     * request, queue time, next; the priority is the request's and a trace lives only in a traced
     * node) and the {@code ReadyEntry} (24).
     */
    private static final double BYTES_PER_SUBMIT_TO_IDLE_OBJECT = 32 + 32 + 24;

    private Backplane backplane;

    @AfterEach
    void close() {
        if (backplane != null) {
            backplane.close();
        }
    }

    @Test
    void aSubmitToAnIdleObjectAllocatesOnlyItsRequestNodeAndReadyEntry() {
        assumeCompressedLayout();
        backplane = Backplane.builder("alloc").clock(new ManualClock()).stepMode().build();
        BackplaneComponent component = backplane.install(ComponentSpec.named("app"));
        Integer[] keys = new Integer[KEYS];
        for (int k = 0; k < KEYS; k++) {
            keys[k] = k + 1_000; // boxed here, outside the count
        }
        Action<Void> action = ctx -> null;
        ThreadMXBean threads = (ThreadMXBean) ManagementFactory.getThreadMXBean();
        // The first round creates every key's object (kept idle afterwards: the idle sweep's
        // retention is on the manual clock, which does not move), and warms the path up.
        submitRound(component, keys, action);
        backplane.stepper().runUntilIdle();

        long allocated = 0;
        for (int round = 0; round < ROUNDS; round++) {
            long before = threads.getCurrentThreadAllocatedBytes();
            submitRound(component, keys, action);
            allocated += threads.getCurrentThreadAllocatedBytes() - before;
            assertThat(backplane.stepper().runUntilIdle()).isEqualTo(KEYS);
        }

        double perSubmit = (double) allocated / (KEYS * ROUNDS);
        assertThat(perSubmit).as("bytes allocated per submit to an idle object").isLessThanOrEqualTo(BYTES_PER_SUBMIT_TO_IDLE_OBJECT + 1);
    }

    private static void submitRound(BackplaneComponent component, Integer[] keys, Action<Void> action) {
        for (Integer key : keys) {
            component.execute(key, PRIORITY, action);
        }
    }

    private static void assumeCompressedLayout() {
        HotSpotDiagnosticMXBean hotSpot = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
        assumeTrue(hotSpot != null && "true".equals(hotSpot.getVMOption("UseCompressedOops").getValue())
                && "true".equals(hotSpot.getVMOption("UseCompressedClassPointers").getValue()),
                "object sizes here assume compressed references and class pointers (HotSpot's default below a 32 GiB heap)");
    }
}
