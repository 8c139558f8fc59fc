package io.appbackplane.internal.scheduling;

import static org.assertj.core.api.Assertions.assertThat;

import io.appbackplane.internal.objects.NothingTaken;
import io.appbackplane.internal.objects.ReadyEntry;
import io.appbackplane.internal.objects.Selection;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A submitter preempted between making its object READY ({@code WorkObject.enqueue}, under the
 * monitor) and pushing its entry (issue 29, defect 4). When the depth counter counted work, select
 * saw depth > 0 but polled nothing, and a spin that read the depth sent the worker straight back
 * to select, neither yielding nor parking, so the submitter waited for the OS to preempt a spinning
 * worker (a time slice). Now what counts as work is a queued entry, for select and the idle
 * worker's look alike: the unpushed object is not work, the worker's spin runs out, its yields give
 * the submitter the processor, and the entry is taken once pushed, within one yield.
 *
 * <p>Deterministic: the test thread runs the worker loop of {@code WorkerPool} (select, then {@code
 * lookBeforeParking} with spinning free, as on an idle machine), and the preempted submitter runs
 * only when the worker yields: the injected yield pushes its entry.
 */
class PreemptedSubmitterTest {

    /** More passes of the worker loop than a worker that yields needs; one that never yields runs them all. */
    private static final int LOOP_PASSES = 1_000;

    private final IdleWorkersHarness parts = new IdleWorkersHarness();
    private final Scheduler scheduler = parts.scheduler;
    private final IdleWorkers workers = parts.workers;
    private final AtomicLong wallClock = new AtomicLong();

    @AfterEach
    void stopThePool() {
        parts.pool.stop();
    }

    @Test
    void anEntryNotYetPushed_isNotWork_andIsTakenWithinOneYieldOfTheWorker() {
        ReadyEntry pending = readyButNotPushed(1); // the submitter is preempted here
        assertThat(scheduler.select()).isEqualTo(NothingTaken.NOTHING_READY);
        assertThat(workers.spinForWork(IdleWorkers.SPINS_BEFORE_PARK)).as("the spin looks for what select polls").isFalse();
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
                        .as("the submitter pushed during the yield: the worker looks again rather than park").isTrue();
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

    /** What a submitter to a fresh key does before its push: the object is READY (and counted) but its queue is empty. */
    private ReadyEntry readyButNotPushed(int key) {
        ReadyEntry entry = parts.readyEntry(key, 0);
        assertThat(parts.ready.depth(0)).isEqualTo(1);
        assertThat(parts.ready.isQueueEmpty(0)).isTrue();
        return entry;
    }
}
