package io.appbackplane.internal.scheduling;

import io.appbackplane.internal.LincheckScenarios;
import io.appbackplane.internal.objects.ReadyEntry;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.jetbrains.lincheck.datastructures.StressOptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Lincheck tests of {@link ReadyQueue}, the intrusive lock-free FIFO behind each priority's ready
 * queue: concurrent pushes, polls and emptiness checks are linearizable against a sequential run
 * (a FIFO queue). Each push links a new entry, as the scheduler does (an entry is pushed once).
 */
public class ReadyQueueLincheckTest {

    private final ReadyQueue queue = new ReadyQueue();

    public ReadyQueueLincheckTest() {}

    @Operation
    public void push(@Param(gen = IntGen.class, conf = "0:9") int tag) {
        queue.push(new ReadyEntry(null, tag));
    }

    /** The polled entry's tag, or -1 if the queue was empty. */
    @Operation
    public int poll() {
        ReadyEntry entry = queue.poll();
        return entry == null ? -1 : entry.priority;
    }

    @Operation
    public boolean isEmpty() {
        return queue.isEmpty();
    }

    @Test
    public void stress_linearizableFifo() {
        LincheckScenarios.quick(stress(1)).check(ReadyQueueLincheckTest.class);
    }

    @Test
    public void modelChecking_linearizableFifo() {
        LincheckScenarios.quick(modelChecking(1)).check(ReadyQueueLincheckTest.class);
    }

    @Test
    @Tag("stress")
    public void longRun() {
        stress(10).check(ReadyQueueLincheckTest.class);
        modelChecking(10).check(ReadyQueueLincheckTest.class);
    }

    static StressOptions stress(int scale) {
        return LincheckScenarios.stress(scale, 500);
    }

    static ModelCheckingOptions modelChecking(int scale) {
        return LincheckScenarios.modelChecking(scale, 300);
    }
}
