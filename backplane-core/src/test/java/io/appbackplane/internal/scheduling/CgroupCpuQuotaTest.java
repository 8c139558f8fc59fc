package io.appbackplane.internal.scheduling;

import static org.assertj.core.api.Assertions.assertThat;

import io.appbackplane.CpuQuota;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link CgroupCpuQuota} on cgroup file systems written into a temporary directory laid out like
 * {@code /}: {@code proc/self/cgroup}, {@code proc/self/mountinfo} and the hierarchy's files, as
 * Linux shows them for cgroup v1 and v2.
 */
class CgroupCpuQuotaTest {

    private static final String V1_MOUNTS = """
            31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755
            32 31 0:29 / /sys/fs/cgroup/cpu,cpuacct rw,relatime - cgroup cgroup rw,cpu,cpuacct
            34 31 0:31 / /sys/fs/cgroup/cpuset rw,relatime - cgroup cgroup rw,cpuset
            41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw
            """;

    private static final String V2_MOUNTS = """
            22 1 0:21 / / rw,relatime - ext4 /dev/vda rw
            30 22 0:26 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime - cgroup2 cgroup2 rw,nsdelegate
            """;

    @TempDir
    Path root;

    @Test
    void v1_quotaOverPeriod() throws IOException {
        write("proc/self/cgroup", "4:memory:/app\n3:cpuset:/\n2:cpu,cpuacct:/app\n0::/\n");
        write("proc/self/mountinfo", V1_MOUNTS);
        v1("sys/fs/cgroup/cpu,cpuacct", "-1", "100000");
        v1("sys/fs/cgroup/cpu,cpuacct/app", "50000", "100000");

        Optional<CpuQuota> quota = CgroupCpuQuota.read(root);

        assertThat(quota).get().extracting(CpuQuota::cores).isEqualTo(0.5);
        assertThat(quota.get().source()).endsWith("sys/fs/cgroup/cpu,cpuacct/app/cpu.cfs_quota_us");
    }

    @Test
    void v1_minusOneMeansNoQuota() throws IOException {
        write("proc/self/cgroup", "2:cpu,cpuacct:/app\n0::/\n");
        write("proc/self/mountinfo", V1_MOUNTS);
        v1("sys/fs/cgroup/cpu,cpuacct", "-1", "100000");
        v1("sys/fs/cgroup/cpu,cpuacct/app", "-1", "100000");

        assertThat(CgroupCpuQuota.read(root)).isEmpty();
    }

    @Test
    void v2_cpuMax() throws IOException {
        write("proc/self/cgroup", "0::/kubepods/pod1/c1\n");
        write("proc/self/mountinfo", V2_MOUNTS);
        v2("sys/fs/cgroup/kubepods/pod1/c1", "150000", "100000");

        assertThat(CgroupCpuQuota.read(root)).get().extracting(CpuQuota::cores).isEqualTo(1.5);
    }

    @Test
    void v2_maxMeansNoQuota() throws IOException {
        write("proc/self/cgroup", "0::/app\n");
        write("proc/self/mountinfo", V2_MOUNTS);
        v2("sys/fs/cgroup/app", "max", "100000");

        assertThat(CgroupCpuQuota.read(root)).isEmpty();
    }

    @Test
    void nestedPath_theSmallestQuotaOfTheCgroupAndItsAncestorsWins() throws IOException {
        write("proc/self/cgroup", "0::/kubepods/pod1/c1\n");
        write("proc/self/mountinfo", V2_MOUNTS);
        v2("sys/fs/cgroup/kubepods", "400000", "100000");
        v2("sys/fs/cgroup/kubepods/pod1", "25000", "50000"); // the pod's: 0.5 cores
        v2("sys/fs/cgroup/kubepods/pod1/c1", "max", "100000"); // the container sets none

        Optional<CpuQuota> quota = CgroupCpuQuota.read(root);

        assertThat(quota).get().extracting(CpuQuota::cores).isEqualTo(0.5);
        assertThat(quota.get().source()).endsWith("sys/fs/cgroup/kubepods/pod1/cpu.max");
    }

    @Test
    void namespacedMount_theCgroupPathIsTakenRelativeToTheMountsRoot() throws IOException {
        // A container whose hierarchy is mounted from /docker/abc: its own cgroup is the mount point.
        write("proc/self/cgroup", "2:cpu,cpuacct:/docker/abc\n");
        write("proc/self/mountinfo",
                "32 31 0:29 /docker/abc /sys/fs/cgroup/cpu,cpuacct ro,relatime - cgroup cgroup rw,cpu,cpuacct\n");
        v1("sys/fs/cgroup/cpu,cpuacct", "200000", "100000");

        assertThat(CgroupCpuQuota.read(root)).get().extracting(CpuQuota::cores).isEqualTo(2.0);
    }

    @Test
    void v1CpuHierarchyWinsOverAV2OneWithoutTheCpuController() throws IOException {
        write("proc/self/cgroup", "2:cpu,cpuacct:/app\n0::/app\n");
        write("proc/self/mountinfo", V1_MOUNTS);
        v1("sys/fs/cgroup/cpu,cpuacct/app", "100000", "100000");
        v2("sys/fs/cgroup/unified/app", "max", "100000");

        assertThat(CgroupCpuQuota.read(root)).get().extracting(CpuQuota::cores).isEqualTo(1.0);
    }

    @Test
    void noCgroupFiles_noQuota() {
        assertThat(CgroupCpuQuota.read(root)).isEmpty();
    }

    @Test
    void malformedFiles_noQuota() throws IOException {
        write("proc/self/cgroup", "garbage\n0::/app\n");
        write("proc/self/mountinfo", "not a mount line\n" + V2_MOUNTS);
        v2("sys/fs/cgroup/app", "lots", "100000");

        assertThat(CgroupCpuQuota.read(root)).isEmpty();
    }

    @Test
    void throttling_v1_isReadBesideTheQuotaThatWins() throws IOException {
        write("proc/self/cgroup", "2:cpu,cpuacct:/app\n0::/\n");
        write("proc/self/mountinfo", V1_MOUNTS);
        v1("sys/fs/cgroup/cpu,cpuacct", "-1", "100000");
        v1("sys/fs/cgroup/cpu,cpuacct/app", "50000", "100000");
        write("sys/fs/cgroup/cpu,cpuacct/app/cpu.stat", "nr_periods 21\nnr_throttled 20\nthrottled_time 1934000000\n");

        assertThat(CgroupCpuQuota.throttling(CgroupCpuQuota.read(root).orElseThrow()))
                .contains(new CgroupCpuQuota.Throttling(21, 20));
    }

    @Test
    void throttling_v2_hasTheSameNames() throws IOException {
        write("proc/self/cgroup", "0::/kubepods/pod1/c1\n");
        write("proc/self/mountinfo", V2_MOUNTS);
        v2("sys/fs/cgroup/kubepods/pod1/c1", "150000", "100000");
        write("sys/fs/cgroup/kubepods/pod1/c1/cpu.stat",
                "usage_usec 80\nuser_usec 50\nsystem_usec 30\nnr_periods 250\nnr_throttled 3\nthrottled_usec 9000\n");

        assertThat(CgroupCpuQuota.throttling(CgroupCpuQuota.read(root).orElseThrow()))
                .contains(new CgroupCpuQuota.Throttling(250, 3));
    }

    @Test
    void throttling_unknownWithoutCounters_orForAQuotaNotReadFromAFile() throws IOException {
        write("proc/self/cgroup", "0::/app\n");
        write("proc/self/mountinfo", V2_MOUNTS);
        v2("sys/fs/cgroup/app", "100000", "100000");
        CpuQuota quota = CgroupCpuQuota.read(root).orElseThrow();
        assertThat(CgroupCpuQuota.throttling(quota)).isEmpty();

        write("sys/fs/cgroup/app/cpu.stat", "nr_periods x\nnr_throttled 2\n");
        assertThat(CgroupCpuQuota.throttling(quota)).as("malformed").isEmpty();

        assertThat(CgroupCpuQuota.throttling(new CpuQuota(1, "set by hand"))).isEmpty();
    }

    /** A cgroup v2 directory's {@code cpu.max}: the quota ({@code max} for none) and the period, in µs. */
    private void v2(String dir, String quota, String period) throws IOException {
        write(dir + "/cpu.max", quota + " " + period + "\n");
    }

    /** A cgroup v1 directory's {@code cpu.cfs_quota_us} ({@code -1} for none) and {@code cpu.cfs_period_us}. */
    private void v1(String dir, String quota, String period) throws IOException {
        write(dir + "/cpu.cfs_quota_us", quota + "\n");
        write(dir + "/cpu.cfs_period_us", period + "\n");
    }

    private void write(String path, String text) throws IOException {
        Path file = root.resolve(path);
        Files.createDirectories(file.getParent());
        Files.writeString(file, text);
    }
}
