package io.appbackplane.benchmarks;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;

/**
 * CPU times a benchmark compares: the whole process's, one backplane's worker threads' (what its
 * CPU budget governs), and the JIT compiler's, so that CPU the process spends outside the
 * backplane (compiling, collecting) is told apart from the backplane's own.
 */
final class CpuTimes {

    private CpuTimes() {}

    /** CPU time of the whole process, in nanoseconds. */
    static long process() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            long cpu = os.getProcessCpuTime();
            if (cpu >= 0) {
                return cpu;
            }
        }
        throw new UnsupportedOperationException("this JVM does not report the process CPU time "
                + "(com.sun.management.OperatingSystemMXBean.getProcessCpuTime())");
    }

    /** CPU time of the worker threads of the backplane named {@code backplaneName} (found by thread name), in nanoseconds. */
    static long workerThreads(String backplaneName) {
        String prefix = "backplane-" + backplaneName + "-worker-";
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long sum = 0;
        for (ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds())) {
            if (info != null && info.getThreadName().startsWith(prefix)) {
                sum += Math.max(0, threads.getThreadCpuTime(info.getThreadId()));
            }
        }
        return sum;
    }

    /** Milliseconds the JIT compiler has spent compiling so far, or -1 if the JVM does not say. */
    static long jitMillis() {
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        return jit != null && jit.isCompilationTimeMonitoringSupported() ? jit.getTotalCompilationTime() : -1;
    }
}
