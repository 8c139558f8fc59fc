package io.appbackplane.sample;

import io.appbackplane.spring.CpuCgroup;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;

/**
 * One measured run of the side-by-side comparison (docs/why.md): the sample jar in one mode with the
 * {@code quiet} profile, in a CPU cgroup with a quota or in none, loaded for {@code warmup + load}
 * by a second sample process outside the cgroup ({@code --sample.load.target}). While the load is
 * recorded it reads, {@code every} after the last reading ended, the sample's own meters over
 * Actuator on 127.0.0.1: the measured instance's {@code process.cpu.time} and {@code
 * sample.pricing.repriced}, and the load process's urgent latency percentiles ({@code
 * sample.urgent.latency.percentile}, over a window of two intervals). The whole run's urgent percentiles are the load process's final report. In a
 * quota the backplane mode runs with {@code cpu-limit: auto}, as an operator would configure it in
 * a container; without one, with the sample's own {@code 1500m}.
 *
 * @param mode {@code backplane}, {@code baseline} or {@code baseline-virtual}
 * @param quotaCores the cgroup's quota in cores, or 0 for no cgroup
 * @param warmup the load's warm-up (urgent orders only, not recorded), which lets the JIT compiler settle
 * @param load the recorded load: urgent orders and the bulk re-pricing flood
 * @param every how often the meters are read
 */
record SideBySideRun(String mode, double quotaCores, Duration warmup, Duration load, Duration every) {

    static final List<String> MODES = List.of("backplane", "baseline", "baseline-virtual");
    private static final Duration START = Duration.ofMinutes(3); // generous: a shared machine starts a JVM slowly
    private static final String URGENT_PERCENTILE = "/actuator/metrics/sample.urgent.latency.percentile?tag=phi:";

    SideBySideRun {
        if (!MODES.contains(mode)) {
            throw new IllegalArgumentException("mode '" + mode + "' is not one of " + MODES);
        }
    }

    /**
     * One reading of the meters: the seconds since the load's warm-up ended, and the values over the
     * last interval.
     *
     * @param bulkPerSecond NaN when the measured instance did not answer this reading (or answered it
     *     first, with no earlier answer to count from)
     * @param cpuCores read from the process, with or without the instance's answer
     * @param metersAnswered whether the measured instance answered its meters in this reading
     */
    record Sample(double seconds, double urgentP50Ms, double urgentP99Ms, double bulkPerSecond, double cpuCores,
            boolean metersAnswered) {}

    /**
     * What a run measured.
     *
     * @param urgentNotOk urgent requests answered 503 or failed
     * @param bulkPerSecond re-pricings per second over the recorded load (between the first and the last
     *     reading the measured instance answered); NaN if it answered fewer than two
     * @param cpuCores the measured process's CPU time per second over the recorded load
     * @param periods enforcement periods the kernel counted meanwhile (0 without a cgroup)
     * @param throttled of those, periods in which it throttled the process
     */
    record Result(SideBySideRun run, List<Sample> samples, double urgentP50Ms, double urgentP99Ms, double urgentMaxMs,
            long urgentAnswered, long urgentNotOk, double bulkPerSecond, double cpuCores, long periods, long throttled) {

        String quota() {
            return run.quotaCores == 0 ? "none" : String.format(Locale.ROOT, "%.0f core", run.quotaCores);
        }

        /** Readings the measured instance's meters did not answer. */
        long unanswered() {
            return samples.stream().filter(sample -> !sample.metersAnswered()).count();
        }

        /** "meters did not answer for N of M readings", or "" if they answered every one. */
        String unansweredNote() {
            return unanswered() == 0 ? "" : "meters did not answer for " + unanswered() + " of " + samples.size() + " readings";
        }

        @Override
        public String toString() {
            return String.format(Locale.ROOT, "%s, quota %s: urgent p50 %.1f ms p99 %.1f ms max %.1f ms (n=%d, %d not ok);"
                            + " bulk %s; cpu %.2f cores; kernel throttled %d of %d periods%s",
                    run.mode, quota(), urgentP50Ms, urgentP99Ms, urgentMaxMs, urgentAnswered, urgentNotOk,
                    Double.isNaN(bulkPerSecond) ? "unknown" : String.format(Locale.ROOT, "%.0f/s", bulkPerSecond), cpuCores,
                    throttled, periods, unanswered() == 0 ? "" : "; " + unansweredNote());
        }
    }

    /** Runs the measured instance (in {@code cgroup} if not null) and its load; returns what the meters said. */
    Result measure(CpuCgroup cgroup) throws Exception {
        int measuredActuator = freePort();
        List<String> args = new ArrayList<>(List.of("--spring.profiles.active=quiet" + (mode.equals("backplane") ? "" : "," + mode),
                "--server.address=127.0.0.1", "--server.port=0", "--management.server.port=" + measuredActuator));
        if (quotaCores > 0 && mode.equals("backplane")) {
            args.add("--backplane.instances.default.cpu-limit=auto"); // as configured in a container with a quota
        }
        try (SampleProcess measured = SampleProcess.start(cgroup == null ? List.of() : cgroup.launchPrefix(), args)) {
            int port = Integer.parseInt(measured.await("started on port (?!" + measuredActuator + "\\b)(\\d+)", START).group(1));
            measured.await("Started OrderDeskApplication", START); // both servers up: the load may begin
            firstOrder(new Http(port));
            Http measuredMeters = new Http(port, measuredActuator);
            MeterReadings.cpuSeconds(measuredMeters); // the first read of Actuator loads its classes: not while the load is timed
            int loadActuator = freePort();
            String window = (2 * every.toMillis()) + "ms";
            try (SampleProcess loader = SampleProcess.start(List.of("--sample.load.target=http://127.0.0.1:" + port,
                    "--sample.load.duration=" + warmup.plus(load).toMillis() + "ms", "--sample.load.warmup=" + warmup.toMillis() + "ms",
                    "--spring.main.web-application-type=servlet", "--server.port=-1", "--management.server.port=" + loadActuator,
                    "--management.metrics.distribution.expiry.sample.urgent.latency=" + window,
                    "--management.metrics.distribution.buffer-length.sample.urgent.latency=2"))) {
                loader.await("warm-up done; bulk re-pricing .* started", START.plus(warmup));
                long recordedUntil = System.nanoTime() + load.toNanos(); // when the load process ends its load
                long[] before = cgroup == null ? new long[2] : cgroup.periodsAndThrottled();
                MeterReadings readings = new MeterReadings(measuredMeters, cpuClock(measured.pid(), measuredMeters),
                        new Http(-1, loadActuator), recordedUntil, every);
                System.out.println("side-by-side: " + mode + " loaded, quota " + (cgroup == null ? "none" : quotaCores + " cores")
                        + "; reading the meters every " + every.toMillis() + " ms");
                ScheduledExecutorService pacer = Executors.newSingleThreadScheduledExecutor();
                try {
                    // A fixed delay, not a fixed rate: after a slow reading the next waits a whole interval
                    // rather than running at once over a few milliseconds, whose rates would be noise.
                    pacer.scheduleWithFixedDelay(readings::read, every.toNanos(), every.toNanos(), TimeUnit.NANOSECONDS);
                    Matcher finished = loader.await("load: finished after \\d+s: (\\d+) urgent orders answered, p50=([\\d.]+)ms"
                            + " p99=([\\d.]+)ms max=([\\d.]+)ms, (\\d+) answered 503, (\\d+) failed", load.plus(START));
                    long[] after = cgroup == null ? new long[2] : cgroup.periodsAndThrottled();
                    pacer.shutdown();
                    if (!pacer.awaitTermination(Http.TIMEOUT.toSeconds() * 3, TimeUnit.SECONDS)) {
                        throw new IllegalStateException("a reading of the meters did not end");
                    }
                    readings.rethrow();
                    return new Result(this, readings.samples(), Double.parseDouble(finished.group(2)),
                            Double.parseDouble(finished.group(3)), Double.parseDouble(finished.group(4)),
                            Long.parseLong(finished.group(1)), Long.parseLong(finished.group(5)) + Long.parseLong(finished.group(6)),
                            readings.bulkPerSecond(), readings.cpuCores(), after[0] - before[0], after[1] - before[1]);
                } finally {
                    pacer.shutdownNow();
                }
            }
        }
    }

    /**
     * The measured process's CPU time from {@code /proc} (it needs no answer from the instance, which
     * may stop answering under load), or from its Actuator where there is no {@code /proc}. The pid is
     * the JVM's: the cgroup's launcher execs it.
     */
    private static MeterReadings.CpuClock cpuClock(long pid, Http meters) throws IOException, InterruptedException {
        if (!Files.isReadable(Path.of("/proc", Long.toString(pid), "stat"))) {
            return () -> MeterReadings.cpuSeconds(meters);
        }
        ThreadCpu proc = ThreadCpu.ofThisMachine();
        return () -> proc.processSeconds(pid);
    }

    /**
     * Places one order, retrying while requests time out: the first request of a JVM loads and
     * compiles the whole request path, which on a busy machine takes longer than the load's request
     * timeout. Then every mode starts its load with the path loaded.
     */
    private static void firstOrder(Http app) {
        long deadline = System.nanoTime() + START.toNanos();
        while (true) {
            try {
                HttpResponse<String> placed = app.post("/orders", Http.order("sku-0001", 1));
                if (placed.statusCode() != 200) {
                    throw new IllegalStateException("the first order answered " + placed.statusCode() + ": " + placed.body());
                }
                return;
            } catch (IllegalStateException | UncheckedIOException timedOut) {
                String why = String.valueOf(timedOut.getMessage());
                if (System.nanoTime() > deadline || !(why.contains("timed out") || why.contains("no answer"))) {
                    throw timedOut;
                }
            }
        }
    }

    /** A port free on 127.0.0.1 now (the process started next binds it). */
    static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
