package io.appbackplane.internal.scheduling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.appbackplane.CpuLimit;
import io.appbackplane.internal.base.WorkerThread;
import io.appbackplane.internal.objects.WorkObjectLincheckTest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A worker thread that fails to start (the JVM is out of threads: {@code Thread.start} throws
 * {@code OutOfMemoryError}) is undone: the pool's live count and the thread's {@link WorkerThread}
 * slot are given back and it leaves the pool's list of workers, so that {@link WorkerPool#stop}
 * still completes once the workers that did start have exited. A {@code live} count left one high
 * would keep stop from ever completing: the backplane would produce no shutdown report and keep its
 * timer thread.
 */
class WorkerStartFailureTest {

    private final Scheduler scheduler = new Scheduler(WorkObjectLincheckTest.BACKPLANE, new ReadyQueues(1),
            new QuotaLedger(new int[] {64}), new CpuBudget(CpuLimit.UNLIMITED, Duration.ofSeconds(1), 1, 0), 1,
            Duration.ofHours(1));
    private final OutOfMemoryError noThread =
            new OutOfMemoryError("unable to create native thread: possibly out of memory or process/resource limits reached");
    /** Threads the starter started, and those it refused to. */
    private final List<Thread> started = new CopyOnWriteArrayList<>();
    private final List<Thread> refused = new CopyOnWriteArrayList<>();
    /** How many more starts succeed before the starter refuses. */
    private volatile int startsLeft;
    private final List<WorkerPool> pools = new ArrayList<>();

    private WorkerPool pool(int threads, int startsAllowed) {
        startsLeft = startsAllowed;
        WorkerPool pool = new WorkerPool(WorkObjectLincheckTest.BACKPLANE, scheduler, threads, thread -> {
            if (startsLeft == 0) {
                refused.add(thread);
                throw noThread;
            }
            startsLeft--;
            thread.start();
            started.add(thread);
        });
        pools.add(pool);
        return pool;
    }

    @AfterEach
    void stopEveryPool() throws InterruptedException {
        for (WorkerPool pool : pools) {
            pool.stop();
        }
        for (Thread thread : started) {
            thread.join(10_000);
            assertThat(thread.isAlive()).as(thread.getName() + " ended").isFalse();
        }
    }

    private void assertUndone(Thread thread) {
        assertThat(thread.isAlive()).isFalse();
        assertThat(WorkerThread.isSlotTaken(((WorkerThread) thread).slot)).as("slot of " + thread.getName()).isFalse();
    }

    @Test
    void setThreads_whenAThreadFailsToStart_throwsAndUndoesIt_andStopStillCompletes() {
        WorkerPool pool = pool(0, 1);

        assertThatThrownBy(() -> pool.setThreads(3)).isSameAs(noThread);

        assertThat(started).hasSize(1);
        assertThat(refused).hasSize(1); // the first refusal ends the resize
        assertUndone(refused.get(0));
        assertThat(pool.live()).isEqualTo(1);
        assertThat(pool.idleWorkers().parkers()).hasSize(1);
        assertThat(pool.stop()).succeedsWithin(Duration.ofSeconds(10));
    }

    @Test
    void setThreads_afterAFailedStart_startsTheMissingWorkers() {
        WorkerPool pool = pool(1, 1);
        assertThatThrownBy(() -> pool.setThreads(2)).isSameAs(noThread);

        startsLeft = 1;
        pool.setThreads(2);

        assertThat(pool.live()).isEqualTo(2);
        assertThat(started).hasSize(2);
        assertThat(pool.stop()).succeedsWithin(Duration.ofSeconds(10));
    }

    @Test
    void construction_whenAThreadFailsToStart_stopsTheWorkersItStarted() {
        assertThatThrownBy(() -> pool(2, 1)).isSameAs(noThread);

        assertUndone(refused.get(0));
        assertThat(started).hasSize(1); // stopped by the failed constructor: joined in stopEveryPool
    }
}
