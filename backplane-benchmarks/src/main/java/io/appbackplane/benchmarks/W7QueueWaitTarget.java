package io.appbackplane.benchmarks;

import io.appbackplane.Action;
import io.appbackplane.Backplane;
import io.appbackplane.BackplaneComponent;
import io.appbackplane.BackplanePolicy;
import io.appbackplane.BackplaneRejectedException;
import io.appbackplane.BackplaneStatistics;
import io.appbackplane.ComponentSpec;
import io.appbackplane.ComponentStatistics;
import io.appbackplane.CpuLimit;
import io.appbackplane.LatencyHistogram;
import io.appbackplane.ObjectPool;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
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
import org.openjdk.jmh.annotations.Warmup;

/**
 * W7, a queue-wait target against fixed limits when capacity halves and comes back (AppBackplane
 * only: rule 19). One component on a backplane of 2 workers, every action {@link #ACTION_TOKENS}
 * tokens of CPU (the {@code 5us} task × 20, meant as 100 µs). One producer offers work open-loop
 * at {@link #OFFERED_PER_SECOND} actions per second, a fifth urgent (priority 0) and the rest bulk
 * (priority 3), which is more than the backplane can run. Each invocation runs three phases of
 * {@link #PHASE}: CPU limit 1 core, then 0.5 core (capacity halves, as when a CPU limit is lowered
 * at run time), then 1 core again. The integration period is 100 ms, so the target's controller
 * adapts ten times a second.
 *
 * <p>{@code mode}: {@code target-20ms} (queue-wait-target 20 ms, operation limit 5,000 as its
 * ceiling), or a fixed operation limit ({@code fixed-50}, {@code fixed-400}, {@code fixed-5000}).
 * A small fixed limit keeps the wait low but rejects work the full capacity could run; a large one
 * runs everything it admits but lets the wait grow with the queue. The target should keep the
 * urgent p99 queue wait under 20 ms in every phase with throughput within 10 % of the best fixed
 * limit of that phase.
 *
 * <p>Per phase, printed as one {@code W7} line and kept as secondary metrics: the urgent
 * (priority 0) p99 queue wait from the backplane's own histogram (its buckets near 20 ms are about
 * 4 ms wide), the share of urgent actions that waited longer than {@link #TARGET} (the target's own
 * definition, exact: each urgent action compares its start with the time it was offered; the p99 is
 * within the target when at most 1 % did), the actions completed per second and the requests
 * rejected per second.
 *
 * <p>With {@code -Dbench.w7Trace=true} (which {@code run-w7.sh} does not set) each fork also prints
 * the controller's per-tick trace ({@link ControllerTrace}): one {@code W7 trace} line per tick with
 * its inputs (limit, outstanding, rejections, the urgent actions, mean wait and late actions of the
 * period and of the window) and its decision, and a line where each phase begins. It is for watching
 * the loop, not for numbers. With {@code -Dbench.w7Timeline=true} each phase also prints its
 * {@link PhaseTimeline}: what ran in each 10 ms, and the CPU it took.
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(Scope.Benchmark)
@Fork(value = 3, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 1)
@Measurement(iterations = 3)
public class W7QueueWaitTarget {

    static final long ACTION_TOKENS = Long.getLong("bench.w7Tokens", 20 * Work.SLOW_TOKENS);
    static final int OFFERED_PER_SECOND = Integer.getInteger("bench.w7Offered", 15_000);
    static final Duration PHASE = Duration.ofSeconds(Long.getLong("bench.w7PhaseSeconds", 10));
    static final Duration TARGET = Duration.ofMillis(20);
    static final int URGENT = 0;
    static final int BULK = 3;

    @Param({"target-20ms", "fixed-50", "fixed-400", "fixed-5000"})
    public String mode;

    Backplane backplane;
    BackplaneComponent component;
    ObjectPool pool;

    /** The per-phase results (secondary metrics). */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.EVENTS)
    public static class Phases {
        public double fullUrgentP99Ms;
        public double halfUrgentP99Ms;
        public double backUrgentP99Ms;
        public double fullCompletedPerS;
        public double halfCompletedPerS;
        public double backCompletedPerS;
        public double fullRejectedPerS;
        public double halfRejectedPerS;
        public double backRejectedPerS;
        public double fullUrgentLatePct;
        public double halfUrgentLatePct;
        public double backUrgentLatePct;
    }

    @Setup(Level.Trial)
    public void start() {
        if (Boolean.getBoolean("bench.w7Trace")) {
            ControllerTrace.start();
        }
        BackplanePolicy policy = BackplanePolicy.builder()
                .threads(2)
                .priorities(4)
                .integrationPeriod(Duration.ofMillis(100))
                .cpuLimit(CpuLimit.ofCores(1))
                .build();
        backplane = Backplane.builder("w7").policy(policy).build();
        ComponentSpec spec = ComponentSpec.named("work");
        if (mode.startsWith("target-")) {
            spec = spec.withOperationLimit(5000).withQueueWaitTarget(Duration.ofMillis(Long.parseLong(mode.substring("target-".length(), mode.length() - 2))));
        } else {
            spec = spec.withOperationLimit(Integer.parseInt(mode.substring("fixed-".length())));
        }
        component = backplane.install(spec);
        pool = component.pool("work", 8);
    }

    @TearDown(Level.Trial)
    public void stop() throws Exception {
        backplane.close();
    }

    @Benchmark
    public void capacityHalvesAndComesBack(Phases phases) {
        backplane.setCpuLimit(CpuLimit.ofCores(1));
        double[] full = phase("full (1 core)");
        backplane.setCpuLimit(CpuLimit.ofCores(0.5));
        double[] half = phase("half (0.5 core)");
        backplane.setCpuLimit(CpuLimit.ofCores(1));
        double[] back = phase("back (1 core)");
        phases.fullUrgentP99Ms = full[0];
        phases.fullCompletedPerS = full[1];
        phases.fullRejectedPerS = full[2];
        phases.halfUrgentP99Ms = half[0];
        phases.halfCompletedPerS = half[1];
        phases.halfRejectedPerS = half[2];
        phases.backUrgentP99Ms = back[0];
        phases.backCompletedPerS = back[1];
        phases.backRejectedPerS = back[2];
        phases.fullUrgentLatePct = full[3];
        phases.halfUrgentLatePct = half[3];
        phases.backUrgentLatePct = back[3];
    }

    /**
     * Offers work for one phase; returns the urgent p99 queue wait (ms), completions and rejections
     * per second, and the percentage of urgent actions that waited longer than {@link #TARGET}.
     */
    private double[] phase(String name) {
        LongAdder urgentRan = new LongAdder();
        LongAdder urgentLate = new LongAdder();
        long targetNanos = TARGET.toNanos();
        ControllerTrace.mark("phase " + name + " begins, mode " + mode);
        PhaseTimeline timeline = PhaseTimeline.ON ? new PhaseTimeline(PHASE.toNanos()) : null;
        Action<Object> bulk = timeline == null ? BULK_ACTION : ctx -> {
            timeline.run(ACTION_TOKENS, -1, targetNanos);
            return null;
        };
        BackplaneStatistics before = backplane.statistics();
        long start = System.nanoTime();
        long end = start + PHASE.toNanos();
        long every = TimeUnit.SECONDS.toNanos(1) / OFFERED_PER_SECOND;
        long next = start;
        long offered = 0;
        while (next - end < 0) {
            long now = System.nanoTime();
            if (next - now > 0) {
                LockSupport.parkNanos(next - now);
                continue;
            }
            int priority = offered % 5 == 0 ? URGENT : BULK;
            long offeredAt = now;
            try {
                pool.submit(priority, priority != URGENT ? bulk : ctx -> {
                    long waited = System.nanoTime() - offeredAt;
                    if (waited > targetNanos) {
                        urgentLate.increment();
                    }
                    urgentRan.increment();
                    if (timeline == null) {
                        Work.run(ACTION_TOKENS);
                    } else {
                        timeline.run(ACTION_TOKENS, waited, targetNanos);
                    }
                    return null;
                });
            } catch (BackplaneRejectedException e) {
                // counted by the backplane: the rejections per second below
            }
            offered++;
            next += every;
        }
        BackplaneStatistics after = backplane.statistics();
        double seconds = (System.nanoTime() - start) / 1e9;
        LatencyHistogram urgent = after.priorities().get(URGENT).queueWait().minus(before.priorities().get(URGENT).queueWait());
        double p99 = urgent.total() == 0 ? Double.NaN : urgent.percentile(0.99).toNanos() / 1e6;
        double completed = (counts(after).completed() - counts(before).completed()) / seconds;
        double rejected = (counts(after).rejected() - counts(before).rejected()) / seconds;
        // Urgent actions still queued at the phase's end run in the next phase and count there.
        double latePct = urgentRan.sum() == 0 ? Double.NaN : 100.0 * urgentLate.sum() / urgentRan.sum();
        System.out.println(String.format(Locale.ROOT, "%nW7 %s %s: urgent p99 queue wait %.1f ms, %.2f %% of urgent waits over %d ms,"
                + " %.0f completed/s, %.0f rejected/s, limit at the end %d",
                mode, name, p99, latePct, TARGET.toMillis(), completed, rejected, component.operationLimit()));
        if (timeline != null) {
            timeline.print(name);
        }
        return new double[] {p99, completed, rejected, latePct};
    }

    private static final Action<Object> BULK_ACTION = ctx -> {
        Work.run(ACTION_TOKENS);
        return null;
    };

    private static io.appbackplane.ActionCounts counts(BackplaneStatistics stats) {
        for (ComponentStatistics c : stats.components()) {
            if (c.name().equals("work")) {
                return c.counts();
            }
        }
        throw new IllegalStateException("no component 'work' in " + stats.name());
    }
}
