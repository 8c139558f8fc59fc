package io.appbackplane;

import java.time.Duration;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * An immutable snapshot of a backplane's statistics (scheduling rule 17). Values are read one by one
 * without stopping the backplane, so under load they may be a few actions apart from each other.
 *
 * @param name the backplane's name
 * @param policy the policy in force
 * @param threads worker threads alive
 * @param busyThreads workers running an action
 * @param idleThreads workers parked for lack of runnable work
 * @param workersReplaced workers that died of an unexpected error (a JVM error such as {@code
 *     OutOfMemoryError}, never an action's own failure) and were replaced by a new worker, since
 *     the backplane started
 * @param priorities one entry per priority, most urgent first
 * @param cpu CPU limit and use
 * @param realTicks integration periods completed
 * @param virtualTicks quota replenishments inside a period (rule 6)
 * @param readyObjects objects in ready queues
 * @param waitingObjects objects on the wait queue
 * @param outstanding requests accepted and not finished, over all components
 * @param totals the sum of all components' counts
 * @param components one entry per component, in installation order
 * @param rejectionsByReason rejections since the backplane started, by reason (every reason
 *     present, in declaration order): requests rejected at admission, which add up to {@code
 *     totals().rejected()}, and under {@code OFFLOAD_LIMIT} offloaded blocking calls rejected (a
 *     call of a request that was accepted, not a request: it is in no component's {@code rejected})
 */
public record BackplaneStatistics(
        String name,
        BackplanePolicy policy,
        int threads,
        int busyThreads,
        int idleThreads,
        long workersReplaced,
        List<PriorityStatistics> priorities,
        Cpu cpu,
        long realTicks,
        long virtualTicks,
        int readyObjects,
        int waitingObjects,
        int outstanding,
        ActionCounts totals,
        List<ComponentStatistics> components,
        Map<BackplaneRejectedException.Reason, Long> rejectionsByReason) {

    public BackplaneStatistics {
        priorities = List.copyOf(priorities);
        components = List.copyOf(components);
        Map<BackplaneRejectedException.Reason, Long> byReason = new EnumMap<>(BackplaneRejectedException.Reason.class);
        for (BackplaneRejectedException.Reason reason : BackplaneRejectedException.Reason.values()) {
            byReason.put(reason, rejectionsByReason.getOrDefault(reason, 0L));
        }
        rejectionsByReason = Collections.unmodifiableMap(byReason);
    }

    /**
     * CPU limit and use.
     *
     * @param limit the CPU limit
     * @param budgetPerPeriod worker CPU time allowed per period ({@code null} when unlimited)
     * @param usedThisPeriod worker CPU time (the CPU time of the worker threads; under a manual clock, actions' running time) used in the current period
     * @param usedLastPeriod worker CPU time used in the previous period
     * @param throttledTime total time ready work waited for CPU budget
     * @param futureCallbackTime total time workers spent completing submitters' futures, that is
     *     running the callbacks callers attached to them ({@code thenApply}, {@code whenComplete},
     *     ...), since the backplane started. A worker completes the futures of a turn after the
     *     object has left RUNNING, and charges this time to the CPU budget like the rest of the worker CPU time; it is
     *     included in {@code usedThisPeriod} and {@code usedLastPeriod}
     * @param limitCores the limit in force in cores ({@code budgetPerPeriod} over the period): the
     *     limit's own for a fixed limit, the current budget's for {@link CpuLimit#auto()}; {@link
     *     Double#POSITIVE_INFINITY} when nothing is limited
     * @param auto what an {@link CpuLimit#auto()} limit follows; {@code null} for any other limit
     */
    public record Cpu(
            CpuLimit limit, Duration budgetPerPeriod, Duration usedThisPeriod, Duration usedLastPeriod, Duration throttledTime,
            Duration futureCallbackTime, double limitCores, Auto auto) {}

    /**
     * What an {@link CpuLimit#auto()} limit follows.
     *
     * @param quota the process's CPU quota read at the last real tick; {@code null} when there is
     *     none (the limit then limits nothing)
     * @param restOfProcessCores the cores the rest of the process (everything but this backplane's
     *     workers) is taken to use, which the limit leaves to it
     * @param quotaShare the share of the quota the process as a whole aims at now: 0.95 while the
     *     kernel does not throttle it, lowered after real ticks that find the cgroup throttled
     * @param throttledTicks the real ticks so far that found the cgroup throttled by the kernel
     *     since the tick before (0 where its counters cannot be read)
     */
    public record Auto(CpuQuota quota, double restOfProcessCores, double quotaShare, long throttledTicks) {}
}
