package io.appbackplane.sample.load;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.distribution.HistogramGauges;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;
import org.springframework.stereotype.Component;

/**
 * What the load generator measured, client side: the latency of urgent order requests over HTTP
 * (an HdrHistogram {@link Recorder} for the summary's percentiles, and the Micrometer timer {@code
 * sample.urgent.latency} with p50/p99), and how requests ended
 * ({@code sample.urgent.requests} by outcome). Recording is thread-safe and wait-free.
 *
 * <p>The p50 and p99 are also gauges, {@value #URGENT_LATENCY_PERCENTILE} tagged {@code phi}
 * ({@code 0.5}, {@code 0.99}): {@code /actuator/metrics} shows only meters, and a Prometheus
 * registry keeps a timer's percentiles inside its own exposition.
 */
@Component
public class LoadStats {

    /** Urgent request latency (timer with published p50 and p99). */
    public static final String URGENT_LATENCY = "sample.urgent.latency";
    /** The p50 and p99 of {@link #URGENT_LATENCY} as gauges, tag {@code phi}. */
    public static final String URGENT_LATENCY_PERCENTILE = URGENT_LATENCY + ".percentile";
    /** Urgent requests by outcome: ok, rejected (503), failed, skipped (too many in flight). */
    public static final String URGENT_REQUESTS = "sample.urgent.requests";

    private final Recorder recorder = new Recorder(3);
    private final Histogram wholeRun = new Histogram(3);
    private final Timer latency;
    private final Counter ok;
    private final Counter rejected;
    private final Counter failed;
    private final Counter skipped;

    public LoadStats(MeterRegistry registry) {
        this.latency = Timer.builder(URGENT_LATENCY)
                .description("Latency of urgent order requests sent by the load generator over HTTP")
                .publishPercentiles(0.5, 0.99)
                .register(registry);
        HistogramGauges.registerWithCommonFormat(latency, registry);
        this.ok = counter(registry, "ok");
        this.rejected = counter(registry, "rejected");
        this.failed = counter(registry, "failed");
        this.skipped = counter(registry, "skipped");
    }

    private static Counter counter(MeterRegistry registry, String outcome) {
        return Counter.builder(URGENT_REQUESTS).tag("outcome", outcome)
                .description("Urgent order requests sent by the load generator, by outcome").register(registry);
    }

    /** An urgent request answered 2xx after {@code nanos}. */
    public void answered(long nanos) {
        recorder.recordValue(Math.max(1, nanos / 1_000));
        latency.record(nanos, TimeUnit.NANOSECONDS);
        ok.increment();
    }

    /** An urgent request answered 503 (rejected by the backplane). */
    public void rejected() {
        rejected.increment();
    }

    /** An urgent request that failed otherwise (another status, a timeout, an I/O error). */
    public void failed() {
        failed.increment();
    }

    /** A tick that sent nothing because too many urgent requests were in flight. */
    public void skipped() {
        skipped.increment();
    }

    /** Urgent latencies (µs) since the previous call; also added to the whole run's histogram. */
    public synchronized Histogram interval() {
        Histogram interval = recorder.getIntervalHistogram();
        wholeRun.add(interval);
        return interval;
    }

    /** Urgent latencies (µs) of the whole run so far, up to the last {@link #interval()}. */
    public synchronized Histogram wholeRun() {
        return wholeRun.copy();
    }

    public long rejectedCount() {
        return (long) rejected.count();
    }

    public long failedCount() {
        return (long) failed.count();
    }

    public long answeredCount() {
        return (long) ok.count();
    }
}
