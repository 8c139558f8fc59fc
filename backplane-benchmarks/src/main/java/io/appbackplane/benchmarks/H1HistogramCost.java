package io.appbackplane.benchmarks;

import io.appbackplane.Action;
import io.appbackplane.Backplane;
import io.appbackplane.BackplaneComponent;
import io.appbackplane.BackplanePolicy;
import io.appbackplane.ComponentSpec;
import io.appbackplane.CpuLimit;
import io.appbackplane.spring.metrics.BackplaneHistograms;
import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.List;
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
 * H1, the cost of the starter's {@code backplane.metrics.histograms} (issue 15 point 12): W2's keyed
 * workload (tasks on {@link Workloads#KEYS} keys, one in eight urgent, a window of
 * {@link Workloads#WINDOW} in flight) through a plain backplane, with {@code histograms=off} (no
 * action observer: the core's hook is one null check) and {@code on} (the starter's
 * {@link BackplaneHistograms}, bound to a Prometheus registry as in a scraped application). The
 * score is tasks run per second; the difference between the rows is the histograms' cost per
 * action at this load.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(Scope.Benchmark)
@Fork(value = 3, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
@Warmup(iterations = 4, time = 2)
@Measurement(iterations = 5, time = 2)
public class H1HistogramCost {

    @Param({"off", "on"})
    public String histograms;

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
        Backplane.Builder builder = Backplane.builder("h1")
                .policy(BackplanePolicy.builder().threads(workers).cpuLimit(CpuLimit.ofCores(workers)).build());
        if (histograms.equals("on")) {
            BackplaneHistograms timers = new BackplaneHistograms(List.of(0.5, 0.95, 0.99));
            meters = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
            timers.bindTo(meters);
            timers.customize("h1", builder);
        } else if (!histograms.equals("off")) {
            throw new IllegalArgumentException("histograms=" + histograms + "; allowed: off, on");
        }
        backplane = builder.build();
        component = backplane.install(ComponentSpec.named("work"));
    }

    @TearDown(Level.Trial)
    public void stop() {
        if (meters != null) { // one line per trial: the timers did see the actions
            long runs = meters.get(BackplaneHistograms.ACTION_RUN_TIME).timers().stream().mapToLong(Timer::count).sum(); // a timer per priority
            System.out.printf(Locale.ROOT, "%nh1: run-time timer count %d%n", runs);
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
        public void start(H1HistogramCost benchmark) {
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
