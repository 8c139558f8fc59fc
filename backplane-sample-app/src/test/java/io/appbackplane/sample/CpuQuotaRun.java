package io.appbackplane.sample;

import io.appbackplane.spring.CpuCgroup;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;

/**
 * One measured run: the sample jar with the {@code quiet} profile and a given {@code cpu-limit},
 * in a child CPU cgroup with a quota (or in none), loaded for {@code load} by a second sample
 * process outside the cgroup ({@code --sample.load.target}); the kernel's throttling counted by the
 * cgroup's {@code cpu.stat} over the recorded part of the load, and the urgent latencies the load
 * process reports.
 *
 * @param cpuLimit the measured instance's {@code cpu-limit}
 * @param quotaCores the cgroup's quota in cores, or 0 for no cgroup
 * @param settle how long a first load process runs before the measured one (zero: none), so that the
 *     measured instance's JIT compiler has done its start-up work, which in a 1-core quota takes
 *     tens of seconds and alone takes the process over its quota
 * @param load the recorded load
 */
record CpuQuotaRun(String cpuLimit, double quotaCores, Duration settle, Duration load) {

    private static final Duration START = Duration.ofMinutes(5); // generous: a shared machine starts a JVM slowly
    /** The measured load process's warm-up: urgent orders only, not recorded; then the bulk run starts. */
    private static final Duration WARMUP = Duration.ofSeconds(3);

    /**
     * What a run measured.
     *
     * @param periods enforcement periods the kernel counted while the load was recorded (0 without a cgroup)
     * @param throttled of those, periods in which the kernel throttled the process
     * @param frozenMs the time the kernel held the process's threads frozen meanwhile (the cgroup's throttled time)
     * @param summaries the measured instance's summary lines logged while the load was recorded: its
     *     urgent priority's queue wait (mean and 99th percentile), CPU used against the limit, how long
     *     the backplane held ready work for budget
     * @param autoLine the last summary line it logged, which shows what an {@code auto} limit follows;
     *     null if none
     */
    record Result(CpuQuotaRun run, long periods, long throttled, double frozenMs, double urgentP50Ms, double urgentP99Ms,
            double urgentMaxMs, long urgentAnswered, long bulkRepriced, List<String> summaries, String autoLine) {

        double throttledShare() {
            return periods == 0 ? 0 : (double) throttled / periods;
        }

        @Override
        public String toString() {
            return String.format(Locale.ROOT, "cpu-limit %s, quota %s: kernel throttled %d of %d periods (%.1f %%), froze the process"
                            + " %.0f ms in all; urgent p50 %.1f ms p99 %.1f ms max %.1f ms (n=%d); bulk re-priced %d%s",
                    run.cpuLimit, run.quotaCores == 0 ? "none" : run.quotaCores + " cores", throttled, periods,
                    100 * throttledShare(), frozenMs, urgentP50Ms, urgentP99Ms, urgentMaxMs, urgentAnswered, bulkRepriced,
                    autoLine == null ? "" : "; last summary: " + autoLine);
        }

        /** The summary lines of the recorded load, one per line, for the test's report. */
        String summaryLines() {
            return run.cpuLimit + " in quota " + (run.quotaCores == 0 ? "none" : run.quotaCores + " cores") + ":\n    "
                    + String.join("\n    ", summaries);
        }
    }

    Result measure() throws Exception {
        CpuCgroup cgroup = quotaCores > 0
                ? CpuCgroup.create("backplane-sample-" + cpuLimit + "-" + System.nanoTime(), quotaCores) : null;
        try {
            int actuator = SideBySideRun.freePort(); // not the sample's 8090: another instance may hold it
            List<String> args = new ArrayList<>(List.of("--spring.profiles.active=quiet", "--server.address=127.0.0.1",
                    "--server.port=0", "--management.server.port=" + actuator, "--backplane.instances.default.cpu-limit=" + cpuLimit,
                    "--sample.report.interval=2s"));
            try (SampleProcess measured = SampleProcess.start(cgroup == null ? List.of() : cgroup.launchPrefix(), args)) {
                int port = Integer.parseInt(measured.await("started on port (?!" + actuator + "\\b)(\\d+)", START).group(1));
                if (!settle.isZero()) {
                    try (SampleProcess settling = SampleProcess.start(List.of("--sample.load.target=http://127.0.0.1:" + port,
                            "--sample.load.duration=" + settle.toSeconds() + "s", "--sample.load.warmup=1s"))) {
                        settling.await("load: finished after", settle.plus(START));
                    }
                }
                try (SampleProcess loader = SampleProcess.start(List.of("--sample.load.target=http://127.0.0.1:" + port,
                        "--sample.load.duration=" + WARMUP.plus(this.load).toSeconds() + "s", "--sample.load.warmup=" + WARMUP.toSeconds() + "s"))) {
                    loader.await("warm-up done; bulk re-pricing .* started", START);
                    long[] before = cgroup == null ? new long[3] : cgroup.periodsAndThrottled();
                    int linesBefore = measured.lines().size();
                    Matcher finished = loader.await("load: finished after \\d+s: (\\d+) urgent orders answered, p50=([\\d.]+)ms"
                            + " p99=([\\d.]+)ms max=([\\d.]+)ms.* bulk re-priced (-?\\d+)", WARMUP.plus(this.load).plus(START));
                    long[] after = cgroup == null ? new long[3] : cgroup.periodsAndThrottled();
                    List<String> summaries = new ArrayList<>();
                    String last = null;
                    List<String> lines = measured.lines();
                    for (int i = 0; i < lines.size(); i++) {
                        String line = lines.get(i);
                        if (line.contains("summary:")) {
                            last = line.substring(line.indexOf("summary:"));
                            if (i >= linesBefore) {
                                summaries.add(last);
                            }
                        }
                    }
                    return new Result(this, after[0] - before[0], after[1] - before[1], (after[2] - before[2]) / 1000.0,
                            Double.parseDouble(finished.group(2)), Double.parseDouble(finished.group(3)),
                            Double.parseDouble(finished.group(4)), Long.parseLong(finished.group(1)),
                            Long.parseLong(finished.group(5)), summaries, last);
                }
            }
        } finally {
            if (cgroup != null) {
                cgroup.close();
            }
        }
    }
}
