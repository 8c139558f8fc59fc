package io.appbackplane.benchmarks;

import io.appbackplane.Backplane;
import io.appbackplane.spring.metrics.BackplaneHistograms;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Warmup;

/**
 * H1, the cost of the starter's {@code backplane.metrics.histograms} (docs/benchmarks.md, H1): the
 * keyed workload of {@link KeyedInstrumentCost} with {@code histograms=off} (no action observer:
 * the core's hook is one null check) and {@code on} (the starter's {@link BackplaneHistograms},
 * bound to a Prometheus registry as in a scraped application).
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 3, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
@Warmup(iterations = 4, time = 2)
@Measurement(iterations = 5, time = 2)
public class H1HistogramCost extends KeyedInstrumentCost {

    @Param({"off", "on"})
    public String histograms;

    @Override
    String name() {
        return "h1";
    }

    @Override
    PrometheusMeterRegistry instrument(Backplane.Builder builder) {
        switch (histograms) {
            case "off":
                return null;
            case "on":
                BackplaneHistograms timers = new BackplaneHistograms(List.of(0.5, 0.95, 0.99));
                PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
                timers.bindTo(registry);
                timers.customize(name(), builder);
                return registry;
            default:
                throw new IllegalArgumentException("histograms=" + histograms + "; allowed: off, on");
        }
    }

    @Override
    String countingMeter() {
        return BackplaneHistograms.ACTION_RUN_TIME;
    }
}
