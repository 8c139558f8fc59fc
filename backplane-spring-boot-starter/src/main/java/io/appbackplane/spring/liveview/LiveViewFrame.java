package io.appbackplane.spring.liveview;

import io.appbackplane.BackplaneRejectedException.Reason;
import io.appbackplane.BackplaneStatistics;
import io.appbackplane.ComponentStatistics;
import io.appbackplane.LatencyHistogram;
import io.appbackplane.PriorityStatistics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * What one backplane did in one sampling interval (about a second), derived from two statistics
 * snapshots: rates are per second of the interval, percentiles are of the actions that started in
 * it. Lists by priority are indexed by priority; a percentile is {@code null} when no action at
 * that priority started in the interval.
 *
 * @param t when the later snapshot was taken, epoch milliseconds
 * @param cpuUsedCores worker CPU time used in the backplane's last complete integration period, in cores
 * @param cpuLimitCores the CPU limit in cores, {@code null} when unlimited
 * @param throttledMsPerSecond time ready work waited for CPU budget, milliseconds per second
 * @param busyThreads workers running an action
 * @param idleThreads workers parked for lack of runnable work
 * @param readyDepth objects in each priority's ready queue
 * @param queueWaitP50Ms median queue wait per priority, milliseconds
 * @param queueWaitP99Ms 99th percentile of the queue wait per priority, milliseconds
 * @param actionsPerSecond actions run per second, by component
 * @param rejectionsPerSecond requests rejected per second, by reason
 */
record LiveViewFrame(
        long t,
        double cpuUsedCores,
        @Nullable Double cpuLimitCores,
        double throttledMsPerSecond,
        int busyThreads,
        int idleThreads,
        List<Integer> readyDepth,
        List<@Nullable Double> queueWaitP50Ms,
        List<@Nullable Double> queueWaitP99Ms,
        Map<String, Double> actionsPerSecond,
        Map<String, Double> rejectionsPerSecond) {

    /** The interval from {@code earlier} (taken at {@code earlierNanos}) to {@code later}. */
    static LiveViewFrame between(BackplaneStatistics earlier, long earlierNanos, BackplaneStatistics later, long laterNanos,
            long laterEpochMillis) {
        double seconds = Math.max(1e-3, (laterNanos - earlierNanos) / 1e9);
        double period = later.policy().integrationPeriod().toNanos();
        BackplaneStatistics.Cpu cpu = later.cpu();
        List<Integer> depth = new ArrayList<>();
        List<@Nullable Double> p50 = new ArrayList<>();
        List<@Nullable Double> p99 = new ArrayList<>();
        for (PriorityStatistics p : later.priorities()) {
            depth.add(p.readyDepth());
            LatencyHistogram before = p.priority() < earlier.priorities().size()
                    ? earlier.priorities().get(p.priority()).queueWait()
                    : LatencyHistogram.empty();
            LatencyHistogram interval = p.queueWait().minus(before);
            p50.add(millis(interval.percentile(0.5)));
            p99.add(millis(interval.percentile(0.99)));
        }
        Map<String, Double> actions = new LinkedHashMap<>();
        for (ComponentStatistics c : later.components()) {
            long before = earlier.components().stream().filter(e -> e.name().equals(c.name())).findFirst()
                    .map(e -> e.counts().actionsRun()).orElse(0L);
            actions.put(c.name(), Math.max(0, c.counts().actionsRun() - before) / seconds);
        }
        Map<String, Double> rejections = new LinkedHashMap<>();
        for (Map.Entry<Reason, Long> r : later.rejectionsByReason().entrySet()) {
            long before = earlier.rejectionsByReason().getOrDefault(r.getKey(), 0L);
            rejections.put(r.getKey().name(), Math.max(0, r.getValue() - before) / seconds);
        }
        long throttled = cpu.throttledTime().minus(earlier.cpu().throttledTime()).toNanos();
        return new LiveViewFrame(
                laterEpochMillis,
                cpu.usedLastPeriod().toNanos() / period,
                Double.isInfinite(cpu.limitCores()) ? null : cpu.limitCores(),
                Math.max(0, throttled) / 1e6 / seconds,
                later.busyThreads(),
                later.idleThreads(),
                depth,
                p50,
                p99,
                actions,
                rejections);
    }

    private static @Nullable Double millis(@Nullable Duration d) {
        return d == null ? null : d.toNanos() / 1e6;
    }
}
