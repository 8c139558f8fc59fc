package io.appbackplane.sample;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Where a Linux process's CPU time goes, by thread group, between two readings of its {@code /proc}
 * tree: each thread's {@code utime + stime} (clock ticks) from {@code <proc>/<pid>/task/<tid>/stat}
 * and its name from {@code .../comm}, the whole process's from {@code <proc>/<pid>/stat}.
 *
 * <p>For a window between two {@link Snapshot}s, with {@code d(x)} a count's growth over it:
 * <pre>
 *   d(process) = Σ d(thread alive at both readings) + Σ ticks(thread started in the window) + exited
 * </pre>
 * where {@code exited} is what threads that ended in the window used (the kernel adds a thread's
 * time to the process's when it exits; its own file is gone). The groups' cores add up to the
 * process's.
 *
 * <p>The kernel keeps only the first 15 bytes of a thread's name ({@code comm}), so Tomcat's request
 * threads and its poller share one ({@code http-nio-127.0.}), and so do the backplane's workers and
 * its timer. Full names from the JVM ({@link JvmThreadNames}), keyed by thread id, take precedence
 * where given. A thread is put in the first group whose pattern matches its whole name; the
 * others in {@link #OTHER}.
 */
final class ThreadCpu {

    /** The group of threads no pattern matches. */
    static final String OTHER = "other threads";
    /** What threads that ended inside the window used. */
    static final String EXITED = "threads that ended";

    /** A group: its label and the pattern a thread's whole name matches. */
    record Group(String label, Pattern names) {
        static Group of(String label, String regex) {
            return new Group(label, Pattern.compile(regex));
        }
    }

    /** One thread at one reading: its kernel name and the CPU ticks it used so far. */
    record Task(String comm, long ticks) {}

    /** One reading of a process: when (clock nanos), its own ticks so far, and each live thread's. */
    record Snapshot(long nanos, long processTicks, Map<Integer, Task> tasks) {}

    /** One group's use over the window: its cores and how many threads it counted. */
    record Share(String group, double cores, int threads) {}

    /**
     * A window's breakdown: its length, the process's cores over it and each group's, in the order
     * of the groups given (then {@link #OTHER} and {@link #EXITED}); groups that used nothing are
     * left out.
     */
    record Breakdown(double seconds, double processCores, List<Share> groups) {

        /** The cores of {@code group} (0 when it used nothing). */
        double cores(String group) {
            return groups.stream().filter(s -> s.group().equals(group)).mapToDouble(Share::cores).sum();
        }

        @Override
        public String toString() {
            StringBuilder text = new StringBuilder(String.format(Locale.ROOT, "process %.2f cores over %.1f s:", processCores, seconds));
            for (Share share : groups) {
                text.append(String.format(Locale.ROOT, " %s %.2f%s;", share.group(), share.cores(),
                        share.threads() > 0 ? " (" + share.threads() + ")" : ""));
            }
            return text.substring(0, text.length() - 1);
        }
    }

    private final Path proc;
    private final int ticksPerSecond;

    /**
     * @param proc the {@code /proc} tree to read (tests give a fake one)
     * @param ticksPerSecond the kernel's clock ticks per second ({@code getconf CLK_TCK})
     */
    ThreadCpu(Path proc, int ticksPerSecond) {
        if (ticksPerSecond <= 0) {
            throw new IllegalArgumentException("ticksPerSecond must be positive, was " + ticksPerSecond);
        }
        this.proc = proc;
        this.ticksPerSecond = ticksPerSecond;
    }

    /** This machine's {@code /proc}, with the clock ticks per second {@code getconf CLK_TCK} prints. */
    static ThreadCpu ofThisMachine() throws IOException, InterruptedException {
        Process getconf = new ProcessBuilder("getconf", "CLK_TCK").redirectErrorStream(true).start();
        String out = new String(getconf.getInputStream().readAllBytes()).trim();
        if (getconf.waitFor() != 0 || !out.matches("\\d+")) {
            throw new IOException("getconf CLK_TCK printed '" + out + "' (exit " + getconf.exitValue() + ")");
        }
        return new ThreadCpu(Path.of("/proc"), Integer.parseInt(out));
    }

    /** Process {@code pid}'s CPU time so far (all its threads, those that ended included), in seconds. */
    double processSeconds(long pid) throws IOException {
        return ticks(Files.readString(proc.resolve(Long.toString(pid)).resolve("stat"))) / (double) ticksPerSecond;
    }

    /** Reads process {@code pid} and its live threads now; {@code nanos} is the reading's time. */
    Snapshot read(long pid, long nanos) throws IOException {
        Path dir = proc.resolve(Long.toString(pid));
        long processTicks = ticks(Files.readString(dir.resolve("stat")));
        Map<Integer, Task> tasks = new HashMap<>();
        try (Stream<Path> threads = Files.list(dir.resolve("task"))) {
            for (Path task : (Iterable<Path>) threads::iterator) {
                try {
                    String comm = Files.readString(task.resolve("comm")).strip();
                    tasks.put(Integer.parseInt(task.getFileName().toString()), new Task(comm, ticks(Files.readString(task.resolve("stat")))));
                } catch (NoSuchFileException ended) {
                    // the thread ended between the listing and the read: its time is in the process's
                }
            }
        }
        return new Snapshot(nanos, processTicks, tasks);
    }

    /**
     * The window from {@code before} to {@code after} by group; {@code names} gives a thread id's full
     * name where known (else its {@code comm} is used).
     */
    Breakdown between(Snapshot before, Snapshot after, Map<Integer, String> names, List<Group> groups) {
        double seconds = (after.nanos() - before.nanos()) / 1e9;
        if (seconds <= 0) {
            throw new IllegalArgumentException("the second snapshot must be later than the first: " + seconds + " s apart");
        }
        Map<String, long[]> byGroup = new LinkedHashMap<>(); // label -> {ticks, threads}
        groups.forEach(g -> byGroup.put(g.label(), new long[2]));
        byGroup.put(OTHER, new long[2]);
        long threadsTicks = 0;
        for (Map.Entry<Integer, Task> entry : after.tasks().entrySet()) {
            Task then = before.tasks().get(entry.getKey());
            long now = entry.getValue().ticks();
            // A thread id not seen before, or whose count went back (the id was reused), started in the window.
            long used = then == null || then.ticks() > now ? now : now - then.ticks();
            String name = names.getOrDefault(entry.getKey(), entry.getValue().comm());
            long[] group = byGroup.get(groups.stream().filter(g -> g.names().matcher(name).matches()).findFirst()
                    .map(Group::label).orElse(OTHER));
            group[0] += used;
            group[1]++;
            threadsTicks += used;
        }
        long exited = Math.max(0, after.processTicks() - before.processTicks() - threadsTicks);
        byGroup.put(EXITED, new long[] {exited, 0});
        List<Share> shares = new ArrayList<>();
        byGroup.forEach((label, t) -> {
            if (t[0] > 0) {
                shares.add(new Share(label, cores(t[0], seconds), (int) t[1]));
            }
        });
        return new Breakdown(seconds, cores(after.processTicks() - before.processTicks(), seconds), List.copyOf(shares));
    }

    private double cores(long ticks, double seconds) {
        return ticks / (double) ticksPerSecond / seconds;
    }

    /**
     * {@code utime + stime} from a {@code stat} line: fields 14 and 15, counted after the name in
     * parentheses, which may itself hold spaces and parentheses (so the last ')' ends it).
     */
    static long ticks(String stat) {
        int end = stat.lastIndexOf(')');
        if (end < 0) {
            throw new UncheckedIOException(new IOException("not a /proc stat line (no ')' after the name): " + stat));
        }
        String[] fields = stat.substring(end + 1).trim().split("\\s+");
        if (fields.length < 13) {
            throw new UncheckedIOException(new IOException("a /proc stat line with " + fields.length
                    + " fields after the name, at least 13 expected: " + stat));
        }
        return Long.parseLong(fields[11]) + Long.parseLong(fields[12]); // fields 14 (utime) and 15 (stime) of the line
    }
}
