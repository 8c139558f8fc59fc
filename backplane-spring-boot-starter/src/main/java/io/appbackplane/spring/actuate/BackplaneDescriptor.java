package io.appbackplane.spring.actuate;

import io.appbackplane.ActionCounts;
import io.appbackplane.BackplanePolicy;
import io.appbackplane.BackplaneStatistics;
import io.appbackplane.ComponentStatistics;
import io.appbackplane.EndpointStatistics;
import io.appbackplane.PriorityStatistics;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * What {@code /actuator/backplane/{name}} shows of one backplane: immutable, JSON-friendly
 * (durations in milliseconds), and free of payloads — only names, counts and times. {@code
 * extensions} holds the sections of {@link BackplaneEndpointContributor}s (e.g. {@code kafka}).
 */
public record BackplaneDescriptor(
        String name,
        String state,
        Policy policy,
        Threads threads,
        List<Priority> priorities,
        Cpu cpu,
        int readyObjects,
        int waitingObjects,
        int outstanding,
        long realTicks,
        long virtualTicks,
        Counts totals,
        List<Component> components,
        Map<String, Object> extensions) {

    static BackplaneDescriptor of(String state, BackplaneStatistics s) {
        return of(state, s, Map.of());
    }

    /** @param extensions the sections of {@link BackplaneEndpointContributor}s, by name */
    static BackplaneDescriptor of(String state, BackplaneStatistics s, Map<String, Object> extensions) {
        BackplanePolicy p = s.policy();
        return new BackplaneDescriptor(
                s.name(),
                state,
                new Policy(p.priorities(), p.threads(), p.cpuLimit().toString(), millis(p.integrationPeriod()), p.cpuBudgetSlices(),
                        millis(p.slowActionThreshold()), p.actionsPerTurn(), p.operationLimit()),
                new Threads(s.threads(), s.busyThreads(), s.idleThreads()),
                s.priorities().stream().map(Priority::of).toList(),
                Cpu.of(s.cpu()),
                s.readyObjects(),
                s.waitingObjects(),
                s.outstanding(),
                s.realTicks(),
                s.virtualTicks(),
                Counts.of(s.totals()),
                s.components().stream().map(Component::of).toList(),
                extensions);
    }

    /** The policy in force. */
    public record Policy(int priorities, int threads, String cpuLimit, double integrationPeriodMs, int cpuBudgetSlices,
            double slowActionThresholdMs, int actionsPerTurn, int operationLimit) {}

    /** Worker threads. */
    public record Threads(int total, int busy, int idle) {}

    /** One priority: quota (null when unlimited), its use this period, ready queue depth. */
    public record Priority(int priority, Integer quota, int usedThisPeriod, int readyDepth, Counts counts) {
        static Priority of(PriorityStatistics p) {
            return new Priority(p.priority(), p.unlimited() ? null : p.quota(), p.usedThisPeriod(), p.readyDepth(), Counts.of(p.counts()));
        }
    }

    /**
     * CPU limit and use: {@code limit} as configured ({@code "auto"}, {@code "500m"}, ...), {@code
     * limitCores} the limit in force (null when nothing is limited), {@code auto} what an {@code
     * auto} limit follows (null for any other limit).
     */
    public record Cpu(String limit, Double limitCores, Double budgetPerPeriodMs, double usedThisPeriodMs, double usedLastPeriodMs,
            double throttledMs, Auto auto) {
        static Cpu of(BackplaneStatistics.Cpu c) {
            return new Cpu(c.limit().toString(), Double.isInfinite(c.limitCores()) ? null : c.limitCores(),
                    c.budgetPerPeriod() == null ? null : millis(c.budgetPerPeriod()), millis(c.usedThisPeriod()),
                    millis(c.usedLastPeriod()), millis(c.throttledTime()), c.auto() == null ? null : Auto.of(c.auto()));
        }
    }

    /**
     * What an {@code auto} CPU limit follows: the container's CPU quota in cores and the cgroup file
     * it was read from (both null when the process has no quota), the cores the rest of the
     * process is taken to use, which the limit leaves to it, the share of the quota the process aims
     * at now, and the real ticks that found the process throttled by the kernel.
     */
    public record Auto(Double quotaCores, String quotaSource, double restOfProcessCores, double quotaShare, long throttledTicks) {
        static Auto of(BackplaneStatistics.Auto a) {
            return new Auto(a.quota() == null ? null : a.quota().cores(), a.quota() == null ? null : a.quota().source(),
                    a.restOfProcessCores(), a.quotaShare(), a.throttledTicks());
        }
    }

    /** One component. */
    public record Component(String name, String state, List<String> dependencies, int outstanding, int operationLimit,
            int objects, int waitingObjects, Counts counts, List<Endpoint> endpoints) {
        static Component of(ComponentStatistics c) {
            return new Component(c.name(), c.state().name(), c.dependencies(), c.outstanding(), c.operationLimit(),
                    c.objects(), c.waitingObjects(), Counts.of(c.counts()), c.endpoints().stream().map(Endpoint::of).toList());
        }
    }

    /** One endpoint. */
    public record Endpoint(String name, Counts counts) {
        static Endpoint of(EndpointStatistics e) {
            return new Endpoint(e.name(), Counts.of(e.counts()));
        }
    }

    /** Request and action counts with mean and max times. */
    public record Counts(long submitted, long completed, long failed, long rejected, long outstanding, long actionsRun,
            long slowActions, double meanQueueMs, double maxQueueMs, double meanRunMs, double maxRunMs) {
        static Counts of(ActionCounts c) {
            return new Counts(c.submitted(), c.completed(), c.failed(), c.rejected(), c.outstanding(), c.actionsRun(),
                    c.slowActions(), millis(c.meanQueueTime()), millis(c.maxQueueTime()), millis(c.meanRunTime()),
                    millis(c.maxRunTime()));
        }
    }

    private static double millis(Duration d) {
        return d.toNanos() / 1_000_000.0;
    }
}
