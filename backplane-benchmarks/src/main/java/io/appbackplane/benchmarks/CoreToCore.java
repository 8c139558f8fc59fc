package io.appbackplane.benchmarks;

import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * Measures how long a cache line takes to go from one core to another and back: two threads hand
 * a counter to each other through one {@link AtomicLong}, each spinning until it is its turn. On
 * the 2-vCPU VM the results page was measured on, the round trip is about 50 ns in what
 * docs/benchmarks.md calls the fast mode and about 420 ns in the slow mode (the host places the
 * two vCPUs far apart), which is what every hand-off between a producer and a worker pays. W1 and
 * W2 print it at the start of each trial, so that a fork's score can be read next to the mode it
 * ran in (measured before the warm-up: the host may move a vCPU later in the fork, so it tells the
 * mode at the start), and append it as one JSON line to {@link #MODE_FILE} ({@code
 * fork-modes.jsonl} in the working directory by default), which {@code JmhReport} reads to put each
 * fork's score beside its mode; {@code run-results.sh} also logs it before each workload. Run it
 * alone with {@code java -cp backplane-benchmarks/target/benchmarks.jar
 * io.appbackplane.benchmarks.CoreToCore}.
 */
public final class CoreToCore {

    private static final Duration ROUND = Duration.ofMillis(100);
    private static final int ROUNDS = 5;

    private CoreToCore() {}

    public static void main(String[] args) throws InterruptedException {
        System.out.println(describe(ROUNDS));
    }

    /**
     * The file each W1 and W2 fork appends its mode to, one JSON line per fork: {@code
     * -Dbench.modeFile=PATH} (as W3's {@code bench.latencyFile}); by default {@code fork-modes.jsonl}
     * in the working directory.
     */
    static final String MODE_FILE = System.getProperty("bench.modeFile", "fork-modes.jsonl");

    /**
     * At the start of a W1 or W2 trial (the fork's mode): prints the round trip on a line of its own
     * and appends it, with the benchmark and its parameters, to the mode file.
     */
    static void recordAtTrialStart(BenchmarkParams params) throws InterruptedException {
        double[] rounds = measure(3);
        System.out.printf("%n%s%n", describe(rounds));
        if (rounds.length == 0) {
            return; // one processor: no mode to record
        }
        StringBuilder values = new StringBuilder();
        for (String key : params.getParamsKeys()) {
            values.append(values.length() == 0 ? "" : ",").append('"').append(key).append("\":\"")
                    .append(params.getParam(key)).append('"');
        }
        String line = String.format(Locale.ROOT,
                "{\"benchmark\":\"%s\",\"params\":{%s},\"roundTripNs\":%d,\"jdk\":\"%s\",\"startedAt\":\"%s\"}%n",
                params.getBenchmark(), values, Math.round(median(rounds)), Runtime.version(), Instant.now());
        JsonLines.append(MODE_FILE, line, "the fork's mode");
    }

    /** One line for a log: the median round trip over {@code rounds} rounds of 100 ms, and each round's. */
    static String describe(int rounds) throws InterruptedException {
        return describe(measure(rounds));
    }

    /** The round trip of each of {@code rounds} rounds of 100 ms, in ns; none on one processor. */
    private static double[] measure(int rounds) throws InterruptedException {
        if (Runtime.getRuntime().availableProcessors() < 2) {
            return new double[0];
        }
        double[] nanos = new double[rounds];
        for (int i = 0; i < rounds; i++) {
            nanos[i] = roundTripNanos(ROUND);
        }
        return nanos;
    }

    private static String describe(double[] nanos) {
        if (nanos.length == 0) {
            return "core-to-core round trip: n/a (one processor: each hand-off would wait for a time slice)";
        }
        StringBuilder each = new StringBuilder();
        for (double n : nanos) {
            each.append(each.length() == 0 ? "" : ", ").append(Math.round(n));
        }
        return String.format(Locale.ROOT, "core-to-core round trip: %d ns (median of %d rounds of %d ms: %s ns)",
                Math.round(median(nanos)), nanos.length, ROUND.toMillis(), each);
    }

    private static double median(double[] nanos) {
        double[] sorted = nanos.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }

    /**
     * The mean time, in ns, for the counter to go to the other thread and back, over about {@code
     * duration}. The two threads busy both cores of a 2-core machine while it runs.
     */
    static double roundTripNanos(Duration duration) throws InterruptedException {
        AtomicLong turn = new AtomicLong(); // even: this thread's turn; odd: the echo's
        AtomicBoolean done = new AtomicBoolean();
        Thread echo = new Thread(() -> {
            for (long next = 1; ; next += 2) {
                while (turn.get() != next) {
                    if (done.get()) {
                        return;
                    }
                    Thread.onSpinWait();
                }
                turn.set(next + 1);
            }
        }, "core-to-core-echo");
        echo.setDaemon(true);
        echo.start();
        long start = System.nanoTime();
        long deadline = start + duration.toNanos();
        long value = 0;
        long trips = 0;
        while (true) {
            turn.set(value + 1);
            while (turn.get() != value + 2) {
                Thread.onSpinWait();
            }
            value += 2;
            trips++;
            if ((trips & 1023) == 0 && System.nanoTime() >= deadline) {
                break;
            }
        }
        long elapsed = System.nanoTime() - start;
        done.set(true); // the echo leaves at its next look
        echo.join(Duration.ofSeconds(10).toMillis());
        return (double) elapsed / trips;
    }
}
