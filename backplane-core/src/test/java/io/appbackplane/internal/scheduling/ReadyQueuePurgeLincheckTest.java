package io.appbackplane.internal.scheduling;

import io.appbackplane.internal.LincheckScenarios;
import io.appbackplane.internal.objects.ReadyEntry;
import io.appbackplane.internal.objects.WorkObject;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Lincheck tests of {@link ReadyQueue#purgeDeadHead} racing pushes and polls: dead entries (stale
 * ones, left behind when an object's priority rises or its work is cancelled) are removed from the head without ever losing or reordering a live
 * entry. The sequential specification is a FIFO of the live entries; dead ones are invisible. A
 * dead entry is pushed and then purged, as {@code Scheduler.push} does with an entry killed before
 * its push; {@link #pollLive} skips dead entries, as selection does.
 */
public class ReadyQueuePurgeLincheckTest {

    private static final WorkObject OBJECT = new WorkObject(null, "live");

    private final ReadyQueue queue = new ReadyQueue();

    public ReadyQueuePurgeLincheckTest() {}

    @Operation
    public void pushLive(@Param(gen = IntGen.class, conf = "0:9") int tag) {
        queue.push(new ReadyEntry(OBJECT, tag));
    }

    @Operation
    public void pushDead(@Param(gen = IntGen.class, conf = "0:9") int tag) {
        ReadyEntry entry = new ReadyEntry(OBJECT, tag);
        entry.kill();
        queue.push(entry);
        queue.purgeDeadHead();
    }

    @Operation
    public void purge() {
        queue.purgeDeadHead();
    }

    /** The oldest live entry's tag, or -1 if there is none. */
    @Operation
    public int pollLive() {
        while (true) {
            ReadyEntry entry = queue.poll();
            if (entry == null) {
                return -1;
            }
            if (entry.object != null) {
                return entry.priority;
            }
        }
    }

    @Test
    public void stress_purgeKeepsLiveFifo() {
        LincheckScenarios.quick(ReadyQueueLincheckTest.stress(1)).check(ReadyQueuePurgeLincheckTest.class);
    }

    @Test
    public void modelChecking_purgeKeepsLiveFifo() {
        LincheckScenarios.quick(ReadyQueueLincheckTest.modelChecking(1)).check(ReadyQueuePurgeLincheckTest.class);
    }

    @Test
    @Tag("stress")
    public void longRun() {
        ReadyQueueLincheckTest.stress(10).check(ReadyQueuePurgeLincheckTest.class);
        ReadyQueueLincheckTest.modelChecking(10).check(ReadyQueuePurgeLincheckTest.class);
    }
}
