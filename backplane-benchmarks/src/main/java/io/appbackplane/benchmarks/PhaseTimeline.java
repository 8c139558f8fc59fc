package io.appbackplane.benchmarks;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * W7's timeline of one phase in 10 ms buckets, for watching what the workers did when urgent
 * actions went late: per bucket the actions that ran, the urgent ones, those that waited longer
 * than the target and the longest urgent wait, and the wall and thread CPU time the actions took.
 * An action is counted in the bucket in which it ran. Off unless {@code -Dbench.w7Timeline=true}
 * (then every action also reads its thread's CPU time twice, so the numbers of such a run are not
 * results); then {@link #print} prints one {@code W7 timeline} line per bucket after the phase.
 */
final class PhaseTimeline {

    static final boolean ON = Boolean.getBoolean("bench.w7Timeline");

    private static final long BUCKET_NANOS = 10_000_000;
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private final long start = System.nanoTime();
    private final int buckets;
    private final AtomicLongArray ran;
    private final AtomicLongArray urgent;
    private final AtomicLongArray late;
    private final AtomicLongArray longestWaitMicros;
    private final AtomicLongArray runMicros;
    private final AtomicLongArray cpuMicros;

    PhaseTimeline(long phaseNanos) {
        this.buckets = (int) (phaseNanos / BUCKET_NANOS) + 1;
        this.ran = new AtomicLongArray(buckets);
        this.urgent = new AtomicLongArray(buckets);
        this.late = new AtomicLongArray(buckets);
        this.longestWaitMicros = new AtomicLongArray(buckets);
        this.runMicros = new AtomicLongArray(buckets);
        this.cpuMicros = new AtomicLongArray(buckets);
    }

    /** Runs {@code tokens} of work as an action that waited {@code waitNanos} (urgent when {@code waitNanos >= 0}), recording it. */
    void run(long tokens, long waitNanos, long targetNanos) {
        long cpuBefore = THREADS.getCurrentThreadCpuTime();
        long before = System.nanoTime();
        Work.run(tokens);
        long after = System.nanoTime();
        long cpu = THREADS.getCurrentThreadCpuTime() - cpuBefore;
        int b = (int) ((before - start) / BUCKET_NANOS);
        if (b < 0 || b >= buckets) {
            return; // ran after the phase: counted in none of its buckets
        }
        ran.incrementAndGet(b);
        runMicros.addAndGet(b, (after - before) / 1_000);
        cpuMicros.addAndGet(b, cpu / 1_000);
        if (waitNanos >= 0) {
            urgent.incrementAndGet(b);
            if (waitNanos > targetNanos) {
                late.incrementAndGet(b);
            }
            longestWaitMicros.accumulateAndGet(b, waitNanos / 1_000, Math::max);
        }
    }

    /** Prints one line per bucket of the phase {@code name}. */
    void print(String name) {
        StringBuilder lines = new StringBuilder();
        for (int b = 0; b < buckets; b++) {
            long n = ran.get(b);
            lines.append(String.format(Locale.ROOT, "W7 timeline %s %5d ms: ran %3d, urgent %3d, late %3d, longest wait %6.1f ms,"
                    + " run %6.2f ms, cpu %6.2f ms (%s µs cpu per action)%n", name, b * 10, n, urgent.get(b), late.get(b),
                    longestWaitMicros.get(b) / 1e3, runMicros.get(b) / 1e3, cpuMicros.get(b) / 1e3,
                    n == 0 ? "-" : String.valueOf(cpuMicros.get(b) / n)));
        }
        System.out.print(lines);
    }
}
