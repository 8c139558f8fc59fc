package io.appbackplane.benchmarks;

import io.appbackplane.Action;
import io.appbackplane.Backplane;
import io.appbackplane.BackplaneComponent;
import io.appbackplane.BackplanePolicy;
import io.appbackplane.ComponentSpec;
import io.appbackplane.CpuLimit;
import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.TimeoutException;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * What H1 and H2 share: W2's keyed workload (tasks on {@link Workloads#KEYS} keys, one in eight
 * urgent, a window of {@link Workloads#WINDOW} in flight, 1 producer) through a plain backplane
 * with CPU accounting on, with or without one of the starter's per-action instruments. The score
 * is tasks run per second; the difference between a subclass's "off" and "on" rows is the
 * instrument's cost per action at this load. JMH generates the benchmarks of each concrete
 * subclass, which adds its own off/on parameter and the run options.
 */
@State(Scope.Benchmark)
public abstract class KeyedInstrumentCost {

    @Param({"tiny", "5us"})
    public String work;

    @Param("2")
    public int workers;

    Backplane backplane;
    BackplaneComponent component;
    /** The meters the instrument records into, or null without one. */
    PrometheusMeterRegistry meters;

    /** The backplane's name, also the prefix of the trial's report line. */
    abstract String name();

    /** Installs the instrument (or none, for the "off" row) and returns the meters it records into, or null. */
    abstract PrometheusMeterRegistry instrument(Backplane.Builder builder);

    /** The meter whose timers (one per priority) count the actions the instrument saw. */
    abstract String countingMeter();

    @Setup(Level.Trial)
    public void start() {
        Backplane.Builder builder = Backplane.builder(name())
                .policy(BackplanePolicy.builder().threads(workers).cpuLimit(CpuLimit.ofCores(workers)).build());
        meters = instrument(builder);
        backplane = builder.build();
        component = backplane.install(ComponentSpec.named("work"));
    }

    @TearDown(Level.Trial)
    public void stop() {
        if (meters != null) { // one line per trial: the instrument did see the actions
            long counted = meters.get(countingMeter()).timers().stream().mapToLong(Timer::count).sum();
            System.out.printf(Locale.ROOT, "%n%s: %s counted %d%n", name(), countingMeter(), counted);
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
        public void start(BenchmarkParams params) {
            action = Workloads.windowedAction(Work.tokens(params.getParam("work")), window);
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
