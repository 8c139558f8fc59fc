package io.appbackplane.benchmarks;

import io.appbackplane.benchmarks.peers.KeyedExecutor;
import io.appbackplane.benchmarks.peers.Peers;
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
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * W1, unordered throughput: tasks with no key and no ordering requirement, one in eight urgent
 * (priority 1), the rest bulk (priority 3), submitted by 1 or 2 producer threads to a peer with
 * {@code workers} worker threads. Each producer keeps up to {@link Workloads#WINDOW} tasks in
 * flight: an invocation submits one task, parking first while the window is full, and each task
 * frees its slot when it has run. In steady state the producer therefore submits exactly as fast
 * as the peer runs tasks, so the score (ops/s) is tasks run per second, queueing and hand-off
 * included, with the peer neither idle nor flooded (the count can be off by at most one window per
 * iteration).
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(Scope.Benchmark)
@Fork(value = 3, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
@Warmup(iterations = 4, time = 2)
@Measurement(iterations = 5, time = 2)
public class W1UnorderedThroughput {

    @Param({"appbackplane", "tpe-fifo", "tpe-priority", "forkjoin", "virtual", "pekko-t5", "pekko-t100", "striped",
            "two-pools"})
    public String peer;

    @Param({"tiny", "5us"})
    public String work;

    @Param("2")
    public int workers;

    KeyedExecutor executor;
    long tokens;

    @Setup(Level.Trial)
    public void start(BenchmarkParams params) throws InterruptedException {
        tokens = Work.tokens(work);
        CoreToCore.recordAtTrialStart(params); // the machine's mode for this fork
        executor = Peers.create(peer, workers, Workloads.KEYS);
    }

    @TearDown(Level.Trial)
    public void stop() {
        if (executor != null) {
            executor.close();
        }
    }

    /** One producer thread's window, task counter and (reused, stateless) task. */
    @State(Scope.Thread)
    public static class Producer {
        final Workloads.Window window = new Workloads.Window(Workloads.WINDOW);
        long submitted;
        Runnable task;

        @Setup(Level.Trial)
        public void start(W1UnorderedThroughput benchmark) {
            long tokens = benchmark.tokens;
            Workloads.Window w = window;
            task = () -> {
                Work.run(tokens);
                w.release();
            };
        }
    }

    @Benchmark
    @Threads(1)
    public void producers1(Producer producer) throws TimeoutException {
        submit(producer);
    }

    @Benchmark
    @Threads(2)
    public void producers2(Producer producer) throws TimeoutException {
        submit(producer);
    }

    private void submit(Producer producer) throws TimeoutException {
        producer.window.acquire();
        executor.submit(null, Workloads.priority(producer.submitted++), producer.task);
    }
}
