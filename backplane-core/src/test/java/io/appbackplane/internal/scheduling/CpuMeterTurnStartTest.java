package io.appbackplane.internal.scheduling;

import static org.assertj.core.api.Assertions.assertThat;

import io.appbackplane.CpuLimit;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@link CpuMeter#turnStarting()}: a worker that spent a stretch without CPU (descheduled, or
 * blocked outside a park the meter saw) and starts a turn after a tick reads first, so the turn's
 * CPU is charged to the period it ran in rather than pro-rated over the idle stretch before the
 * tick (which made a period look over budget for CPU used after it ended: the threaded property
 * test's "period used ... of CPU" failure).
 */
class CpuMeterTurnStartTest {

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static final long SPIN_NANOS = TimeUnit.MILLISECONDS.toNanos(20);

    @Test
    void aTurnAfterATick_isChargedToTheNewPeriod_notProRatedOverTheIdleStretchBeforeIt() throws Exception {
        CpuBudget budget = new CpuBudget(CpuLimit.ofCores(1), Duration.ofSeconds(10), 1, System.nanoTime());
        CpuMeter meter = new CpuMeter(budget, true);
        meter.start();
        idleForAboutAsLongAsTheSpin();
        budget.realTick(System.nanoTime());

        meter.turnStarting();
        long cpuBefore = THREADS.getCurrentThreadCpuTime();
        long start = System.nanoTime();
        spin(start);
        long end = System.nanoTime();
        long turnCpu = THREADS.getCurrentThreadCpuTime() - cpuBefore;
        meter.actionRan(start, end); // over FLUSH_NANOS: reads

        assertThat(budget.usedThisPeriod()).as("the turn's CPU, all used after the tick").isGreaterThanOrEqualTo(turnCpu);
        assertThat(budget.usedLastPeriod()).as("what the thread used before the tick: next to nothing")
                .isLessThan(turnCpu / 4);
    }

    /** Blocks (using no CPU) until another thread has spun for the spin's length. */
    private static void idleForAboutAsLongAsTheSpin() throws InterruptedException {
        CountDownLatch spun = new CountDownLatch(1);
        Thread other = new Thread(() -> {
            spin(System.nanoTime());
            spun.countDown();
        }, "cpu-meter-test-spinner");
        other.start();
        assertThat(spun.await(30, TimeUnit.SECONDS)).isTrue();
        other.join();
    }

    private static void spin(long start) {
        while (System.nanoTime() - start < SPIN_NANOS) {
            Thread.onSpinWait();
        }
    }
}
