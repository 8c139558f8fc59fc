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
     * The measured JVM's thread groups, first match wins: the backplane's, Tomcat's (the app's
     * connector on port 0 is named {@code auto}), the JVM's own, the sample's own threads.
     */
    private static List<ThreadCpu.Group> threadGroups(int actuatorPort) {
        return List.of(
                ThreadCpu.Group.of("backplane workers", "backplane-.+-worker-\\d+"),
                ThreadCpu.Group.of("backplane timer", "backplane-.+-timer"),
                ThreadCpu.Group.of("backplane other", "backplane-.+"),
                ThreadCpu.Group.of("Tomcat request threads", "http-nio-.*-auto-\\d+-exec-\\d+"),
                ThreadCpu.Group.of("Tomcat acceptor/poller", "http-nio-.*-auto-\\d+-(Acceptor|Poller).*"),
                ThreadCpu.Group.of("Tomcat actuator port", "http-nio-.*-" + actuatorPort + "-.+"),
                ThreadCpu.Group.of("Tomcat (15-byte kernel name)", "http-nio-.*"),
                ThreadCpu.Group.of("Tomcat/Spring other", "Catalina-utility-\\d+|container-\\d+|task-\\d+"),
                ThreadCpu.Group.of("JIT compiler", "C[12] CompilerThre.*"),
                ThreadCpu.Group.of("GC", "G1 .+|GC Thread#\\d+"),
                ThreadCpu.Group.of("VM Thread (safepoints)", "VM Thread"),
                ThreadCpu.Group.of("sample pricing-runs (bulk driver)", "pricing-runs"),
                ThreadCpu.Group.of("sample warehouse/payments timers", "warehouse-remote|payments-remote"));
    }

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
     * @param threads where the measured JVM's CPU time went while the load was recorded, by thread group
     */
    record Result(CpuQuotaRun run, long periods, long throttled, double frozenMs, double urgentP50Ms, double urgentP99Ms,
            double urgentMaxMs, long urgentAnswered, long bulkRepriced, List<String> summaries, String autoLine,
            ThreadCpu.Breakdown threads) {

        double throttledShare() {
            return periods == 0 ? 0 : (double) throttled / periods;
        }

        @Override
        public String toString() {
            return String.format(Locale.ROOT, "cpu-limit %s, quota %s: kernel throttled %d of %d periods (%.1f %%), froze the process"
                            + " %.0f ms in all; urgent p50 %.1f ms p99 %.1f ms max %.1f ms (n=%d); bulk re-priced %d%s",
                    run.cpuLimit, run.quotaCores == 0 ? "none" : run.quotaCores + " cores", throttled, periods,
                    100 * throttledShare(), frozenMs, urgentP50Ms, urgentP99Ms, urgentMaxMs, urgentAnswered, bulkRepriced,
                    autoLine == null ? "" : "; last summary: " + autoLine) + "\n    threads: " + threads;
        }

        /** The summary lines of the recorded load, one per line, for the test's report. */
        String summaryLines() {
            return run.cpuLimit + " in quota " + (run.quotaCores == 0 ? "none" : run.quotaCores + " cores") + ":\n    "
                    + String.join("\n    ", summaries);
        }
    }

    Result measure() throws Exception {
        ThreadCpu threadCpu = ThreadCpu.ofThisMachine();
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
                    ThreadCpu.Snapshot threadsBefore = threadCpu.read(measured.pid(), System.nanoTime());
                    int linesBefore = measured.lines().size();
                    Matcher finished = loader.await("load: finished after \\d+s: (\\d+) urgent orders answered, p50=([\\d.]+)ms"
                            + " p99=([\\d.]+)ms max=([\\d.]+)ms.* bulk re-priced (-?\\d+)", WARMUP.plus(this.load).plus(START));
                    long[] after = cgroup == null ? new long[3] : cgroup.periodsAndThrottled();
                    ThreadCpu.Snapshot threadsAfter = threadCpu.read(measured.pid(), System.nanoTime());
                    // after the window: the dump's own cost in the measured JVM is not in it
                    ThreadCpu.Breakdown threads = threadCpu.between(threadsBefore, threadsAfter, JvmThreadNames.of(measured.pid()),
                            threadGroups(actuator));
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
                            Long.parseLong(finished.group(5)), summaries, last, threads);
                }
            }
        } finally {
            if (cgroup != null) {
                cgroup.close();
            }
        }
    }
}
