package io.appbackplane.benchmarks;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What one task of each {@link Work} size costs inline on one thread (ns/op): the calibration of
 * the workloads, and the "inline single-thread rate" that W2 (5 µs) is held against.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Benchmark)
@Fork(3)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class TaskCost {

    @Param({"tiny", "5us"})
    public String work;

    private long tokens;

    @Setup
    public void setUp() {
        tokens = Work.tokens(work);
    }

    @Benchmark
    public void inline() {
        Work.run(tokens);
    }
}
