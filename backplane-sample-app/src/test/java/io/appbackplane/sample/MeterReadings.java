package io.appbackplane.sample;

import io.appbackplane.sample.SideBySideRun.Sample;
import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import tools.jackson.databind.JsonNode;

/**
 * The meters read every interval of the recorded load, on the pacer's one thread; {@link
 * #samples()} and the totals are read after it terminated (its termination is the
 * happens-before edge).
 */
final class MeterReadings {

    private final Http measured;
    private final Http loader;
    private final long startNanos;
    private final long endNanos;
    private final long everyNanos;
    private final double startCpu;
    private final double startBulk;
    private final List<Sample> samples = new ArrayList<>();
    private long lastNanos;
    private double lastCpu;
    private double lastBulk;
    private int skipped;
    private int missed;
    private RuntimeException lastMiss;
    private Throwable failure;

    /**
     * Takes the first reading: the recorded load is counted from its end, which an overloaded
     * instance may answer seconds after the load began; readings stop shortly before {@code
     * recordedUntil} ({@link System#nanoTime}), when the load process ends the load.
     */
    MeterReadings(Http measured, Http loader, long recordedUntil, Duration every) {
        this.measured = measured;
        this.loader = loader;
        this.startCpu = lastCpu = cpuSeconds(measured);
        this.startBulk = lastBulk = repriced(measured);
        this.startNanos = lastNanos = System.nanoTime();
        this.endNanos = recordedUntil;
        this.everyNanos = every.toNanos();
    }

    void read() {
        long now = System.nanoTime();
        if (failure != null || now > endNanos - everyNanos / 4) {
            skipped++;
            return; // the recorded load is (about to be) over: the bulk run is cancelled, the load process exits
        }
        try {
            // Both processes are asked at once: the load process answers at once and exits when
            // its load ends, while the measured instance, overloaded, may take seconds; its
            // answers date the sample.
            CompletableFuture<double[]> urgent = CompletableFuture.supplyAsync(() -> urgentP50AndP99(loader));
            double cpu = cpuSeconds(measured);
            double bulk = repriced(measured);
            long readAt = System.nanoTime(); // the rates run to when the instance answered, not to when the reading began
            double[] p50AndP99 = urgent.join();
            double seconds = (readAt - lastNanos) / 1e9;
            samples.add(new Sample((readAt - startNanos) / 1e9, p50AndP99[0], p50AndP99[1], (bulk - lastBulk) / seconds,
                    (cpu - lastCpu) / seconds));
            lastNanos = readAt;
            lastCpu = cpu;
            lastBulk = bulk;
        } catch (RuntimeException e) {
            // A reading lost (a busy machine, a stale pooled connection): the next one covers the
            // interval since the last good one.
            missed++;
            lastMiss = e;
        } catch (Error e) {
            failure = e; // a periodic task that throws is cancelled silently: keep it for rethrow()
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
    }

    List<Sample> samples() {
        return List.copyOf(samples);
    }

    double bulkPerSecond() {
        return (lastBulk - startBulk) / ((lastNanos - startNanos) / 1e9);
    }

    double cpuCores() {
        return (lastCpu - startCpu) / ((lastNanos - startNanos) / 1e9);
    }

    /** The measured process's CPU time so far, in seconds ({@code process.cpu.time}). */
    static double cpuSeconds(Http meters) {
        JsonNode meter = meter(meters, "process.cpu.time");
        return value(meter) / perSecond(meter);
    }

    /** Re-pricings completed so far. */
    private static double repriced(Http meters) {
        return value(meter(meters, "sample.pricing.repriced"));
    }

    /** An urgent latency percentile over the recent window, in ms; NaN while the window has no request. */
    private static double urgentMs(Http meters, String phi) {
        JsonNode meter = meter(meters, "sample.urgent.latency.percentile?tag=phi:" + phi);
        double ms = value(meter) * 1000 / perSecond(meter);
        return ms > 0 ? ms : Double.NaN;
    }

    private static JsonNode meter(Http meters, String nameAndQuery) {
        HttpResponse<String> response = meters.get("/actuator/metrics/" + nameAndQuery);
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
