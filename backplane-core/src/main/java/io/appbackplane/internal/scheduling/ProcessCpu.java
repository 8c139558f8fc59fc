package io.appbackplane.internal.scheduling;

import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;

/**
 * The CPU time this whole process has used (every thread, the JVM's own included), from the
 * platform's {@code com.sun.management.OperatingSystemMXBean}, which every OpenJDK build has.
 * Any thread.
 */
final class ProcessCpu {

    private static final OperatingSystemMXBean OS = ManagementFactory.getOperatingSystemMXBean();

    private ProcessCpu() {}

    /** The process's CPU time in nanoseconds, or -1 where the JVM cannot tell. */
    static long nanos() {
        if (OS instanceof com.sun.management.OperatingSystemMXBean os) {
            return os.getProcessCpuTime();
        }
        return -1;
    }
}
