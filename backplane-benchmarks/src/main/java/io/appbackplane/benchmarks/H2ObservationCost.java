package io.appbackplane.benchmarks;

import io.appbackplane.Action;
import io.appbackplane.Backplane;
import io.appbackplane.BackplaneComponent;
import io.appbackplane.BackplanePolicy;
import io.appbackplane.ComponentSpec;
import io.appbackplane.CpuLimit;
import io.appbackplane.spring.observation.BackplaneObservations;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * H2, the cost of the starter's {@code backplane.observations.enabled}: H1's keyed workload (tasks
 * on {@link Workloads#KEYS} keys, one in eight urgent, a window of {@link Workloads#WINDOW} in
 * flight) through a plain backplane, with {@code observations=off} (no action tracer: the core's
 * hook is one null check) and {@code on} (the starter's {@link BackplaneObservations} on an
 * {@link ObservationRegistry} whose only handler records each observation as a timer in a
 * Prometheus registry, which is what Spring Boot's Actuator sets up without a tracing bridge). The
 * score is tasks run per second; the difference between the rows is the observations' cost per
 * action at this load. A tracing bridge (spans exported) would cost more on top.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(Scope.Benchmark)
@Fork(value = 3, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
@Warmup(iterations = 4, time = 2)
@Measurement(iterations = 5, time = 2)
public class H2ObservationCost {

    @Param({"off", "on"})
    public String observations;

    @Param({"tiny", "5us"})
    public String work;

    @Param("2")
    public int workers;

    Backplane backplane;
    BackplaneComponent component;
    PrometheusMeterRegistry meters;
    long tokens;

    @Setup(Level.Trial)
    public void start() {
        tokens = Work.tokens(work);
        Backplane.Builder builder = Backplane.builder("h2")
                .policy(BackplanePolicy.builder().threads(workers).cpuLimit(CpuLimit.ofCores(workers)).build());
        if (observations.equals("on")) {
            meters = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
            ObservationRegistry registry = ObservationRegistry.create();
            registry.observationConfig().observationHandler(new DefaultMeterObservationHandler(meters));
            new BackplaneObservations(registry).customize("h2", builder);
        } else if (!observations.equals("off")) {
            throw new IllegalArgumentException("observations=" + observations + "; allowed: off, on");
        }
        backplane = builder.build();
        component = backplane.install(ComponentSpec.named("work"));
    }

    @TearDown(Level.Trial)
    public void stop() {
        if (meters != null) { // one line per trial: the observations did reach the handler
            long runs = meters.get(BackplaneObservations.RUN).timers().stream().mapToLong(Timer::count).sum(); // a timer per priority
            System.out.printf(Locale.ROOT, "%nh2: run observations recorded %d%n", runs);
            meters.close();
        }
        backplane.shutdown(Duration.ofSeconds(10)).join();
    }

    /** One producer thread's window, task counter and (reused) action. */
    @State(Scope.Thread)
    public static class Producer {
        final Workloads.Window window = new Workloads.Window(Workloads.WINDOW);
        long submitted;
        Action<Void> action;

        @Setup(Level.Trial)
        public void start(H2ObservationCost benchmark) {
            action = Workloads.windowedAction(benchmark.tokens, window);
        }
    }

    @Benchmark
    @Threads(1)
    public void producers1(Producer producer) throws TimeoutException {
        producer.window.acquire();
        long i = producer.submitted++;
        component.execute(i % Workloads.KEYS, Workloads.priority(i), producer.action);
    }
}
