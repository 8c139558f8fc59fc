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
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * W1, unordered throughput: tasks with no key and no ordering requirement, one in eight urgent
 * (priority 1), the rest bulk (priority 3), submitted by 1 or 2 producer threads to a peer with
 * {@code workers} worker threads. Each invocation submits {@value Workloads#BATCH} tasks and waits
 * until all ran, so the score (ops/s) is tasks run per second, queueing included.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(Scope.Benchmark)
@Fork(value = 3, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
@Warmup(iterations = 3, time = 2)
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
    public void start() {
        tokens = Work.tokens(work);
        executor = Peers.create(peer, workers, Workloads.KEYS);
    }

    @TearDown(Level.Trial)
    public void stop() {
        if (executor != null) {
            executor.close();
        }
    }

    /** One producer thread's batch and its (reused, stateless) task. */
    @State(Scope.Thread)
    public static class Producer {
        final Workloads.Batch batch = new Workloads.Batch();
        Runnable task;

        @Setup(Level.Trial)
        public void start(W1UnorderedThroughput benchmark) {
            long tokens = benchmark.tokens;
            Workloads.Batch b = batch;
            task = () -> {
                Work.run(tokens);
                b.done();
            };
        }
    }

    @Benchmark
    @Threads(1)
    @OperationsPerInvocation(Workloads.BATCH)
    public void producers1(Producer producer) throws TimeoutException {
        runBatch(producer);
    }

    @Benchmark
    @Threads(2)
    @OperationsPerInvocation(Workloads.BATCH)
    public void producers2(Producer producer) throws TimeoutException {
        runBatch(producer);
    }

    private void runBatch(Producer producer) throws TimeoutException {
        KeyedExecutor executor = this.executor;
        Runnable task = producer.task;
        producer.batch.start(Workloads.BATCH);
        for (int i = 0; i < Workloads.BATCH; i++) {
            executor.submit(null, Workloads.priority(i), task);
        }
        producer.batch.await();
    }
}
