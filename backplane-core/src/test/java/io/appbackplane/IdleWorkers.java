package io.appbackplane;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Checks, for tests with real worker threads, that a backplane's idle workers block rather than
 * spin (rule 9): every worker counted idle, parked (thread state WAITING or TIMED_WAITING), and
 * using almost no CPU over a whole window. Waits with Awaitility, never with sleeps.
 */
final class IdleWorkers {

    private static final Duration WAIT = Duration.ofSeconds(20);
    /** The idle window, and the CPU all workers together may use in it (a spinning worker uses all of it). */
    static final Duration WINDOW = Duration.ofMillis(500);
    static final Duration CPU_ALLOWED = Duration.ofMillis(50);

    private IdleWorkers() {}

    static void assertParkedAndIdle(Backplane backplane) {
        int threads = backplane.policy().threads();
        await().atMost(WAIT).untilAsserted(() -> {
            assertThat(backplane.statistics().idleThreads()).as("idle workers").isEqualTo(threads);
            assertThat(workers(backplane)).hasSize(threads).allSatisfy(t -> assertThat(t.getThreadState())
                    .as(t.getThreadName()).isIn(Thread.State.WAITING, Thread.State.TIMED_WAITING));
        });
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        if (!mx.isThreadCpuTimeSupported() || !mx.isThreadCpuTimeEnabled()) {
            return; // the thread states above already show the workers block
        }
        long[] ids = workers(backplane).stream().mapToLong(ThreadInfo::getThreadId).toArray();
        long before = cpuNanos(mx, ids);
        await().during(WINDOW).atMost(WINDOW.multipliedBy(6))
                .until(() -> cpuNanos(mx, ids) - before < CPU_ALLOWED.toNanos());
        assertThat(backplane.statistics().idleThreads()).as("idle workers after the window").isEqualTo(threads);
    }

    static long cpuNanos(ThreadMXBean mx, long[] ids) {
        long sum = 0;
        for (long id : ids) {
            sum += Math.max(0, mx.getThreadCpuTime(id)); // -1 once a thread has exited
        }
        return sum;
    }

    /** The live worker threads of {@code backplane} (by name), with their states. */
    static List<ThreadInfo> workers(Backplane backplane) {
        List<ThreadInfo> workers = new ArrayList<>();
        for (ThreadInfo t : ManagementFactory.getThreadMXBean().dumpAllThreads(false, false)) {
            if (t.getThreadName().startsWith("backplane-" + backplane.name() + "-worker-")) {
                workers.add(t);
            }
        }
        return workers;
    }
}
