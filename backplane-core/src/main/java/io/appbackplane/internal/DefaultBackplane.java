package io.appbackplane.internal;

import io.appbackplane.ActionCounts;
import io.appbackplane.Backplane;
import io.appbackplane.BackplaneClock;
import io.appbackplane.BackplaneComponent;
import io.appbackplane.ActionObserver;
import io.appbackplane.ActionTracer;
import io.appbackplane.BackplaneListener;
import io.appbackplane.BackplanePolicy;
import io.appbackplane.BackplaneRejectedException;
import io.appbackplane.BackplaneRejectedException.Reason;
import io.appbackplane.BackplaneStatistics;
import io.appbackplane.ComponentSpec;
import io.appbackplane.ComponentState;
import io.appbackplane.ComponentStatistics;
import io.appbackplane.CpuLimit;
import io.appbackplane.PriorityStatistics;
import io.appbackplane.PublishResult;
import io.appbackplane.Stepper;
import java.time.Duration;
import io.appbackplane.BackplaneShutdownException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * The backplane: wires the scheduler, workers, timers and components, and owns the backplane-wide
 * state — admission, the real tick, shutdown, statistics. Not API: use {@link Backplane}.
 *
 * <p>Lifecycle: see {@link ShutdownSequence} (RUNNING → DRAINING → GOING_DOWN → STOPPED); real
 * ticks go on until STOPPED, so a CPU-limited backplane can drain.
 *
 * <p>Invariants: {@code outstanding = Σ component outstanding}, maintained by admitting the total
 * first (so shutdown, which sets DRAINING and then reads the total, never misses a request that got
 * past the closed check); {@code waiting = Σ component waiting}.
 */
public final class DefaultBackplane implements Backplane {

    private static final System.Logger LOG = System.getLogger(Backplane.class.getName());

    private static final int RUNNING = ShutdownSequence.RUNNING;
    private static final int STOPPED = ShutdownSequence.STOPPED;

    private final String name;
    private final BackplaneClock clock;
    private volatile BackplanePolicy policy;
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
    private final List<BackplaneListener> listeners;
    /** The action observers, composed into one; null when there are none, so the hook costs one check. */
    private final ActionObserver observer;
    /** The action tracer, or null (one check per action when none). */
    final ActionTracer tracer;
    private final ActionCounters[] priorityCounters;
    private final CopyOnWriteArrayList<DefaultComponent> components = new CopyOnWriteArrayList<>();
    private final ConcurrentHashMap<String, DefaultComponent> componentsByName = new ConcurrentHashMap<>();
    private final Set<ScheduledTimer> liveTimers = ConcurrentHashMap.newKeySet();
    /** Requests outstanding in all components, under the policy's total limit. */
    private final AdmissionCounter outstanding = new AdmissionCounter();
    private final AtomicInteger waiting = new AtomicInteger();
    private final AtomicLong realTicks = new AtomicLong();
    /** Time workers spent completing submitters' futures after turns (issue 13, defect 6). */
    private final LongAdder futureCallbackNanos = new LongAdder();
    private final ShutdownSequence sequence = new ShutdownSequence(this);
    /** Rejections by {@link Reason#ordinal()}. */
    private final LongAdder[] rejections = newAdders(Reason.values().length);
    private final DefaultComponent self;
    private final ModuleDriver modules = new ModuleDriver(this);
    private final Topics topics = new Topics();
    /** Runs offloaded blocking calls; made on the first offload (a backplane that never offloads has none). */
    private volatile OffloadExecutor offloads;
    /** Guards making and closing {@link #offloads} (not this backplane's monitor: its setters may take time). */
    private final Object offloadLock = new Object();
    /** Set under {@link #offloadLock} when the workers have stopped: offloading ends with them. */
    private boolean offloadsClosed;
    /** The deadline of the pending real tick; confined to the timer that fires ticks. */
    private long nextTickDeadline;

    private DefaultBackplane(String name, BackplanePolicy policy, BackplaneClock clock, boolean stepMode,
            List<BackplaneListener> listeners, List<ActionObserver> observers, ActionTracer tracer) {
        this.name = name;
        this.clock = clock;
        this.policy = policy;
        this.listeners = listeners;
        this.observer = ObservedActions.compose(observers);
        this.tracer = tracer;
        long now = clock.nanoTime();
        this.ready = new ReadyQueues(policy.priorities());
        this.quotas = new QuotaLedger(policy.quotas());
        this.cpu = new CpuBudget(policy.cpuLimit(), policy.integrationPeriod(), policy.cpuBudgetSlices(), now);
        this.measuresThreadCpu = CpuMeter.measuresThreadCpu(clock, stepMode);
        this.priorityCounters = new ActionCounters[policy.priorities()];
        for (int p = 0; p < priorityCounters.length; p++) {
            priorityCounters[p] = new ActionCounters(true); // with a queue-wait histogram, for per-priority percentiles
        }
        this.scheduler = new Scheduler(this, ready, quotas, cpu, policy.actionsPerTurn(), policy.slowActionThreshold());
        this.timers = new TimerService(name, clock);
        this.stepper = stepMode ? new StepDriver(this) : null;
        this.workers = stepMode ? null : new WorkerPool(this, scheduler, policy.threads());
        this.self = new DefaultComponent(this, ComponentSpec.named(name), ready);
        components.add(self);
        componentsByName.put(name, self);
        PriorityInheritance.register(ready);
        nextTickDeadline = now + policy.integrationPeriod().toNanos();
        timers.schedule(nextTickDeadline, this::realTick);
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
        return policy;
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
        if (componentsByName.putIfAbsent(spec.name(), component) != null) {
            throw new IllegalArgumentException("backplane '" + name + "' already has a component named '" + spec.name()
                    + "'; component names must be unique within a backplane (its own component has the backplane's name)");
        }
        components.add(component);
        return component;
    }

    @Override
    public Optional<BackplaneComponent> component(String componentName) {
        return Optional.ofNullable(componentsByName.get(componentName));
    }

    @Override
    public Collection<BackplaneComponent> components() {
        return List.copyOf(components);
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

    Topics topics() {
        return topics;
    }

    /** The other backplanes whose components this one's may depend on (DESIGN §3.2), set by {@link #link}. */
    private volatile List<DefaultBackplane> linked = List.of();

    /**
     * Links {@code backplanes} to each other: the components of each may depend on those of the
     * others.
     *
     * @throws IllegalArgumentException if one was not built by {@link io.appbackplane.Backplane.Builder}
     */
    public static void link(java.util.Collection<? extends io.appbackplane.Backplane> backplanes) {
        List<DefaultBackplane> all = new ArrayList<>();
        for (io.appbackplane.Backplane backplane : backplanes) {
            if (!(backplane instanceof DefaultBackplane b)) {
                throw new IllegalArgumentException("backplane '" + backplane.name() + "' (" + backplane.getClass().getName()
                        + ") cannot be linked; allowed: backplanes built by Backplane.builder(name)");
            }
            all.add(b);
        }
        for (DefaultBackplane b : all) {
            b.linked = all.stream().filter(other -> other != b).toList();
        }
    }

    List<DefaultBackplane> linked() {
        return linked;
    }

    /** The backplane's own component first, then the installed ones in installation order. */
    List<DefaultComponent> componentsIncludingSelf() {
        return List.copyOf(components);
    }

    @Override
    public synchronized void setThreads(int threads) {
        if (threads < 1 || threads > BackplanePolicy.MAX_THREADS) {
            throw new IllegalArgumentException(
                    "threads = " + threads + " is invalid; allowed: 1.." + BackplanePolicy.MAX_THREADS);
        }
        policy = policy.toBuilder().threads(threads).build();
        if (workers != null) {
            workers.setThreads(threads);
        }
    }

    @Override
    public synchronized void setQuota(int priority, int quota) {
        policy = policy.toBuilder().quota(policy.checkPriority(priority), quota).build(); // validates
        quotas.setQuota(priority, quota);
        signalAll();
    }

    @Override
    public synchronized void setCpuLimit(CpuLimit cpuLimit) {
        Objects.requireNonNull(cpuLimit, "cpuLimit must not be null");
        policy = policy.toBuilder().cpuLimit(cpuLimit).build();
        cpu.setLimit(cpuLimit);
        if (cpuLimit.isUnlimited()) {
            cpu.resumed(clock.nanoTime()); // nothing waits for budget any more: close an open throttled interval
        }
        signalAll();
    }

    @Override
    public boolean isIdle() {
        return outstanding.isZero();
    }

    @Override
    public Stepper stepper() {
        if (stepper == null) {
            throw new IllegalStateException("backplane '" + name + "' runs its own worker threads; build it with"
                    + " Backplane.builder(name).stepMode() to drive it step by step");
        }
        return stepper;
    }

    // ---------------------------------------------------------------- admission and accounting

    /**
     * Counts a request into the backplane total, or throws its rejection. It counts first and then
     * reads the state again, so shutdown (which sets DRAINING, then reads the total) never misses a
     * request that got past the closed check (class comment).
     */
    void admit(DefaultComponent component, Request request) {
        checkOpen(component, request); // a closed backplane says so, even when it is also at its limit
        if (request.system) {
            outstanding.admit();
        } else {
            BackplanePolicy current = policy;
            int threshold = current.admissionThreshold(request.priority); // rule 11: less urgent work leaves a reserve
            if (!outstanding.tryAdmit(threshold)) {
                int limit = current.operationLimit();
                String share = threshold >= limit ? "its outstanding-operation limit (" + limit + ")"
                        : "the " + threshold + " outstanding requests that priority " + request.priority + " may fill of"
                                + " its outstanding-operation limit (" + limit + "; the admission reserve "
                                + current.admissionReserve() + " keeps the rest for more urgent priorities)";
                throw component.reject(request, Reason.BACKPLANE_LIMIT, "backplane '" + name + "' is at " + share
                        + "; back off and retry later");
            }
        }
        try {
            checkOpen(component, request);
        } catch (BackplaneRejectedException e) {
            unadmit();
            throw e;
        }
    }

    /**
     * Rejects what shutdown no longer admits: after shutdown began, work from outside the backplane
     * (a thread not running one of its actions); once stopped, everything. State transitions and
     * follow-up work of the backplane's own actions drain (DESIGN §3.2).
     */
    private void checkOpen(DefaultComponent component, Request request) {
        int s = sequence.phase();
        if (s == STOPPED || (s != RUNNING && !request.system && !isWorkerThread())) {
            throw component.reject(request, Reason.CLOSED, "backplane '" + name + "' is shutting down and accepts no"
                    + " new work" + (s == STOPPED ? "" : " from outside its own actions") + " (component '"
                    + component.name() + "'); send it elsewhere");
        }
    }

    /** Undoes {@link #admit} for a request the component then rejected. */
    void unadmit() {
        outstanding.finish();
        sequence.progress();
    }

    /** Called exactly once per accepted request; {@code byShutdown}: failed by a shutdown sweep (not drained). */
    void requestFinished(Request request, boolean success, boolean byShutdown) {
        priorityCounters[request.priority].finished(success);
        if (!byShutdown) {
            sequence.requestFinished(request); // counted before it stops counting as outstanding, so a report includes it
        }
        outstanding.finish();
        sequence.progress();
    }

    /** Whether no request is outstanding (shutdown's drained check). */
    boolean nothingOutstanding() {
        return outstanding.isZero();
    }

    void actionRan(DefaultComponent component, ActionNode node, long queueTime, long runTime) {
        component.counters.actionRan(queueTime, runTime);
        priorityCounters[node.priority].actionRan(queueTime, runTime);
        if (node.request.endpoint != null) {
            node.request.endpoint.actionRan(queueTime, runTime);
        }
        if (observer != null) {
            ObservedActions.tell(observer, component, node.priority, queueTime, runTime);
        }
    }

    /** Counts a rejection by its reason; on the rejecting (caller's) thread, never on the action path. */
    void countRejection(Reason reason) {
        rejections[reason.ordinal()].increment();
    }

    /** A worker (or the step driver) spent {@code nanos} completing submitters' futures after a turn. */
    void futureCallbacksRan(long nanos) {
        futureCallbackNanos.add(nanos);
    }

    private static LongAdder[] newAdders(int n) {
        LongAdder[] adders = new LongAdder[n];
        for (int i = 0; i < n; i++) {
            adders[i] = new LongAdder();
        }
        return adders;
    }

    private Map<Reason, Long> rejectionsByReason() {
        Map<Reason, Long> byReason = new EnumMap<>(Reason.class);
        for (Reason reason : Reason.values()) {
            byReason.put(reason, rejections[reason.ordinal()].sum());
        }
        return byReason;
    }

    ActionCounters priorityCounters(int priority) {
        return priorityCounters[priority];
    }

    void waitingChanged(int delta) {
        waiting.addAndGet(delta);
    }

    // ---------------------------------------------------------------- scheduling hooks

    /** A CPU meter for one worker (or the step driver): thread CPU time with the system clock, see {@link CpuMeter}. */
    CpuMeter newCpuMeter() {
        return new CpuMeter(cpu, measuresThreadCpu);
    }

    Scheduler scheduler() {
        return scheduler;
    }

    TimerService timers() {
        return timers;
    }

    SharedReplyListeners sharedReplies() {
        return sharedReplies;
    }

    void signalWork() {
        if (workers != null) {
            workers.signal();
        }
    }

    private void signalAll() {
        if (workers != null) {
            workers.signalAll();
        }
    }

    /** Delivers a reply (or its timeout) to the object that waits for it, if it still does. */
    void deliverReply(PendingReply reply, WorkObject object, Object value, Throwable failure) {
        ReadyEntry entry = object.deliver(reply, value, failure, clock.nanoTime());
        if (entry != null) {
            scheduler.push(entry);
        }
    }

    /** A real tick (rule 4): replenish quotas, reset CPU use, wake throttled workers. */
    private void realTick() {
        long now = clock.nanoTime();
        quotas.realTick();
        cpu.realTick(now);
        realTicks.incrementAndGet();
        signalAll();
        if (sequence.phase() == STOPPED) {
            return;
        }
        long period = policy.integrationPeriod().toNanos();
        long next = nextTickDeadline + period;
        while (next - now <= 0) {
            next += period; // the timer fell behind: skip missed ticks rather than tick in a burst
        }
        nextTickDeadline = next;
        timers.schedule(next, this::realTick);
    }

    void timerStarted(ScheduledTimer timer) {
        liveTimers.add(timer);
        if (sequence.phase() != RUNNING) {
            timer.cancel();
        }
    }

    void timerCancelled(ScheduledTimer timer) {
        liveTimers.remove(timer);
    }

    /** Timers not yet over; for tests (a fired one-shot must not linger). */
    int liveTimerCount() {
        return liveTimers.size();
    }

    void slowAction(BackplaneListener.SlowAction slow) {
        LOG.log(System.Logger.Level.WARNING, "slow action: backplane ''{0}'', component ''{1}'', object ''{2}'',"
                + " priority {3} ran {4} ms (threshold {5} ms)", slow.backplane(), slow.component(), SafeText.of(slow.objectKey()),
                slow.priority(), slow.runTime().toMillis(), slow.threshold().toMillis());
        for (BackplaneListener listener : listeners) {
            try {
                listener.onSlowAction(slow);
            } catch (RuntimeException | Error e) { // a listener's failure never gets into the worker (not even an Error)
                LOG.log(System.Logger.Level.WARNING, "backplane listener failed", e);
            }
        }
    }

    void unobservedFailure(DefaultComponent component, Object key, Throwable failure) {
        LOG.log(System.Logger.Level.WARNING, "action on object '" + SafeText.of(key) + "' of component '" + component.name()
                + "' in backplane '" + name + "' failed and nobody awaited its result", failure);
        for (BackplaneListener listener : listeners) {
            try {
                listener.onUnobservedFailure(component.name(), key, failure);
            } catch (RuntimeException | Error e) { // a listener's failure never gets into the worker (not even an Error)
                LOG.log(System.Logger.Level.WARNING, "backplane listener failed", e);
            }
        }
    }

    // ---------------------------------------------------------------- shutdown

    @Override
    public CompletableFuture<ShutdownReport> shutdown(Duration drainTimeout) {
        return shutdown(drainTimeout, drainTimeout);
    }

    @Override
    public CompletableFuture<ShutdownReport> shutdown(Duration drainTimeout, Duration downTimeout) {
        checkTimeout("drainTimeout", drainTimeout);
        checkTimeout("downTimeout", downTimeout);
        sequence.begin(drainTimeout, downTimeout, () -> {
            for (ScheduledTimer timer : liveTimers) {
                timer.cancel(); // timer firings come from outside: none once shutdown began
            }
        });
        return sequence.report();
    }

    private static void checkTimeout(String what, Duration timeout) {
        Objects.requireNonNull(timeout, what + " must not be null");
        if (timeout.isNegative()) {
            throw new IllegalArgumentException(what + " " + timeout + " is invalid; allowed: zero or positive");
        }
    }

    /** The backplane whose work the current thread runs (set by workers and by the step driver). */
    static final ThreadLocal<DefaultBackplane> CURRENT = new ThreadLocal<>();

    @Override
    public boolean isWorkerThread() {
        return CURRENT.get() == this;
    }

    @Override
    public boolean isShutdown() {
        return sequence.phase() != RUNNING;
    }

    /** Whether the shutdown sweep has run (or is running): work queued now would never run. */
    boolean isStopped() {
        return sequence.phase() == STOPPED;
    }

    @Override
    public void close() {
        if (isWorkerThread()) {
            // It would wait for the drain, which waits for the action calling it: fail at once instead.
            throw new IllegalStateException("close() of backplane '" + name + "' was called from one of its own actions"
                    + " (thread " + Thread.currentThread().getName() + "); it would wait for the drain, which waits for"
                    + " this action. Call shutdown(drainTimeout) there without waiting for it, or close from another thread");
        }
        if (stepper != null) {
            shutdown(Duration.ZERO, Duration.ZERO);
            sequence.stop(); // also when an earlier shutdown(d > 0) still waits for a manual clock
            sequence.report().join();
            return;
        }
        CompletableFuture<ShutdownReport> done = shutdown(DEFAULT_DRAIN_TIMEOUT);
        long waitMillis = 2 * DEFAULT_DRAIN_TIMEOUT.toMillis() + 10_000; // the drain, the DOWN hooks, 10 s more
        try {
            done.get(waitMillis, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            LOG.log(System.Logger.Level.WARNING, "backplane ''{0}'': actions still running 10 s after the drain and"
                    + " DOWN timeouts; interrupting its workers", name);
            workers.interruptAll();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException e) {
            throw new IllegalStateException("backplane '" + name + "' failed to shut down", e.getCause());
        }
    }

    /**
     * Fails everything queued or waiting for a reply in every object (running actions finish), with
     * {@code BackplaneShutdownException}; {@code forever} also makes the objects refuse later work.
     *
     * @return how many requests this call failed
     */
    long failRemaining(boolean forever) {
        long failed = 0;
        for (DefaultComponent component : components) {
            for (WorkObject object : component.objects()) {
                List<ActionNode> dropped = tracer != null ? new ArrayList<>() : null;
                for (Request request : object.abandon(forever, dropped)) {
                    if (!request.isFinished()) {
                        failed++;
                    }
                    request.abandon();
                }
                if (dropped != null) {
                    ObservedActions.dropped(tracer, dropped, () -> shutDownBeforeItRan(component));
                }
            }
        }
        return failed;
    }

    /** Why a dropped action's trace ended: its backplane shut down before it ran. */
    static BackplaneShutdownException shutDownBeforeItRan(DefaultComponent component) {
        return new BackplaneShutdownException("backplane '" + component.backplane().name() + "' shut down before the action on"
                + " component '" + component.name() + "' ran");
    }

    /** The offload executor, made on first use; one that is made after shut-down rejects every call. */
    OffloadExecutor offloads() {
        OffloadExecutor o = offloads;
        if (o == null) {
            synchronized (offloadLock) {
                o = offloads;
                if (o == null) {
                    o = new OffloadExecutor(name, policy);
                    if (offloadsClosed) {
                        o.shutdown();
                    }
                    offloads = o;
                }
            }
        }
        return o;
    }

    /**
     * Stops the workers (they finish their current action), then the timers and the offload
     * executor; completes when done.
     */
    CompletableFuture<Void> stopWorkersAndTimers() {
        CompletableFuture<Void> stopped = workers == null ? CompletableFuture.completedFuture(null) : workers.stop();
        return stopped.whenComplete((ignored, failure) -> {
            timers.stop();
            synchronized (offloadLock) {
                offloadsClosed = true;
                if (offloads != null) {
                    offloads.shutdown();
                }
            }
            PriorityInheritance.unregister(ready);
        });
    }

    // ---------------------------------------------------------------- statistics

    @Override
    public BackplaneStatistics statistics() {
        BackplanePolicy current = policy;
        List<PriorityStatistics> priorities = new ArrayList<>(current.priorities());
        for (int p = 0; p < current.priorities(); p++) {
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
                Duration.ofNanos(futureCallbackNanos.sum()));
        int threads = workers == null ? 0 : workers.live();
        int busy = workers == null ? 0 : workers.busy();
        int idle = workers == null ? 0 : workers.idle();
        long replaced = workers == null ? 0 : workers.replaced();
        return new BackplaneStatistics(name, current, threads, busy, idle, replaced, priorities, cpuStats, realTicks.get(),
                quotas.virtualTicks(), ready.totalDepth(), waiting.get(), outstanding.outstanding(),
                // Σ components, not Σ priorities: a request an endpoint refused for its component's state has no priority.
                ActionCounters.sum(componentStats.stream().map(ComponentStatistics::counts).toList()), componentStats,
                rejectionsByReason());
    }

    /** Checks every object's invariants; for tests, on a quiescent backplane. */
    void checkInvariants() {
        int waitingSum = 0;
        int outstandingSum = 0;
        for (DefaultComponent component : components) {
            for (WorkObject object : component.objects()) {
                object.checkInvariants();
            }
            waitingSum += component.waiting();
            outstandingSum += component.outstanding();
        }
        if (waitingSum != waiting.get() || outstandingSum != outstanding.outstanding()) {
            throw new AssertionError("backplane totals differ from the sum of its components: waiting " + waiting.get()
                    + " vs " + waitingSum + ", outstanding " + outstanding.outstanding() + " vs " + outstandingSum);
        }
    }

    @Override
    public String toString() {
        return "Backplane{" + name + "}";
    }
}
