package io.appbackplane.spring;

import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;

/**
 * A child CPU cgroup that a test makes, puts a process in, resizes and removes: cgroup v1's {@code
 * cpu} controller or cgroup v2, whichever this machine mounts with the {@code cpu} controller. It
 * needs root. Where no cgroup can be made the test is skipped with a notice, except when the
 * environment variable {@code CI} is {@code true}: there it fails, so that a CI machine that cannot
 * run it does not pass by skipping. Shared with other modules' tests through this module's test-jar.
 */
public final class CpuCgroup implements AutoCloseable {

    private final Path dir;
    private final boolean v2;

    private CpuCgroup(Path dir, boolean v2) {
        this.dir = dir;
        this.v2 = v2;
    }

    /** Makes {@code name} with a quota of {@code cores} cores, or skips (fails under CI) saying why not. */
    public static CpuCgroup create(String name, double cores) {
        String why;
        try {
            Optional<CpuCgroup> made = tryCreate(name);
            if (made.isPresent()) {
                made.get().setQuota(cores);
                return made.get();
            }
            why = "no cgroup file system with the cpu controller is mounted (/proc/self/mountinfo)";
        } catch (IOException | RuntimeException e) {
            why = "a cpu cgroup could not be made: " + e;
        }
        String notice = "this test needs a real CPU cgroup (Linux, root, cgroup v1 'cpu' controller or cgroup v2 with 'cpu'): "
                + why + ". Run it as root on Linux, e.g. sudo ./mvnw verify";
        if ("true".equals(System.getenv("CI"))) {
            fail(notice + " (CI=true: failing instead of skipping)");
        }
        Assumptions.abort(notice);
        throw new AssertionError("unreachable");
    }

    private static Optional<CpuCgroup> tryCreate(String name) throws IOException {
        List<String> mounts = Files.readAllLines(Path.of("/proc/self/mountinfo"));
        for (String line : mounts) {
            String[] halves = line.split(" - ", 2);
            if (halves.length < 2) {
                continue;
            }
            String[] first = halves[0].split(" ");
            String[] second = halves[1].split(" ");
            if (second[0].equals("cgroup") && second.length > 2 && List.of(second[2].split(",")).contains("cpu")) {
                return Optional.of(make(Path.of(first[4]), name, false));
            }
        }
        for (String line : mounts) {
            String[] halves = line.split(" - ", 2);
            if (halves.length < 2 || !halves[1].startsWith("cgroup2 ")) {
                continue;
            }
            Path mount = Path.of(halves[0].split(" ")[4]);
            Path controllers = mount.resolve("cgroup.controllers");
            if (Files.isReadable(controllers) && List.of(Files.readString(controllers).trim().split(" ")).contains("cpu")) {
                Files.writeString(mount.resolve("cgroup.subtree_control"), "+cpu");
                return Optional.of(make(mount, name, true));
            }
        }
        return Optional.empty();
    }

    private static CpuCgroup make(Path mount, String name, boolean v2) throws IOException {
        Path dir = mount.resolve(name + "-" + ProcessHandle.current().pid());
        if (!Files.isDirectory(dir)) {
            Files.createDirectory(dir);
        }
        return new CpuCgroup(dir, v2);
    }

    /**
     * Sets the quota to {@code cores} cores per 100 ms period, and a high weight: on a machine shared
     * with other busy processes, a cgroup of default weight competes as one task against each of
     * theirs and gets a sliver of the CPU however far under its quota it is; the weight makes the
     * quota, not the competition, what bounds the cgroup.
     */
    public void setQuota(double cores) throws IOException {
        long quota = Math.round(cores * 100_000);
        if (v2) {
            Files.writeString(dir.resolve("cpu.weight"), "10000");
            Files.writeString(dir.resolve("cpu.max"), quota + " 100000");
        } else {
            Files.writeString(dir.resolve("cpu.shares"), "102400");
            Files.writeString(dir.resolve("cpu.cfs_period_us"), "100000");
            Files.writeString(dir.resolve("cpu.cfs_quota_us"), Long.toString(quota));
        }
    }

    /** Moves process {@code pid} (all its threads) into this cgroup. */
    public void add(long pid) throws IOException {
        Files.writeString(dir.resolve("cgroup.procs"), Long.toString(pid));
    }

    /**
     * A command prefix that starts a process inside this cgroup: {@code sh} moves itself in, then
     * execs the command, so the process is in the cgroup from its first instruction (a JVM sizes its
     * compiler and GC threads from the quota it sees at start-up, as it would in a container).
     */
    public List<String> launchPrefix() {
        return List.of("sh", "-c", "echo $$ > '" + dir.resolve("cgroup.procs") + "' && exec \"$0\" \"$@\"");
    }

    /**
     * The kernel's throttling counters so far: the periods it counted ({@code nr_periods}), those in
     * which it throttled the cgroup ({@code nr_throttled}), and the time the cgroup's threads spent
     * frozen, in microseconds (v1 {@code throttled_time} in ns over 1000, v2 {@code throttled_usec}).
     */
    public long[] periodsAndThrottled() throws IOException {
        long periods = 0;
        long throttled = 0;
        long throttledMicros = 0;
        for (String line : Files.readAllLines(dir.resolve("cpu.stat"))) {
            String[] kv = line.split(" ");
            switch (kv[0]) {
                case "nr_periods" -> periods = Long.parseLong(kv[1]);
                case "nr_throttled" -> throttled = Long.parseLong(kv[1]);
                case "throttled_time" -> throttledMicros = Long.parseLong(kv[1]) / 1000;
                case "throttled_usec" -> throttledMicros = Long.parseLong(kv[1]);
                default -> { }
            }
        }
        return new long[] {periods, throttled, throttledMicros};
    }

    /** The cgroup's directory. */
    public Path dir() {
        return dir;
    }

    /** Moves every process left in the cgroup to its parent, then removes it. */
    @Override
    public void close() throws IOException {
        Path parentProcs = dir.getParent().resolve("cgroup.procs");
        for (String pid : Files.readAllLines(dir.resolve("cgroup.procs"))) {
            if (!pid.isBlank()) {
                try {
                    Files.writeString(parentProcs, pid.trim());
                } catch (IOException e) {
                    // the process exited in the meantime: nothing to move
                }
            }
        }
        Files.delete(dir);
    }
}
