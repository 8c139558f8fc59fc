package io.appbackplane.benchmarks.report;

import io.appbackplane.benchmarks.report.JmhReport.Result;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.stream.Collectors;

/**
 * Each W1 and W2 fork's score beside the machine's mode it started in. The forks append their
 * core-to-core round trip to {@code fork-modes.jsonl} ({@code CoreToCore.recordAtTrialStart}), one
 * line per fork in the order JMH ran them, which is the order of a result's {@code rawData}; so the
 * lines of one benchmark and parameter set pair up with its per-fork means. If a file holds more
 * lines for a result than it has forks (runs appended to one file), the last ones are its forks.
 *
 * <p>A fork is fast when its round trip was under {@link #SLOW_FROM_NANOS}: on the machine of
 * docs/benchmarks.md the fast mode measures 49–105 ns and the slow mode 384–456 ns.
 */
final class ForkModes {

    /** Round trips from here up are the slow mode. */
    static final long SLOW_FROM_NANOS = 200;

    private final Map<String, List<Long>> roundTripsByRun = new HashMap<>();

    private ForkModes() {}

    /** Reads the lines of a mode file. */
    @SuppressWarnings("unchecked")
    static ForkModes read(Path file) throws IOException {
        ForkModes modes = new ForkModes();
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            if (line.isBlank()) {
                continue;
            }
            Map<String, Object> l = (Map<String, Object>) Json.parse(line);
            Matcher m = JmhReport.WORKLOAD.matcher(String.valueOf(l.get("benchmark")));
            if (!m.find()) {
                throw new IllegalArgumentException("not a W<n> benchmark in " + file + ": " + line);
            }
            Map<String, String> params = new TreeMap<>();
            ((Map<String, Object>) l.get("params")).forEach((k, v) -> params.put(k, String.valueOf(v)));
            long roundTrip = ((Double) l.get("roundTripNs")).longValue();
            modes.roundTripsByRun.computeIfAbsent(key(m.group(1), m.group(2), params), k -> new ArrayList<>()).add(roundTrip);
        }
        return modes;
    }

    private static String key(String workload, String method, Map<String, String> params) {
        return workload + "." + method + params;
    }

    /** The round trip each of {@code r}'s forks started with, in fork order; empty if not recorded. */
    List<Long> of(Result r) {
        List<Long> all = roundTripsByRun.getOrDefault(key(r.workload(), r.method(), r.params()), List.of());
        int forks = r.forkMeans().size();
        return all.size() < forks ? List.of() : all.subList(all.size() - forks, all.size());
    }

    /**
     * One row per result with recorded modes: its fast forks' and slow forks' means (M tasks per
     * second, in fork order), and the round trips they started with.
     */
    void table(List<Result> results, PrintStream out) {
        out.println("| benchmark | work | peer | workers | fast forks (M/s) | slow forks (M/s) | round trips (ns) |");
        out.println("|---|---|---|---:|---|---|---|");
        for (Result r : results) {
            List<Long> roundTrips = of(r);
            if (roundTrips.isEmpty()) {
                continue;
            }
            List<String> fast = new ArrayList<>();
            List<String> slow = new ArrayList<>();
            for (int i = 0; i < roundTrips.size(); i++) {
                String mean = String.format(Locale.ROOT, "%.2f", r.forkMeans().get(i) / 1e6);
                (roundTrips.get(i) < SLOW_FROM_NANOS ? fast : slow).add(mean);
            }
            out.println("| " + r.workload() + "." + r.method() + " | " + r.work() + " | " + r.peer() + " | " + r.workers() + " | "
                    + String.join(", ", fast) + " | " + String.join(", ", slow) + " | "
                    + roundTrips.stream().map(String::valueOf).collect(Collectors.joining(", ")) + " |");
        }
    }
}
