package io.appbackplane.internal;

import io.appbackplane.ActionCounts;
import io.appbackplane.ActionObserver;
import io.appbackplane.BackplaneClock;
import io.appbackplane.BackplanePolicy;
import io.appbackplane.BackplaneRejectedException.Reason;
import io.appbackplane.BackplaneStatistics;
import io.appbackplane.ComponentStatistics;
import io.appbackplane.PriorityStatistics;
import io.appbackplane.internal.base.ActionCounters;
import io.appbackplane.internal.base.WorkerThread;
import io.appbackplane.internal.components.DefaultComponent;
import io.appbackplane.internal.components.QueueWaitLimit;
import io.appbackplane.internal.components.RequestCounting;
import io.appbackplane.internal.objects.ActionNode;
import io.appbackplane.internal.objects.ObservedActions;
import io.appbackplane.internal.objects.WorkObject;
import io.appbackplane.internal.scheduling.ActionAccounting;
import io.appbackplane.internal.scheduling.AutoCpuLimit;
import io.appbackplane.internal.scheduling.CpuBudget;
import io.appbackplane.internal.scheduling.QuotaLedger;
import io.appbackplane.internal.scheduling.ReadyQueues;
import io.appbackplane.internal.scheduling.RealTicks;
import io.appbackplane.internal.scheduling.WorkerPool;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * A backplane's statistics (scheduling rule 17): the backplane-wide counters — per priority, rejections
 * by reason, time spent completing submitters' futures — the per-action accounting that feeds them
 * and the action observers, and the {@link BackplaneStatistics} snapshot assembled from them and
 * from the scheduler's state.
 *
 * <p>Threads: workers (and the step driver) call {@link #actionRan} and {@link #futureCallbacksRan}
 * once per action or turn, submitters count rejections, anyone takes a snapshot. No lock: every
 * counter is an {@link ActionCounters} or a {@link LongAdder}, so a snapshot taken while actions
 * run is a moment-old sum, not an atomic cut across counters. {@link #actionRan} is on every
 * action's path: final fields and one null check for the observers, nothing allocated.
 *
 * <p>Invariant: one {@link ActionCounters} per priority, {@code 0..P-1}, made at construction (P
 * does not change); the snapshot's total counts are {@code Σ component counts}, not {@code Σ
 * priority counts} (a request an endpoint refused for its component's state has no priority).
 */
public final class BackplaneCounters implements ActionAccounting, RequestCounting {

    private final String name;
    private final BackplaneClock clock;
    private final ReadyQueues ready;
    private final QuotaLedger quotas;
    private final CpuBudget cpu;
    /** The action observers, composed into one; null when there are none, so the hook costs one check. */
    private final ActionObserver observer;
    private final ActionCounters[] priorityCounters;
    /** Rejections by {@link Reason#ordinal()}. */
    private final LongAdder[] rejections = newAdders(Reason.values().length);
    /** Time workers spent completing submitters' futures after turns. */
    private final LongAdder futureCallbackNanos = new LongAdder();

    BackplaneCounters(String name, BackplaneClock clock, int priorities, ReadyQueues ready, QuotaLedger quotas,
            CpuBudget cpu, ActionObserver observer) {
        this.name = name;
        this.clock = clock;
        this.ready = ready;
        this.quotas = quotas;
        this.cpu = cpu;
        this.observer = observer;
        this.priorityCounters = new ActionCounters[priorities];
        for (int p = 0; p < priorityCounters.length; p++) {
            priorityCounters[p] = new ActionCounters(true); // with a queue-wait histogram, for per-priority percentiles
        }
    }

    @Override
    public ActionCounters priority(int priority) {
        return priorityCounters[priority];
    }

    /** Counts an action that ran in its component's, its priority's and its endpoint's counters, and tells the observers. */
    @Override
    public void actionRan(WorkObject object, ActionNode node, long queueTime, long runTime) {
        DefaultComponent component = (DefaultComponent) object.component; // every object's owner is a component
        int slot = WorkerThread.currentSlot(); // once for the three counters
        component.counters.actionRan(slot, queueTime, runTime);
        priorityCounters[node.priority()].actionRan(slot, queueTime, runTime);
        QueueWaitLimit adaptive = component.queueWaitLimit;
        if (adaptive != null) {
            adaptive.actionRan(node.priority(), queueTime);
        }
        ActionCounters endpoint = node.request.endpoint();
        if (endpoint != null) {
            endpoint.actionRan(slot, queueTime, runTime);
        }
        if (observer != null) {
            ObservedActions.tell(observer, component, node.priority(), queueTime, runTime);
        }
    }

    @Override
    public boolean hasObserver() {
        return observer != null;
    }

    /** Counts a slow action in its component's, its priority's and its endpoint's counters. */
    @Override
    public void slowActionRan(WorkObject object, ActionNode node) {
        ((DefaultComponent) object.component).counters.slowActions.increment();
        priorityCounters[node.priority()].slowActions.increment();
        ActionCounters endpoint = node.request.endpoint();
        if (endpoint != null) {
            endpoint.slowActions.increment();
        }
    }

    @Override
    public void countRejection(Reason reason) {
        rejections[reason.ordinal()].increment();
    }

    @Override
    public void futureCallbacksRan(long nanos) {
        futureCallbackNanos.add(nanos);
    }

    /**
     * A snapshot of the backplane's statistics under {@code policy}, with the parts that live
     * elsewhere passed in: the workers (null in step mode), the real ticks, the admission totals and
     * the components.
     */
    BackplaneStatistics snapshot(BackplanePolicy policy, WorkerPool workers, RealTicks realTicks,
            BackplaneAdmission admission, List<DefaultComponent> components) {
        List<PriorityStatistics> priorities = new ArrayList<>(policy.priorities());
        for (int p = 0; p < policy.priorities(); p++) {
            ActionCounts counts = priorityCounters[p].snapshot();
            priorities.add(new PriorityStatistics(p, quotas.quota(p), quotas.used(p), ready.depth(p), counts,
                    priorityCounters[p].queueWaitHistogram()));
        }
        List<ComponentStatistics> componentStats = new ArrayList<>();
        for (DefaultComponent component : components) {
            componentStats.add(component.statistics());
        }
        long now = clock.nanoTime();
        BackplaneStatistics.Cpu cpuStats = new BackplaneStatistics.Cpu(
                cpu.limit(),
                cpu.isLimited() ? Duration.ofNanos(cpu.budgetNanos()) : null,
                Duration.ofNanos(cpu.usedThisPeriod()),
                Duration.ofNanos(cpu.usedLastPeriod()),
                Duration.ofNanos(cpu.throttledNanos(now)),
                Duration.ofNanos(futureCallbackNanos.sum()),
                cpu.coresInForce(),
                autoStatistics(cpu.auto()));
        int threads = workers == null ? 0 : workers.live();
        int busy = workers == null ? 0 : workers.busy();
        int idle = workers == null ? 0 : workers.idle();
        long replaced = workers == null ? 0 : workers.replaced();
        return new BackplaneStatistics(name, policy, threads, busy, idle, replaced, priorities, cpuStats, realTicks.count(),
                quotas.virtualTicks(), ready.totalDepth(), admission.waiting(), admission.outstanding(),
                // Σ components, not Σ priorities: a request an endpoint refused for its component's state has no priority.
                ActionCounters.sum(componentStats.stream().map(ComponentStatistics::counts).toList()), componentStats,
                rejectionsByReason());
    }

    private static BackplaneStatistics.Auto autoStatistics(AutoCpuLimit auto) {
        return auto == null ? null : new BackplaneStatistics.Auto(auto.quota(), auto.restCores(), auto.share(), auto.throttledTicks());
    }

    private Map<Reason, Long> rejectionsByReason() {
        Map<Reason, Long> byReason = new EnumMap<>(Reason.class);
        for (Reason reason : Reason.values()) {
            byReason.put(reason, rejections[reason.ordinal()].sum());
        }
        return byReason;
    }

    private static LongAdder[] newAdders(int n) {
        LongAdder[] adders = new LongAdder[n];
        for (int i = 0; i < n; i++) {
            adders[i] = new LongAdder();
        }
        return adders;
    }
}
