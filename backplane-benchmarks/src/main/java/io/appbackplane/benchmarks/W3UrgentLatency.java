package io.appbackplane.benchmarks;

import io.appbackplane.benchmarks.peers.KeyedExecutor;
import io.appbackplane.benchmarks.peers.Peers;
import java.time.Instant;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;
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
 * W3, urgent latency under overload: one producer keeps its window of {@link Workloads#WINDOW}
 * bulk (priority 3) {@code 5us} tasks full, so more is always offered than the {@code workers}
 * threads can run, while a ticker thread submits one urgent (priority 1) {@code tiny} task every
 * millisecond. The score (ops/s) is the bulk tasks that still ran; each urgent task records its
 * submit-to-start latency, and at the end of each trial (fork) the latency percentiles over the
 * measurement iterations are printed as one {@code W3 urgent latency} line (HdrHistogram) and
 * appended as one JSON line to {@link #LATENCY_FILE}, which the report reads next to the JMH JSON.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(Scope.Benchmark)
@Fork(value = 3, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
@Warmup(iterations = 4, time = 2)
@Measurement(iterations = 5, time = 2)
public class W3UrgentLatency {

    /**
     * The file each fork appends its urgent-latency percentiles to, one JSON line per fork: {@code
     * -Dbench.latencyFile=PATH} (on the {@code java} command line, which the forks inherit, or with
     * {@code -jvmArgsAppend}); by default {@code w3-latency.jsonl} in the working directory.
     */
    static final String LATENCY_FILE = System.getProperty("bench.latencyFile", "w3-latency.jsonl");

    /** Period of the urgent ticker. */
    static final long URGENT_PERIOD_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    @Param({"appbackplane", "tpe-fifo", "tpe-priority", "forkjoin", "virtual", "pekko-t5", "pekko-t100", "striped",
            "two-pools"})
    public String peer;

    @Param("2")
    public int workers;

    KeyedExecutor executor;
    long bulkTokens;
    long urgentTokens;
    final Recorder recorder = new Recorder(3);
    final Histogram measured = new Histogram(3);
    volatile boolean ticking;
    Thread ticker;

    @Setup(Level.Trial)
    public void start() {
        bulkTokens = Work.tokens("5us");
        urgentTokens = Work.tokens("tiny");
        executor = Peers.create(peer, workers, Workloads.KEYS);
        ticking = true;
        ticker = new Thread(this::tick, "w3-urgent-ticker");
        ticker.setDaemon(true);
        ticker.start();
    }

    /** Submits one urgent task per period until the trial ends; each records its submit-to-start time. */
    private void tick() {
        KeyedExecutor executor = this.executor;
        long tokens = urgentTokens;
        long next = System.nanoTime();
        while (ticking) {
            next += URGENT_PERIOD_NANOS;
            long now;
            while ((now = System.nanoTime()) - next < 0) {
                LockSupport.parkNanos(next - now);
            }
            if (now - next > URGENT_PERIOD_NANOS) {
                next = now; // fell behind: do not catch up with a burst
            }
            long submitted = System.nanoTime();
            executor.submit(null, Workloads.URGENT, () -> {
                recorder.recordValue(System.nanoTime() - submitted);
                Work.run(tokens);
            });
        }
    }

    @Setup(Level.Iteration)
    public void startIteration() {
        recorder.reset();
    }

    @TearDown(Level.Iteration)
    public void endIteration(IterationParams iteration) {
        Histogram interval = recorder.getIntervalHistogram();
        if (iteration.getType() == IterationType.MEASUREMENT) {
            measured.add(interval);
        }
    }

    @TearDown(Level.Trial)
    public void stop() throws InterruptedException {
        ticking = false;
        if (ticker != null) {
            ticker.join(TimeUnit.SECONDS.toMillis(10));
        }
        if (executor == null) {
            return;
        }
        executor.close();
        System.out.println(String.format(Locale.ROOT,
                "W3 urgent latency peer=%s: p50=%.1f us p99=%.1f us p99.9=%.1f us max=%.1f us (n=%d)", peer,
                micros(measured.getValueAtPercentile(50)), micros(measured.getValueAtPercentile(99)),
                micros(measured.getValueAtPercentile(99.9)), micros(measured.getMaxValue()),
                measured.getTotalCount()));
        writeLatencyLine();
    }

    /**
     * Appends this fork's percentiles as one JSON line to {@link #LATENCY_FILE}, for the report.
     * The line names the peer and workers, the JDK and when the fork ended, so several runs can
     * share a file; the report groups lines by peer and takes the median over forks.
     */
    private void writeLatencyLine() {
        String line = String.format(Locale.ROOT,
                "{\"benchmark\":\"%s\",\"peer\":\"%s\",\"workers\":%d,\"jdk\":\"%s\",\"endedAt\":\"%s\","
                        + "\"p50Us\":%.1f,\"p99Us\":%.1f,\"p999Us\":%.1f,\"maxUs\":%.1f,\"count\":%d}%n",
                W3UrgentLatency.class.getSimpleName() + ".bulk", peer, workers, Runtime.version(), Instant.now(),
                micros(measured.getValueAtPercentile(50)), micros(measured.getValueAtPercentile(99)),
                micros(measured.getValueAtPercentile(99.9)), micros(measured.getMaxValue()), measured.getTotalCount());
        JsonLines.append(LATENCY_FILE, line, "the W3 latency line");
    }

    private static double micros(long nanos) {
        return nanos / 1_000.0;
    }

    /** The bulk producer's window, task counter and (reused, stateless) task. */
    @State(Scope.Thread)
    public static class Producer {
        final Workloads.Window window = new Workloads.Window(Workloads.WINDOW);
        Runnable task;

        @Setup(Level.Trial)
        public void start(W3UrgentLatency benchmark) {
            long tokens = benchmark.bulkTokens;
            Workloads.Window w = window;
            task = () -> {
                Work.run(tokens);
                w.release();
            };
        }
    }

    /** Submits one bulk task, parking first while the window is full. */
    @Benchmark
    @Threads(1)
    public void bulk(Producer producer) throws TimeoutException {
        producer.window.acquire();
        executor.submit(null, Workloads.BULK, producer.task);
    }
}
