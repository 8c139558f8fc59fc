package io.appbackplane.internal.scheduling;

import io.appbackplane.CpuQuota;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Reads a process's CPU quota from the Linux cgroup file system under a root directory ({@code /}
 * in production; a directory laid out like it in tests): the process's cgroup from {@code
 * proc/self/cgroup}, where its hierarchy is mounted from {@code proc/self/mountinfo}, then the
 * quota files of that cgroup and of each ancestor up to the mount point. The smallest quota wins,
 * as the kernel enforces every level.
 *
 * <p>cgroup v1 (a hierarchy with the {@code cpu} controller): {@code cpu.cfs_quota_us} over {@code
 * cpu.cfs_period_us}, -1 meaning none. cgroup v2: {@code cpu.max}, {@code "$MAX $PERIOD"} with
 * {@code max} meaning none. A v1 {@code cpu} hierarchy wins over v2 (on a hybrid host the v2
 * hierarchy has no {@code cpu} controller). A cgroup path that does not lie under the mount's root
 * (a container whose cgroup namespace is not its own) is looked up from the mount point down, and
 * failing that the mount point itself is read, as the JDK's own container support does.
 *
 * <p>Never throws for what it finds: missing, unreadable or malformed files mean "no quota here".
 * Stateless; any thread.
 */
public final class CgroupCpuQuota {

    private CgroupCpuQuota() {}

    /** The quota of the process whose {@code /proc/self} is {@code root/proc/self}, or empty. */
    public static Optional<CpuQuota> read(Path root) {
        List<String> cgroups = lines(root.resolve("proc/self/cgroup"));
        List<String> mounts = lines(root.resolve("proc/self/mountinfo"));
        String v1Path = null;
        String v2Path = null;
        for (String line : cgroups) {
            String[] parts = line.split(":", 3);
            if (parts.length < 3) {
                continue;
            }
            if (parts[0].equals("0") && parts[1].isEmpty()) {
                v2Path = parts[2];
            } else if (Arrays.asList(parts[1].split(",")).contains("cpu")) {
                v1Path = parts[2];
            }
        }
        for (String line : mounts) {
            Mount mount = Mount.parse(line);
            if (mount == null) {
                continue;
            }
            if (v1Path != null && mount.type.equals("cgroup") && mount.superOptions.contains("cpu")) {
                return smallest(root, mount, v1Path, CgroupCpuQuota::v1Quota);
            }
        }
        for (String line : mounts) {
            Mount mount = Mount.parse(line);
            if (v2Path != null && mount != null && mount.type.equals("cgroup2")) {
                return smallest(root, mount, v2Path, CgroupCpuQuota::v2Quota);
            }
        }
        return Optional.empty();
    }

    /**
     * The kernel's throttling counters of the cgroup that sets {@code quota} ({@code cpu.stat}
     * beside the quota file: {@code nr_periods} and {@code nr_throttled}, the same names in v1 and
     * v2), or empty when the quota was not read from a cgroup file or the counters cannot be read.
     */
    public static Optional<Throttling> throttling(CpuQuota quota) {
        Path quotaFile;
        try {
            quotaFile = Path.of(quota.source());
        } catch (RuntimeException e) {
            return Optional.empty(); // a source that is not a path (a quota given by hand)
        }
        long periods = -1;
        long throttled = -1;
        for (String line : lines(quotaFile.resolveSibling("cpu.stat"))) {
            String[] fields = line.trim().split("\\s+");
            if (fields.length == 2 && fields[0].equals("nr_periods")) {
                periods = number(fields[1]);
            } else if (fields.length == 2 && fields[0].equals("nr_throttled")) {
                throttled = number(fields[1]);
            }
        }
        return periods < 0 || throttled < 0 ? Optional.empty() : Optional.of(new Throttling(periods, throttled));
    }

    /**
     * A cgroup's enforcement periods so far in which its processes could run ({@code nr_periods}),
     * and of those, the ones in which the kernel froze them for having used the quota ({@code
     * nr_throttled}).
     */
    public record Throttling(long periods, long throttled) {}

    private interface LevelQuota {
        /** The quota set on cgroup directory {@code dir}, or empty if none. */
        Optional<CpuQuota> of(Path dir);
    }

    /** The smallest quota from the process's cgroup directory up to the hierarchy's mount point. */
    private static Optional<CpuQuota> smallest(Path root, Mount mount, String cgroupPath, LevelQuota quotaOf) {
        Path mountPoint = under(root, mount.mountPoint);
        Path dir = cgroupDirectory(mountPoint, mount.root, cgroupPath);
        Optional<CpuQuota> smallest = Optional.empty();
        while (dir != null && dir.startsWith(mountPoint)) {
            Optional<CpuQuota> here = quotaOf.of(dir);
            if (here.isPresent() && (smallest.isEmpty() || here.get().cores() < smallest.get().cores())) {
                smallest = here;
            }
            dir = dir.equals(mountPoint) ? null : dir.getParent();
        }
        return smallest;
    }

    private static Path cgroupDirectory(Path mountPoint, String mountRoot, String cgroupPath) {
        String relative;
        if (mountRoot.equals("/")) {
            relative = cgroupPath;
        } else if (cgroupPath.equals(mountRoot) || cgroupPath.startsWith(mountRoot + "/")) {
            relative = cgroupPath.substring(mountRoot.length());
        } else {
            relative = cgroupPath; // not under the mount's root: try it from the mount point down
        }
        Path dir = under(mountPoint, relative);
        return Files.isDirectory(dir) ? dir : mountPoint;
    }

    private static Path under(Path base, String absolute) {
        String relative = absolute.replaceFirst("^/+", "");
        return relative.isEmpty() ? base : base.resolve(relative).normalize();
    }

    private static Optional<CpuQuota> v1Quota(Path dir) {
        Path quotaFile = dir.resolve("cpu.cfs_quota_us");
        long quota = number(firstLine(quotaFile));
        long period = number(firstLine(dir.resolve("cpu.cfs_period_us")));
        if (quota <= 0 || period <= 0) {
            return Optional.empty(); // -1: no quota at this level
        }
        return Optional.of(new CpuQuota((double) quota / period, quotaFile.toString()));
    }

    private static Optional<CpuQuota> v2Quota(Path dir) {
        Path file = dir.resolve("cpu.max");
        String[] fields = firstLine(file).trim().split("\\s+");
        if (fields.length < 1 || fields[0].equals("max")) {
            return Optional.empty();
        }
        long quota = number(fields[0]);
        long period = fields.length > 1 ? number(fields[1]) : 100_000; // the kernel's default period
        if (quota <= 0 || period <= 0) {
            return Optional.empty();
        }
        return Optional.of(new CpuQuota((double) quota / period, file.toString()));
    }

    /** A number, or -1 if the text is not one. */
    private static long number(String text) {
        try {
            return Long.parseLong(text.trim());
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private static String firstLine(Path file) {
        List<String> lines = lines(file);
        return lines.isEmpty() ? "" : lines.get(0);
    }

    private static List<String> lines(Path file) {
        try {
            return Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException | SecurityException e) {
            return List.of(); // no such file, not Linux, not allowed: no quota from it
        }
    }

    /** One line of {@code /proc/self/mountinfo}: the fields this class needs. */
    private record Mount(String root, String mountPoint, String type, List<String> superOptions) {

        /**
         * Parses {@code "36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 - ext3 /dev/root rw,errors=continue"}:
         * fields 4 and 5 are the root and mount point, and after the {@code -} separator come the
         * file-system type, the source and the super options. Null for a line of another shape.
         */
        static Mount parse(String line) {
            String[] halves = line.split(" - ", 2);
            if (halves.length < 2) {
                return null;
            }
            String[] first = halves[0].trim().split("\\s+");
            String[] second = halves[1].trim().split("\\s+");
            if (first.length < 5 || second.length < 1) {
                return null;
            }
            List<String> options = second.length > 2 ? Arrays.asList(second[2].split(",")) : new ArrayList<>();
            return new Mount(unescape(first[3]), unescape(first[4]), second[0], options);
        }

        /** mountinfo writes a space in a path as {@code \040}. */
        private static String unescape(String field) {
            return field.replace("\\040", " ").replace("\\011", "\t").replace("\\012", "\n").replace("\\134", "\\");
        }
    }
}
