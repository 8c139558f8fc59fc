package io.appbackplane.internal.scheduling;

import static org.assertj.core.api.Assertions.assertThat;

import io.appbackplane.CpuLimit;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * What one reading of the thread's CPU time charges ({@link CpuMeter}, thread-CPU mode), with the
 * thread's CPU clock and the wall clock scripted: what the thread used since the last reading, but
 * never more than the wall time between them. A virtual machine's guest reported 15.9 ms of thread
 * CPU time in 1.1 ms of wall time after the host stalled it; charged whole, that made a period of
 * the threaded property test ({@code ThreadedSchedulingPropertyTest}, stress profile) use several
 * times its budget and throttled the backplane for CPU no one used.
 */
class CpuMeterReadingTest {

    private static final long MS = 1_000_000;

    private final AtomicLong threadCpu = new AtomicLong();
    private final AtomicLong wall = new AtomicLong(10 * MS);
    private final CpuBudget budget = new CpuBudget(CpuLimit.ofCores(1), Duration.ofSeconds(1), 1, 0);
    private final CpuMeter meter = new CpuMeter(budget, true, threadCpu::get, wall::get);

    @Test
    void aReading_chargesWhatTheThreadUsedSinceTheLastOne() {
        meter.start();
        wall.addAndGet(5 * MS);
        threadCpu.addAndGet(3 * MS);

        meter.flush();

        assertThat(budget.usedThisPeriod()).isEqualTo(3 * MS);
    }

    @Test
    void aReadingOfMoreCpuThanWallTime_chargesNoMoreThanTheWallTime() {
        meter.start();
        wall.addAndGet(1 * MS);
        threadCpu.addAndGet(16 * MS); // the host stalled the guest: its stolen time reported as this thread's CPU

        meter.flush();

        assertThat(budget.usedThisPeriod()).isEqualTo(1 * MS);
    }

    @Test
    void theCpuNotCharged_isNotCarriedIntoTheNextReading() {
        meter.start();
        wall.addAndGet(1 * MS);
        threadCpu.addAndGet(16 * MS);
        meter.flush();
        wall.addAndGet(4 * MS);
        threadCpu.addAndGet(2 * MS);

        meter.flush();

        assertThat(budget.usedThisPeriod()).isEqualTo(3 * MS);
    }
}
