package io.appbackplane;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Rule 5 with the system clock: workers charge the CPU budget with the CPU time their threads
 * used, not with the wall-clock time of their actions (an action that waits, or a worker that is
 * descheduled on a busy machine, uses no CPU). The integration period is an hour, so no real tick
 * resets the use during a test.
 */
class CpuChargeTest {

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static final Duration WORK = Duration.ofMillis(200);

    private Backplane backplane;

    @AfterEach
    void close() {
        if (backplane != null) {
            backplane.close();
        }
    }

    private BackplaneComponent start() {
        BackplanePolicy policy = BackplanePolicy.builder()
                .threads(1)
                .cpuLimit(CpuLimit.ofCores(1))
                .integrationPeriod(Duration.ofHours(1))
                // No slow-action warning: the first log line in a JVM costs the worker that writes it
                // CPU time of its own (the logging system's start), charged like any other.
                .slowActionThreshold(Duration.ofMinutes(1))
                .build();
        backplane = Backplane.builder("cpu").policy(policy).build();
        return backplane.install(ComponentSpec.named("app"));
    }

    private Duration used() {
        return backplane.statistics().cpu().usedThisPeriod();
    }

    @Test
    void anActionThatWaits_isChargedTheLittleCpuItUsed_notItsWallTime() throws Exception {
        BackplaneComponent app = start();
        app.submit("sleeper", 1, ctx -> {
            // The workload, not synchronization: block for 200 ms of wall time on a latch nobody
            // counts down, using next to no CPU.
            boolean released = new CountDownLatch(1).await(WORK.toMillis(), TimeUnit.MILLISECONDS);
            return released;
        }).get(10, TimeUnit.SECONDS);

        assertThat(used()).isLessThan(WORK.dividedBy(2));
    }

    @Test
    void anActionThatComputes_isChargedItsCpuTime() throws Exception {
        BackplaneComponent app = start();
        // The worker's first turn loads and initializes the action path's classes on its own CPU
        // time, which is charged too (this is often the first test of its JVM): measure from after it.
        app.submit("warm-up", 1, ctx -> "done").get(10, TimeUnit.SECONDS);
        Duration before = used();
        long spent = app.submit("spinner", 1, ctx -> {
            long start = THREADS.getCurrentThreadCpuTime();
            while (THREADS.getCurrentThreadCpuTime() - start < WORK.toNanos()) {
                Thread.onSpinWait(); // burn CPU until this thread has used WORK of it
            }
            return THREADS.getCurrentThreadCpuTime() - start;
        }).get(10, TimeUnit.SECONDS);

        // Charged before the request completes: the action's CPU time plus the worker's own bit.
        assertThat(used().minus(before)).isBetween(Duration.ofNanos(spent), Duration.ofNanos(spent).plus(WORK.dividedBy(2)));
    }
}
