package io.appbackplane.sample;

import io.appbackplane.spring.CpuCgroup;
import io.appbackplane.sample.SideBySideRun.Result;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.opentest4j.TestAbortedException;
import org.springframework.boot.convert.DurationStyle;

/**
 * The side-by-side comparison (docs/why.md; run by {@code backplane-sample-app/why/run-side-by-side.sh}):
 * each mode of the sample ({@code backplane}, {@code baseline}, {@code baseline-virtual}) under the
 * same load from a separate process for the same time, without a CPU quota and then in a 1-core
 * cgroup quota; one chart ({@code side-by-side.svg}) and one table ({@code side-by-side.md}) into
 * the output directory, and the table also into the marked part of {@code --doc} if given.
 *
 * <p>Options, each {@code --name=value}: {@code duration} (recorded load per run, default 30s),
 * {@code warmup} (15s), {@code every} (how often the meters are read, 2s), {@code quota} (cores of
 * the cgroup, 1; 0 runs without a cgroup only), {@code modes} (comma-separated, all three),
 * {@code out} (directory, required), {@code doc} (a markdown file with the markers below), {@code
 * note} (a line above the table). Where no cgroup can be made (not root, no cpu controller) the
 * quota half is left out and the output says why; on a JDK older than 21 so is {@code
 * baseline-virtual}.
 */
public final class SideBySide {

    static final String BEGIN = "<!-- side-by-side:begin (written by run-side-by-side.sh) -->";
    static final String END = "<!-- side-by-side:end -->";

    private SideBySide() {
    }

    public static void main(String[] args) throws Exception {
        // Interrupted (Ctrl-C), the sample processes it started end with it.
        Runtime.getRuntime().addShutdownHook(new Thread(() -> ProcessHandle.current().descendants().forEach(ProcessHandle::destroy)));
        Map<String, String> options = options(args);
        Path out = Path.of(required(options, "out"));
        List<Result> results = run(duration(options, "warmup", "15s"), duration(options, "duration", "30s"),
                duration(options, "every", "2s"), Double.parseDouble(options.getOrDefault("quota", "1")),
                List.of(options.getOrDefault("modes", String.join(",", SideBySideRun.MODES)).split(",")));
        String note = options.getOrDefault("note", "");
        if (results.isEmpty()) {
            throw new IllegalStateException("no run could be measured: nothing written");
        }
        write(results, out, note);
        if (!options.getOrDefault("doc", "").isBlank()) {
            updateDoc(Path.of(options.get("doc")), table(results, note));
        }
        System.out.println("side-by-side: wrote " + out.resolve("side-by-side.svg") + " and " + out.resolve("side-by-side.md"));
    }

    /** Runs every mode without a quota, then every mode in a cgroup quota of {@code quotaCores} (if above 0 and possible). */
    static List<Result> run(Duration warmup, Duration load, Duration every, double quotaCores, List<String> modes) throws Exception {
        List<String> runnable = new ArrayList<>();
        for (String mode : modes) {
            if (mode.equals("baseline-virtual") && Runtime.version().feature() < 21) {
                System.out.println("side-by-side: baseline-virtual left out: virtual threads need a JDK 21 or newer, and this is Java "
                        + Runtime.version().feature() + " (run the script with JAVA_HOME set to a JDK 21+)");
            } else {
                runnable.add(mode);
            }
        }
        List<Result> results = new ArrayList<>();
        for (String mode : runnable) {
            report(new SideBySideRun(mode, 0, warmup, load, every), null, results);
        }
        if (quotaCores <= 0) {
            return results;
        }
        for (String mode : runnable) {
            CpuCgroup cgroup;
            try {
                cgroup = CpuCgroup.create("backplane-why-" + mode + "-" + System.nanoTime(), quotaCores);
            } catch (TestAbortedException | AssertionError noCgroup) {
                System.out.println("side-by-side: the CPU quota half is left out: " + noCgroup.getMessage());
                return results;
            }
            try (cgroup) {
                report(new SideBySideRun(mode, quotaCores, warmup, load, every), cgroup, results);
            }
        }
        return results;
    }

    private static void report(SideBySideRun run, CpuCgroup cgroup, List<Result> results) {
        try {
            Result result = run.measure(cgroup);
            System.out.println("side-by-side: " + result);
            results.add(result);
        } catch (Exception | AssertionError failed) {
            // One run that could not be measured (a machine too busy to answer in time) leaves the others standing.
            System.out.println("side-by-side: " + run.mode() + " with quota " + run.quotaCores() + " left out: it failed: " + failed
                    + (failed.getCause() == null ? "" : "; cause: " + failed.getCause()));
        }
    }

    /** Writes {@code side-by-side.svg} and {@code side-by-side.md} into {@code out}. */
    static void write(List<Result> results, Path out, String note) throws IOException {
        Files.createDirectories(out);
        Result first = results.get(0);
        String title = String.format(Locale.ROOT, "The order desk under the same load, %ds per mode: backplane and plain Spring",
                first.run().load().toSeconds());
        Files.writeString(out.resolve("side-by-side.svg"), SideBySideChart.svg(results, title));
        Files.writeString(out.resolve("side-by-side.md"), table(results, note));
    }

    /** The markdown table of {@code results}, with a line saying when and how it was measured. */
    static String table(List<Result> results, String note) {
        Result first = results.get(0);
        StringBuilder md = new StringBuilder();
        md.append(String.format(Locale.ROOT, "%sMeasured %s on a machine with %d cores (load average %s at the end), Java %s:"
                        + " %ds of recorded load per run after a %ds warm-up, the load from a separate process.%n%n",
                note.isBlank() ? "" : "**" + note.strip() + "** ", Instant.now().truncatedTo(ChronoUnit.MINUTES),
                Runtime.getRuntime().availableProcessors(), loadAverage(), Runtime.version().feature(),
                first.run().load().toSeconds(), first.run().warmup().toSeconds()));
        md.append("| mode | CPU quota | urgent p50 | urgent p99 | urgent max | urgent answered (503 or failed)"
                + " | bulk re-pricings/s | process CPU | kernel-throttled periods |\n");
        md.append("|---|---|---:|---:|---:|---:|---:|---:|---:|\n");
        for (Result r : results) {
            md.append(String.format(Locale.ROOT, "| %s | %s | %.1f ms | %.1f ms | %.0f ms | %d (%d) | %s | %.2f cores | %s |%n",
                    r.run().mode(), r.quota(), r.urgentP50Ms(), r.urgentP99Ms(), r.urgentMaxMs(), r.urgentAnswered(), r.urgentNotOk(),
                    bulk(r), r.cpuCores(), r.periods() == 0 ? "-"
                            : String.format(Locale.ROOT, "%d of %d (%.0f %%)", r.throttled(), r.periods(), 100.0 * r.throttled() / r.periods())));
        }
        return md.toString();
    }

    /**
     * The run's re-pricings per second, and how many readings the instance's meters left unanswered
     * if any; "meters did not answer" instead of a number when they answered too few to count.
     */
    private static String bulk(Result r) {
        if (Double.isNaN(r.bulkPerSecond())) {
            return r.unanswered() == 0 ? "meters answered fewer than two readings" : r.unansweredNote();
        }
        return String.format(Locale.ROOT, "%.0f", r.bulkPerSecond()) + (r.unanswered() == 0 ? "" : " (" + r.unansweredNote() + ")");
    }

    /** Replaces what stands between {@link #BEGIN} and {@link #END} in {@code doc} with {@code table}. */
    static void updateDoc(Path doc, String table) throws IOException {
        String text = Files.readString(doc);
        int begin = text.indexOf(BEGIN);
        int end = text.indexOf(END);
        if (begin < 0 || end < begin) {
            throw new IllegalArgumentException(doc + " has no '" + BEGIN + "' ... '" + END + "' part to write the table into");
        }
        Files.writeString(doc, text.substring(0, begin + BEGIN.length()) + "\n" + table + text.substring(end));
    }

    private static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
        } catch (IOException e) {
            return "unknown";
        }
    }

    private static Map<String, String> options(String[] args) {
        Map<String, String> options = new LinkedHashMap<>();
        for (String arg : args) {
            int equals = arg.indexOf('=');
            if (!arg.startsWith("--") || equals < 0) {
                throw new IllegalArgumentException("argument '" + arg + "' is not --name=value; names: duration, warmup, every, quota,"
                        + " modes, out, doc, note");
            }
            options.put(arg.substring(2, equals), arg.substring(equals + 1));
        }
        return options;
    }

    private static String required(Map<String, String> options, String name) {
        String value = options.get(name);
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException("--" + name + "=... is required; given: " + Arrays.toString(options.keySet().toArray()));
        }
        return value;
    }

    private static Duration duration(Map<String, String> options, String name, String fallback) {
        String value = options.getOrDefault(name, fallback);
        try {
            Duration duration = DurationStyle.detectAndParse(value);
            if (duration.isNegative() || duration.isZero()) {
                throw new IllegalArgumentException("not positive");
            }
            return duration;
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--" + name + "=" + value + " is not a positive duration such as 30s or 500ms", e);
        }
    }
}
