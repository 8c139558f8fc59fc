package io.appbackplane.sample;

import io.appbackplane.sample.SideBySideRun.Sample;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import tools.jackson.databind.JsonNode;

/**
 * The meters read every interval of the recorded load, on the pacer's one thread; {@link
 * #samples()} and the totals are read after it terminated (its termination is the
 * happens-before edge).
 *
 * <p>The measured instance may stop answering its Actuator while it is loaded ({@code
 * baseline-virtual}: its management server's request threads are virtual threads too, queued
 * behind the bulk re-pricings that hold every carrier thread). A reading then still counts: its
 * process CPU comes from a {@link CpuClock} that needs no answer from the instance, its urgent
 * percentiles from the load process, and its re-pricings are unknown ({@link Sample#metersAnswered()}
 * false). The instance is asked for its re-pricing count once at a time; a reading waits for the
 * answer at most one interval, and a question left unanswered carries over to the next reading
 * until the HTTP client's timeout ends it.
 */
final class MeterReadings {

    /** The measured process's CPU time so far, in seconds, read without the process's help. */
    @FunctionalInterface
    interface CpuClock {
        double seconds() throws IOException;
    }

    /** The instance's re-pricing count, and when its answer arrived ({@link System#nanoTime}). */
    private record Count(double repriced, long nanos) {}

    private final Http measured;
    private final CpuClock cpu;
    private final Http loader;
    private final long startNanos;
    private final long endNanos;
    private final long everyNanos;
    private final double startCpu;
    private final List<Sample> samples = new ArrayList<>();
    private CompletableFuture<Count> asked;
    private Count firstCount;
    private Count lastCount;
    private long lastNanos;
    private double lastCpu;
    private int skipped;
    private int missed;
    private int unanswered;
    private RuntimeException lastMiss;
    private Throwable lastNoAnswer;
    private Throwable failure;

    /**
     * Takes the first reading: the recorded load is counted from it; readings stop shortly before
     * {@code recordedUntil} ({@link System#nanoTime}), when the load process ends the load. The
     * re-pricing rates start at the first reading the instance answered.
     */
    MeterReadings(Http measured, CpuClock cpu, Http loader, long recordedUntil, Duration every) {
        this.measured = measured;
        this.cpu = cpu;
        this.loader = loader;
        this.endNanos = recordedUntil;
        this.everyNanos = every.toNanos();
        this.firstCount = lastCount = count();
        this.startNanos = lastNanos = System.nanoTime();
        this.startCpu = lastCpu = cpuSeconds();
    }

    void read() {
        long now = System.nanoTime();
        if (failure != null || now > endNanos - everyNanos / 4) {
            skipped++;
            return; // the recorded load is (about to be) over: the bulk run is cancelled, the load process exits
        }
        try {
            // Both processes are asked at once: the load process answers at once and exits when
            // its load ends, while the measured instance, overloaded, may take up to an interval
            // or not answer at all.
            CompletableFuture<double[]> urgent = CompletableFuture.supplyAsync(() -> urgentP50AndP99(loader));
            Count count = count();
            long readAt = System.nanoTime();
            double cpuNow = cpuSeconds();
            double[] p50AndP99 = urgent.join();
            double bulk = Double.NaN;
            if (count != null) {
                if (lastCount != null) { // the rate since the last answer, over the readings the instance left unanswered
                    bulk = (count.repriced() - lastCount.repriced()) / ((count.nanos() - lastCount.nanos()) / 1e9);
                }
                if (firstCount == null) {
                    firstCount = count;
                }
                lastCount = count;
            }
            samples.add(new Sample((readAt - startNanos) / 1e9, p50AndP99[0], p50AndP99[1], bulk,
                    (cpuNow - lastCpu) / ((readAt - lastNanos) / 1e9), count != null));
            lastNanos = readAt;
            lastCpu = cpuNow;
        } catch (RuntimeException e) {
            // A reading lost (the CPU clock or the load process failed): the next one covers the
            // interval since the last good one.
            missed++;
            lastMiss = e;
        } catch (Error e) {
            failure = e; // a periodic task that throws is cancelled silently: keep it for rethrow()
        }
    }

    /**
     * The instance's re-pricing count if it answers within an interval; null if it does not (the
     * question stays open for the next reading, unless it failed).
     */
    private Count count() {
        if (asked == null) {
            asked = measured.getAsync("/actuator/metrics/sample.pricing.repriced")
                    .thenApply(response -> new Count(value(ok(response, "sample.pricing.repriced")), System.nanoTime()));
        }
        try {
            Count count = asked.get(everyNanos, TimeUnit.NANOSECONDS);
            asked = null;
            return count;
        } catch (TimeoutException stillOpen) {
            lastNoAnswer = stillOpen;
        } catch (ExecutionException noAnswer) {
            asked = null; // timed out, refused or answered with an error: ask anew next time
            lastNoAnswer = noAnswer.getCause();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while reading the meters", e);
        }
        unanswered++;
        return null;
    }

    private double cpuSeconds() {
        try {
            return cpu.seconds();
        } catch (IOException e) {
            throw new UncheckedIOException("reading the measured process's CPU time failed", e);
        }
    }

    /**
     * The load process's urgent p50 and p99 over the recent window; unknown (NaN) when it no
     * longer answers (its load ended while the reading waited for the measured instance).
     */
    private static double[] urgentP50AndP99(Http loader) {
        try {
            return new double[] {urgentMs(loader, "0.5"), urgentMs(loader, "0.99")};
        } catch (UncheckedIOException loadEnded) {
            return new double[] {Double.NaN, Double.NaN};
        }
    }

    void rethrow() {
        if (failure != null) {
            throw new IllegalStateException("reading the meters failed: " + failure, failure);
        }
        if (samples.isEmpty()) {
            throw new IllegalStateException("the load ended before the first reading of the meters (" + skipped
                    + " readings came too late, " + missed + " failed: is the machine too busy for a reading every "
                    + everyNanos / 1_000_000 + " ms?)", lastMiss);
        }
        if (missed > 0) {
            System.out.println("side-by-side: " + missed + " of " + (missed + samples.size()) + " readings of the meters failed"
                    + " and were left out; the last: " + lastMiss);
        }
        if (unanswered > 0) {
            System.out.println("side-by-side: the measured instance's meters did not answer " + unanswered + " of "
                    + (samples.size() + 1) + " readings (the first at the start) within " + everyNanos / 1_000_000
                    + " ms; its re-pricings are unknown for those; the last: " + lastNoAnswer);
        }
    }

    List<Sample> samples() {
        return List.copyOf(samples);
    }

    /** Readings, the one at the start included, whose re-pricing count the instance did not answer. */
    int unanswered() {
        return unanswered;
    }

    /** Re-pricings per second between the first and the last reading the instance answered; NaN with fewer than two. */
    double bulkPerSecond() {
        if (firstCount == null || lastCount == firstCount) {
            return Double.NaN;
        }
        return (lastCount.repriced() - firstCount.repriced()) / ((lastCount.nanos() - firstCount.nanos()) / 1e9);
    }

    double cpuCores() {
        return (lastCpu - startCpu) / ((lastNanos - startNanos) / 1e9);
    }

    /** The measured process's CPU time so far, in seconds ({@code process.cpu.time}). */
    static double cpuSeconds(Http meters) {
        JsonNode meter = meter(meters, "process.cpu.time");
        return value(meter) / perSecond(meter);
    }

    /** An urgent latency percentile over the recent window, in ms; NaN while the window has no request. */
    private static double urgentMs(Http meters, String phi) {
        JsonNode meter = meter(meters, "sample.urgent.latency.percentile?tag=phi:" + phi);
        double ms = value(meter) * 1000 / perSecond(meter);
        return ms > 0 ? ms : Double.NaN;
    }

    private static JsonNode meter(Http meters, String nameAndQuery) {
        return ok(meters.get("/actuator/metrics/" + nameAndQuery), nameAndQuery);
    }

    /** The meter {@code response} holds, if it is a 200. */
    private static JsonNode ok(HttpResponse<String> response, String nameAndQuery) {
        if (response.statusCode() != 200) {
            throw new IllegalStateException("/actuator/metrics/" + nameAndQuery + " answered " + response.statusCode() + ": "
                    + response.body());
        }
        return Http.json(response);
    }

    private static double value(JsonNode meter) {
        JsonNode measurements = meter.get("measurements");
        if (measurements == null || measurements.isEmpty()) {
            throw new IllegalStateException(meter.get("name") + " has no measurement: " + meter);
        }
        return measurements.get(0).get("value").asDouble();
    }

    /** How many of the meter's base unit make a second. */
    private static double perSecond(JsonNode meter) {
        JsonNode unit = meter.get("baseUnit");
        return switch (unit == null ? "" : unit.asString()) {
            case "ns", "nanoseconds" -> 1e9;
            case "ms", "milliseconds" -> 1e3;
            case "s", "seconds" -> 1;
            default -> throw new IllegalStateException(meter.get("name") + " has base unit " + unit + "; expected a time unit");
        };
    }
}
