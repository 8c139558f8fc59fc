package io.appbackplane;

import io.appbackplane.internal.scheduling.CgroupCpuQuota;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * A CPU quota the operating system enforces on this process, such as a container's CPU limit:
 * {@code cores} cores on average over each enforcement period (a Linux cgroup's {@code cpu.max} of
 * {@code 50000 100000}, or {@code cpu.cfs_quota_us} 50000 over {@code cpu.cfs_period_us} 100000, is
 * 0.5 cores). A process that uses its quota early in a period is frozen by the kernel for the rest of
 * it, every thread at once; {@link CpuLimit#auto()} keeps a backplane's process under it instead.
 *
 * @param cores the quota in cores, positive
 * @param source where it was read, such as {@code /sys/fs/cgroup/cpu/app/cpu.cfs_quota_us}
 */
public record CpuQuota(double cores, String source) {

    public CpuQuota {
        if (!(cores > 0) || Double.isInfinite(cores)) {
            throw new IllegalArgumentException("cpu quota " + cores + " is invalid; allowed: a positive, finite number of cores");
        }
        Objects.requireNonNull(source, "source must not be null");
    }

    /**
     * This process's CPU quota: the smallest over its cgroup and the cgroup's ancestors (cgroup v2
     * {@code cpu.max}, or v1 {@code cpu.cfs_quota_us}/{@code cpu.cfs_period_us} of the {@code cpu}
     * controller), read now; empty where none is set or none can be read (not Linux, no cgroup
     * file system mounted).
     */
    public static Optional<CpuQuota> ofProcess() {
        return CgroupCpuQuota.read(Path.of("/"));
    }
}
