package io.appbackplane.internal.scheduling;

import static org.assertj.core.api.Assertions.assertThat;

import io.appbackplane.ComponentSpec;
import io.appbackplane.CpuLimit;
import io.appbackplane.internal.components.DefaultComponent;
import io.appbackplane.internal.objects.ActionNode;
import io.appbackplane.internal.objects.NothingTaken;
import io.appbackplane.internal.objects.ReadyEntry;
import io.appbackplane.internal.objects.Request;
import io.appbackplane.internal.objects.Selection;
import io.appbackplane.internal.objects.WorkObject;
import io.appbackplane.internal.objects.WorkObjectLincheckTest;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * An idle worker gives its processor up to a submitter preempted between counting its object READY
 * ({@code WorkObject.enqueue}, under the monitor: the depth counter) and pushing its entry (issue
 * 29, defect 4). Meanwhile {@code select} sees depth > 0 but polls nothing and answers
 * NOTHING_READY, and a spin check that reads the depth would send the worker straight back to
 * select: select, one spin hint, select, ..., neither yielding nor parking, so the submitter waited
 * for the OS to preempt a spinning worker (a time slice). The worker must take the yield path
 * instead, and so take the entry within one yield.
 *
 * <p>Deterministic: the test thread runs the worker loop of {@code WorkerPool} (select, then {@code
 * lookBeforeParking} with spinning free, as on an idle machine), and the preempted submitter runs
 * only when the worker yields: the injected yield pushes its entry.
 */
class PreemptedSubmitterTest {

    /** More passes of the worker loop than a worker that yields needs; one that never yields runs them all. */
    private static final int LOOP_PASSES = 1_000;

    private final ReadyQueues ready = new ReadyQueues(2);
    private final Scheduler scheduler = new Scheduler(WorkObjectLincheckTest.BACKPLANE, ready,
            new QuotaLedger(new int[] {64, 64}),
            new CpuBudget(CpuLimit.UNLIMITED, Duration.ofSeconds(1), 1, 0), 1, Duration.ofHours(1));
    private final WorkerPool pool = new WorkerPool(WorkObjectLincheckTest.BACKPLANE, scheduler, 0);
    private final IdleWorkers workers = pool.idleWorkers();
    private final DefaultComponent component =
            new DefaultComponent(WorkObjectLincheckTest.BACKPLANE, ComponentSpec.named("c"), ready);
    private final AtomicLong wallClock = new AtomicLong();

    @AfterEach
    void stopThePool() {
        pool.stop();
    }

    @Test
    void anEntryCountedButNotPushed_isTakenWithinOneYieldOfTheWorker() {
        ReadyEntry pending = countedButNotPushed(1); // the submitter is preempted here
        AtomicInteger yields = new AtomicInteger();
        Runnable yieldToTheSubmitter = () -> {
            wallClock.addAndGet(1_000);
            if (yields.incrementAndGet() == 1) {
                scheduler.push(pending); // the submitter got the processor: it pushes
            }
        };

        ReadyEntry taken = null;
        for (int pass = 0; pass < LOOP_PASSES && taken == null; pass++) {
            Selection selected = scheduler.select();
            if (selected instanceof ReadyEntry entry) {
                taken = entry;
            } else {
                assertThat(selected).isEqualTo(NothingTaken.NOTHING_READY);
                assertThat(workers.lookBeforeParking(true, IdleWorkers.SPINS_BEFORE_PARK, IdleWorkers.YIELDS_BEFORE_PARK,
                        yieldToTheSubmitter, wallClock::get))
                        .as("an object is counted READY: the worker looks again rather than park").isTrue();
            }
        }

        assertThat(taken).as("the entry, taken within " + LOOP_PASSES + " passes of the worker loop (it yielded "
                + yields.get() + " times)").isSameAs(pending);
        assertThat(yields).as("yields before the entry was taken").hasValue(1);
        assertThat(workers.spinning()).isZero();
    }

    @Test
    void withNothingCounted_anIdleWorkerStillSpinsBeforeItYields() {
        AtomicInteger yields = new AtomicInteger();

        boolean sawWork = workers.lookBeforeParking(true, 10, 3, yields::incrementAndGet, wallClock::get);

        assertThat(sawWork).isFalse();
        assertThat(yields).as("the yields after the spin").hasValue(3);
    }

    /** What a submitter to a fresh key does before its push: the object is READY and counted in the depth. */
    private ReadyEntry countedButNotPushed(int key) {
        WorkObject object = new WorkObject(component, key);
        ActionNode node = new ActionNode(WorkerParkingLincheckTest.NeverRun.INSTANCE, 0,
                new Request(component, key, 0, null, null, null, false), 0L);
        ReadyEntry entry = (ReadyEntry) object.enqueue(node);
        assertThat(ready.depth(0)).isEqualTo(1);
        return entry;
    }
}
