package io.appbackplane.benchmarks;

import io.appbackplane.Action;
import io.appbackplane.Backplane;
import io.appbackplane.BackplaneComponent;
import io.appbackplane.BackplanePolicy;
import io.appbackplane.ComponentSpec;
import io.appbackplane.CpuLimit;
import io.appbackplane.ObjectPool;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.openjdk.jmh.annotations.AuxCounters;
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
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.runner.IterationType;

/**
 * W5, CPU-limit accuracy (AppBackplane only: no peer has a CPU limit). A backplane with {@code
 * workers} threads, the default integration period (1 s) and budget slices (10), and a CPU limit
 * of {@code limit} cores, always has more CPU-bound work ready than the limit allows: one producer
 * keeps its window of {@link Workloads#WINDOW} actions full, each doing {@link #ACTION_TOKENS}
 * tokens of {@code Blackhole.consumeCPU} (20 × the {@code 5us} task, meant as 100 µs; {@code
 * -jvmArgsAppend -Dbench.w5Tokens=N} changes it). The action is that large so that what is not
 * the actions' work stays small next to the limit: the producer submits one action and parks once
 * per {@code WINDOW / 2} actions, so at 0.25 cores (2,500 actions/s) its CPU and the backplane's
 * per-action bookkeeping are a few µs per 100 µs of work; and it is that small so that an action
 * still running when the budget runs out overshoots it by little.
 *
 * <p>Per measurement iteration (5 s: five integration periods; the period start is not aligned with
 * the iteration, but the budget is released in slices of 100 ms, so any 5 s window holds close to
 * five periods' budget) three secondary metrics:
 * <ul>
 *   <li>{@code coresUsed}: the <em>process</em> CPU time ({@code
 *       com.sun.management.OperatingSystemMXBean.getProcessCpuTime()}) over the wall time of the
 *       iteration. It includes everything in the JVM (the producer, the backplane's timer, JIT
 *       and GC threads, the JMH harness), not only the actions; that is what an operator limiting
 *       the process sees. The backplane charges its budget with its worker threads' CPU time
 *       (read from the operating system), so {@code coresUsed} exceeds the limit by what the
 *       rest of the process uses; {@code workerCores} shows the workers alone.
 *   <li>{@code percentOfLimit}: {@code coresUsed / limit × 100}; the target is 98 to 102 (an error of
 *       ±2 %). (A ratio rather than a signed error, because JMH's text output shows negative
 *       secondary metrics as "≈ 0"; the JSON and the report are unaffected either way.)
 *   <li>{@code longestPauseMs}: the longest gap between two consecutive action starts anywhere in
 *       the backplane during the iteration; the target is at most period / slices = 100 ms.
 * </ul>
 * The score (ops/s) is the actions submitted per second, which in steady state is the actions run
 * per second (see {@link Workloads.Window}). JMH sums {@link AuxCounters.Type#EVENTS} counters over
 * iterations in the "score" of a secondary metric, which is meaningless here; the per-iteration
 * values are in the JSON's {@code rawData} and printed as one {@code W5} line per iteration, and
 * the report takes their median and spread.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(Scope.Benchmark)
@Fork(value = 3, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 2, time = 5)
@Measurement(iterations = 5, time = 5)
public class W5CpuLimitAccuracy {

    /** The measured backplane's name, which its worker threads' names carry ({@link CpuTimes#workerThreads}). */
    static final String BACKPLANE = "w5";

    /** Tokens of one action: 20 × the {@code 5us} task, meant as 100 µs. */
    static final long ACTION_TOKENS = Long.getLong("bench.w5Tokens", 20 * Work.SLOW_TOKENS);

    /** Cores. */
    @Param({"0.25", "0.5", "1.0", "1.5"})
    public String limit;

    @Param("2")
    public int workers;

    Backplane backplane;
    ObjectPool pool;
    double cores;

    /** When the latest action started, 0 before the first one of the iteration. */
    final AtomicLong lastStart = new AtomicLong();
    /** The longest gap between action starts in this iteration. */
    final AtomicLong longestGap = new AtomicLong();
    long iterationCpu;
    long iterationWorkerCpu;
    long iterationWall;

    /** The per-iteration results (secondary metrics). */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.EVENTS)
    public static class Accuracy {
        /** Process CPU time over wall time in the iteration, in cores. */
        public double coresUsed;
        /** {@link #coresUsed} in % of the limit (100 = exact). */
        public double percentOfLimit;
        /** The longest gap between consecutive action starts, in milliseconds. */
        public double longestPauseMs;
        /** CPU time of the backplane's worker threads alone over wall time: what the budget governs. */
        public double workerCores;

        @TearDown(Level.Iteration)
        public void measure(W5CpuLimitAccuracy benchmark, IterationParams iteration) {
            long cpu = CpuTimes.process() - benchmark.iterationCpu;
            long wall = System.nanoTime() - benchmark.iterationWall;
            coresUsed = (double) cpu / wall;
            workerCores = (double) (CpuTimes.workerThreads(BACKPLANE) - benchmark.iterationWorkerCpu) / wall;
            percentOfLimit = coresUsed / benchmark.cores * 100;
            longestPauseMs = benchmark.longestGap.get() / 1e6;
            System.out.println(String.format(Locale.ROOT,
                    "%nW5 %s limit=%s cores: used %.3f cores (%+.1f %%; worker threads %.3f), longest pause %.1f ms",
                    iteration.getType() == IterationType.MEASUREMENT ? "measurement" : "warm-up", benchmark.limit,
                    coresUsed, percentOfLimit - 100, workerCores, longestPauseMs));
        }
    }

    @Setup(Level.Trial)
    public void start() {
        cores = Double.parseDouble(limit);
        BackplanePolicy policy = BackplanePolicy.builder()
                .threads(workers)
                .cpuLimit(CpuLimit.ofCores(cores))
                .build();
        backplane = Backplane.builder(BACKPLANE).policy(policy).build();
        BackplaneComponent component = backplane.install(ComponentSpec.named("work"));
        pool = component.pool("work", 2 * workers);
    }

    @Setup(Level.Iteration)
    public void startIteration() {
        lastStart.set(0);
        longestGap.set(0);
        iterationWall = System.nanoTime();
        iterationCpu = CpuTimes.process();
        iterationWorkerCpu = CpuTimes.workerThreads(BACKPLANE);
    }

    @TearDown(Level.Trial)
    public void stop() {
        if (pool != null) {
            pool.release();
        }
        if (backplane != null) {
            backplane.close();
        }
    }

    /** Records an action start: the gap since the previous start, anywhere in the backplane. */
    void started() {
        long now = System.nanoTime();
        long previous = lastStart.getAndSet(now);
        if (previous != 0) {
            long gap = now - previous;
            if (gap > longestGap.get()) {
                longestGap.accumulateAndGet(gap, Math::max);
            }
        }
    }

    /** The producer's window and its (reused, stateless) action. */
    @State(Scope.Thread)
    public static class Producer {
        final Workloads.Window window = new Workloads.Window(Workloads.WINDOW);
        Action<Void> action;

        @Setup(Level.Trial)
        public void start(W5CpuLimitAccuracy benchmark) {
            long tokens = ACTION_TOKENS;
            Workloads.Window w = window;
            action = ctx -> {
                benchmark.started();
                Work.run(tokens);
                w.release();
                return null;
            };
        }
    }

    /** Submits one action, parking first while the window is full. */
    @Benchmark
    @Threads(1)
    public void limited(Producer producer, Accuracy accuracy) throws TimeoutException {
        producer.window.acquire();
        pool.execute(Workloads.BULK, producer.action);
    }
}
