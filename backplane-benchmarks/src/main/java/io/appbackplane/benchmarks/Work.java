package io.appbackplane.benchmarks;

import org.openjdk.jmh.infra.Blackhole;

/**
 * The work one task does: {@link Blackhole#consumeCPU} arithmetic, the same for every peer. Two
 * sizes: {@code tiny} (meant as 50-100 ns) and {@code 5us} (meant as 5 µs). Token counts are fixed
 * so that every peer of a run does identical work; they were calibrated on the reference machine
 * and can be overridden per run with {@code -jvmArgsAppend "-Dbench.tinyTokens=N
 * -Dbench.slowTokens=M"}. What a task costs on the machine at hand is measured by the {@code
 * TaskCost} benchmark, which the results report next to the workloads.
 */
public final class Work {

    /** Tokens of the tiny task. */
    public static final long TINY_TOKENS = Long.getLong("bench.tinyTokens", 45);

    /** Tokens of the 5 µs task. */
    public static final long SLOW_TOKENS = Long.getLong("bench.slowTokens", 2_600);

    private Work() {}

    /** The tokens of work size {@code name}: {@code tiny} or {@code 5us}. */
    public static long tokens(String name) {
        return switch (name) {
            case "tiny" -> TINY_TOKENS;
            case "5us" -> SLOW_TOKENS;
            default -> throw new IllegalArgumentException("work '" + name + "' is unknown; allowed: tiny, 5us");
        };
    }

    /** Does {@code tokens} of work. */
    public static void run(long tokens) {
        Blackhole.consumeCPU(tokens);
    }
}
