package io.appbackplane.benchmarks;

import io.appbackplane.Backplane;
import io.appbackplane.spring.observation.BackplaneObservations;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Warmup;

/**
 * H2, the cost of the starter's {@code backplane.observations.enabled}: the keyed workload of
 * {@link KeyedInstrumentCost} with {@code observations=off} (no action tracer: the core's hook is
 * one null check) and {@code on} (the starter's {@link BackplaneObservations} on an {@link
 * ObservationRegistry} whose only handler records each observation as a timer in a Prometheus
 * registry, which is what Spring Boot's Actuator sets up without a tracing bridge). A tracing
 * bridge (spans exported) would cost more on top.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 3, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
@Warmup(iterations = 4, time = 2)
@Measurement(iterations = 5, time = 2)
public class H2ObservationCost extends KeyedInstrumentCost {

    @Param({"off", "on"})
    public String observations;

    @Override
    String name() {
        return "h2";
    }

    @Override
    PrometheusMeterRegistry instrument(Backplane.Builder builder) {
        switch (observations) {
            case "off":
                return null;
            case "on":
                PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
                ObservationRegistry handlers = ObservationRegistry.create();
                handlers.observationConfig().observationHandler(new DefaultMeterObservationHandler(registry));
                new BackplaneObservations(handlers).customize(name(), builder);
                return registry;
            default:
                throw new IllegalArgumentException("observations=" + observations + "; allowed: off, on");
        }
    }

    @Override
    String countingMeter() {
        return BackplaneObservations.RUN;
    }
}
