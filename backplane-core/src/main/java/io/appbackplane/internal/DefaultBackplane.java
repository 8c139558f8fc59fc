package io.appbackplane.internal;

import io.appbackplane.ActionObserver;
import io.appbackplane.ActionTracer;
import io.appbackplane.Backplane;
import io.appbackplane.BackplaneClock;
import io.appbackplane.BackplaneComponent;
import io.appbackplane.BackplaneListener;
import io.appbackplane.BackplanePolicy;
import io.appbackplane.BackplaneRejectedException.Reason;
import io.appbackplane.BackplaneRejectedException;
import io.appbackplane.BackplaneStatistics;
import io.appbackplane.ComponentSpec;
import io.appbackplane.ComponentState;
import io.appbackplane.CpuLimit;
import io.appbackplane.PublishResult;
import io.appbackplane.Stepper;
import io.appbackplane.internal.base.TimerService;
import io.appbackplane.internal.components.ComponentHost;
import io.appbackplane.internal.components.DefaultComponent;
import io.appbackplane.internal.components.LiveTimers;
import io.appbackplane.internal.components.RequestCounting;
import io.appbackplane.internal.components.TotalAdmission;
import io.appbackplane.internal.components.LinkedModules;
import io.appbackplane.internal.components.ModuleDriver;
import io.appbackplane.internal.components.Topics;
import io.appbackplane.internal.objects.ObservedActions;
import io.appbackplane.internal.objects.SharedReplyListeners;
import io.appbackplane.internal.scheduling.CpuBudget;
import io.appbackplane.internal.scheduling.CpuMeter;
import io.appbackplane.internal.scheduling.PriorityInheritance;
import io.appbackplane.internal.scheduling.QuotaLedger;
import io.appbackplane.internal.scheduling.ReadyQueues;
import io.appbackplane.internal.scheduling.RealTicks;
import io.appbackplane.internal.scheduling.ActionAccounting;
import io.appbackplane.internal.scheduling.CurrentBackplane;
import io.appbackplane.internal.scheduling.SchedulingHost;
import io.appbackplane.internal.scheduling.Scheduler;
import io.appbackplane.internal.scheduling.StepDriver;
import io.appbackplane.internal.scheduling.WorkerPool;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * The backplane: the {@link Backplane} API, and the wiring of its scheduler, workers, timers,
 * components and the collaborators that own its backplane-wide state: {@link BackplaneAdmission}
 * (admission, the outstanding and waiting totals), {@link RealTicks}, {@link ShutdownSequence}
 * (RUNNING → DRAINING → GOING_DOWN → STOPPED), {@link BackplaneCounters} (counters, statistics),
 * {@link ListenerFanOut}, {@link ComponentRegistry} (the components by name, its own first) and
 * {@link LivePolicy} (the policy, replaced whole by the setters). Not API: use {@link Backplane}.
 *
 * <p>The layers below see it only as what they need of it: {@link SchedulingHost} (workers, the
 * step driver, run contexts, real ticks) and {@link ComponentHost} (components and their
 * collaborators). A component takes its references to the collaborators it calls for every request
 * ({@link ComponentHost#totalAdmission}, {@link ComponentHost#requestCounting}, the {@link
 * ComponentHost#liveTimers} its timers register with) once, when it is made, so requests do not go
 * through the backplane for them; the methods that actions call here read final fields and
 * delegate: nothing allocated, no lock. The workers, timer service and offload executor stop
 * together at the end of shutdown.
 */
public final class DefaultBackplane implements ComponentHost {

    private static final int RUNNING = ShutdownSequence.RUNNING;
    private static final int STOPPED = ShutdownSequence.STOPPED;

    private final String name;
    private final BackplaneClock clock;
    /** The policy, replaced whole by the setters. */
    private final LivePolicy policy;
    private final ReadyQueues ready;
    private final QuotaLedger quotas;
    private final CpuBudget cpu;
    /** Whether workers charge their thread's CPU time (system clock) or actions' clock time (see {@link CpuMeter}). */
    private final boolean measuresThreadCpu;
    private final Scheduler scheduler;
    private final TimerService timers;
    private final SharedReplyListeners sharedReplies = new SharedReplyListeners();
    private final WorkerPool workers; // null in step mode
    private final StepDriver stepper; // null unless in step mode
    /** Where slow actions and unobserved failures go. */
    public final ListenerFanOut listeners;
    /** The action tracer, or null (one check per action when none). */
    public final ActionTracer tracer;
    /** Counted on every action's and request's path (the scheduler and the components keep their own references). */
    public final BackplaneCounters counters;
    private final ComponentRegistry components;
    /** The shutdown phases; also tracks the components' live timers, which it cancels. */
    public final ShutdownSequence sequence = new ShutdownSequence(this);
    /** Admission, the outstanding and waiting totals (components keep their own reference: one field read less per request). */
    public final BackplaneAdmission admission;
    private final RealTicks realTicks;
    private final DefaultComponent self;
    private final ModuleDriver modules = new ModuleDriver(this);
    private final Topics topics = new Topics();
    /** The offload executor, made on the first offload. */
    final LazyOffloads offloads = new LazyOffloads(this);

    private DefaultBackplane(String name, BackplanePolicy policy, BackplaneClock clock, boolean stepMode,
            List<BackplaneListener> listeners, List<ActionObserver> observers, ActionTracer tracer) {
        this.name = name;
        this.clock = clock;
        this.components = new ComponentRegistry(name);
        this.listeners = new ListenerFanOut(name, listeners);
        ActionObserver observer = ObservedActions.compose(observers);
        this.tracer = tracer;
        long now = clock.nanoTime();
        this.ready = new ReadyQueues(policy.priorities());
        this.quotas = new QuotaLedger(policy.quotas());
        this.cpu = new CpuBudget(policy.cpuLimit(), policy.integrationPeriod(), policy.cpuBudgetSlices(), now);
        this.measuresThreadCpu = CpuMeter.measuresThreadCpu(clock, stepMode);
        this.counters = new BackplaneCounters(name, clock, policy.priorities(), ready, quotas, cpu, observer);
        this.admission = new BackplaneAdmission(this, sequence, counters);
        this.scheduler = new Scheduler(this, ready, quotas, cpu, policy.actionsPerTurn(), policy.slowActionThreshold());
        this.timers = new TimerService(name, clock);
        this.stepper = stepMode ? new StepDriver(this) : null;
        try {
            this.workers = stepMode ? null : new WorkerPool(this, scheduler, policy.threads());
        } catch (RuntimeException | Error e) { // no thread to start (the pool stopped those it started)
            timers.stop();
            throw e;
        }
        this.policy = new LivePolicy(policy, quotas, cpu, clock, workers);
        this.self = new DefaultComponent(this, ComponentSpec.named(name), ready);
        components.add(self);
        PriorityInheritance.register(ready);
        this.realTicks = new RealTicks(this, quotas, cpu, timers);
        realTicks.start(now);
    }

    /**
     * Builds and starts a backplane whose actions {@code observers} see and {@code tracer} (nullable)
     * follows; see {@link Backplane.Builder}.
     */
    public static Backplane start(String name, BackplanePolicy policy, BackplaneClock clock, boolean stepMode,
            List<BackplaneListener> listeners, List<ActionObserver> observers, ActionTracer tracer) {
        return new DefaultBackplane(name, policy, clock, stepMode, listeners, observers, tracer);
    }

    // ---------------------------------------------------------------- API

    @Override
    public String name() {
        return name;
    }

    @Override
    public BackplanePolicy policy() {
        return policy.current();
    }

    @Override
    public BackplaneClock clock() {
        return clock;
    }

    @Override
    public BackplaneComponent install(ComponentSpec spec) {
        Objects.requireNonNull(spec, "component spec must not be null");
        if (sequence.phase() != RUNNING) {
            throw new BackplaneRejectedException(Reason.CLOSED, name, spec.name(),
                    "backplane '" + name + "' is shut down; cannot install component '" + spec.name() + "'");
        }
        DefaultComponent component = new DefaultComponent(this, spec, ready);
        components.add(component);
        return component;
    }

    @Override
    public Optional<BackplaneComponent> component(String componentName) {
        return components.find(componentName);
    }

    @Override
    public Collection<BackplaneComponent> components() {
        return List.copyOf(components.all());
    }

    @Override
    public BackplaneComponent self() {
        return self;
    }

    @Override
    public ComponentState state() {
        return self.state();
    }

    @Override
    public CompletableFuture<Void> moveTo(ComponentState target) {
        Objects.requireNonNull(target, "target state must not be null");
        return modules.moveTo(target);
    }

    @Override
    public PublishResult publish(String topic, Object event) {
        Objects.requireNonNull(topic, "topic must not be null");
        Objects.requireNonNull(event, "event must not be null");
        return topics.publish(topic, event);
    }

    @Override
    public Topics topics() {
        return topics;
    }

    /** The other backplanes whose components this one's may depend on (docs/scheduling.md, modules and states), set by {@link #link}. */
    private volatile List<ComponentHost> linked = List.of();

    @Override
    public List<ComponentHost> linked() {
        return linked;
    }

    @Override
    public void linkTo(List<ComponentHost> others) {
        linked = List.copyOf(others);
    }

    @Override
    public TotalAdmission totalAdmission() {
        return admission;
    }

    @Override
    public RequestCounting requestCounting() {
        return counters;
    }

    @Override
    public LiveTimers liveTimers() {
        return sequence;
    }

    /**
     * Links {@code backplanes} to each other: the components of each may depend on those of the
     * others.
     *
     * @throws IllegalArgumentException if one was not built by {@link io.appbackplane.Backplane.Builder}
     */
    public static void link(java.util.Collection<? extends io.appbackplane.Backplane> backplanes) {
        LinkedModules.link(backplanes);
    }

    @Override
    public List<DefaultComponent> componentsIncludingSelf() {
        return components.all();
    }

    @Override
    public void setThreads(int threads) {
        policy.setThreads(threads);
        for (DefaultComponent component : componentsIncludingSelf()) {
            component.workerThreadsChanged(); // more places: backlogged pool requests may start now
        }
    }

    @Override
    public void setQuota(int priority, int quota) {
        policy.setQuota(priority, quota);
    }

    @Override
    public void setCpuLimit(CpuLimit cpuLimit) {
        policy.setCpuLimit(cpuLimit);
    }

    @Override
    public void adaptLimits() {
        components.adaptLimits();
    }

    @Override
    public boolean isIdle() {
        return admission.nothingOutstanding();
    }

    @Override
    public Stepper stepper() {
        if (stepper == null) {
            throw new IllegalStateException("backplane '" + name + "' runs its own worker threads; build it with"
                    + " Backplane.builder(name).stepMode() to drive it step by step");
        }
        return stepper;
    }

    // ---------------------------------------------------------------- scheduling hooks

    @Override
    public ActionTracer tracer() {
        return tracer;
    }

    @Override
    public ActionAccounting accounting() {
        return counters;
    }

    @Override
    public void slowAction(BackplaneListener.SlowAction slow) {
        listeners.slowAction(slow);
    }

    @Override
    public CpuMeter newCpuMeter() {
        return new CpuMeter(cpu, measuresThreadCpu);
    }

    @Override
    public Scheduler scheduler() {
        return scheduler;
    }

    @Override
    public TimerService timers() {
        return timers;
    }

    @Override
    public SharedReplyListeners sharedReplies() {
        return sharedReplies;
    }

    @Override
    public void signalWork() {
        if (workers != null) {
            workers.signal();
        }
    }

    @Override
    public void signalAll() {
        if (workers != null) {
            workers.signalAll();
        }
    }

    @Override
    public void unobservedFailure(BackplaneComponent component, Object key, Throwable failure) {
        listeners.unobservedFailure(component, key, failure);
    }

    // ---------------------------------------------------------------- shutdown

    @Override
    public CompletableFuture<ShutdownReport> shutdown(Duration drainTimeout) {
        return shutdown(drainTimeout, drainTimeout);
    }

    @Override
    public CompletableFuture<ShutdownReport> shutdown(Duration drainTimeout, Duration downTimeout) {
        return sequence.begin(drainTimeout, downTimeout);
    }

    @Override
    public boolean isWorkerThread() {
        return CurrentBackplane.is(this);
    }

    @Override
    public boolean isShutdown() {
        return sequence.phase() != RUNNING;
    }

    @Override
    public boolean isStopped() {
        return sequence.phase() == STOPPED;
    }

    @Override
    public void close() {
        sequence.close(workers);
    }

    /**
     * Stops the workers (they finish their current action), then the timers and the offload
     * executor; completes when done.
     */
    CompletableFuture<Void> stopWorkersAndTimers() {
        CompletableFuture<Void> stopped = workers == null ? CompletableFuture.completedFuture(null) : workers.stop();
        return stopped.whenComplete((ignored, failure) -> {
            timers.stop();
            offloads.close();
            PriorityInheritance.unregister(ready);
        });
    }

    // ---------------------------------------------------------------- statistics

    @Override
    public BackplaneStatistics statistics() {
        return counters.snapshot(policy.current(), workers, realTicks, admission, components.all());
    }

    /** Checks every object's invariants and the backplane totals ({@link BackplaneAdmission}); for tests, when quiescent. */
    void checkInvariants() {
        admission.checkInvariants(components.all());
    }

    @Override
    public String toString() {
        return "Backplane{" + name + "}";
    }
}
