package io.appbackplane.internal.components;

import io.appbackplane.Action;
import io.appbackplane.ActionEndpoint;
import io.appbackplane.Backplane;
import io.appbackplane.BackplaneComponent;
import io.appbackplane.BackplaneRejectedException.Reason;
import io.appbackplane.BackplaneRejectedException;
import io.appbackplane.BackplaneShutdownException;
import io.appbackplane.ComponentSpec;
import io.appbackplane.ComponentState;
import io.appbackplane.ComponentStatistics;
import io.appbackplane.Digester;
import io.appbackplane.EndpointSpec;
import io.appbackplane.EndpointStatistics;
import io.appbackplane.ObjectHandle;
import io.appbackplane.ObjectPool;
import io.appbackplane.TimerHandle;
import io.appbackplane.TimerSpec;
import io.appbackplane.internal.base.ActionCounters;
import io.appbackplane.internal.base.WorkerThread;
import io.appbackplane.internal.objects.AfterAction;
import io.appbackplane.internal.objects.KeyedObjects;
import io.appbackplane.internal.objects.ObjectOwner;
import io.appbackplane.internal.objects.ActionNode;
import io.appbackplane.internal.objects.PendingReply;
import io.appbackplane.internal.objects.PooledObjects;
import io.appbackplane.internal.objects.PooledWorkObject;
import io.appbackplane.internal.objects.ReadyEntry;
import io.appbackplane.internal.objects.ReadyMembership;
import io.appbackplane.internal.objects.Request;
import io.appbackplane.internal.objects.RequestOwner;
import io.appbackplane.internal.objects.WorkObject;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A component: the {@link BackplaneComponent} API, its counts and statistics. The rest is delegated
 * to one collaborator per job: {@link RequestDispatch} (the dispatch of its requests in the caller's
 * thread; scheduling rule 10), {@link KeyedObjects} (the
 * key-to-object table, pins, release; rule 16), {@link ComponentAdmission} (the
 * outstanding-operation limit and rejections; rule 11), {@link ComponentTimers} (timers and timer
 * endpoints; rule 13), {@link ModuleState} (the module state and its transitions) and {@link
 * ComponentEndpoints} (endpoints and their subscriptions). Its objects and requests see it as their
 * {@link ObjectOwner} and {@link RequestOwner}; it delivers its waiting objects' replies.
 *
 * <p>Invariants: {@code waiting = objects of this component in state WAITING} (each object reports
 * its entering and leaving WAITING through {@link #waitingChanged}); every accepted request finishes
 * exactly once, through {@link #requestFinished} (see {@link Request}).
 *
 * <p>Thread-safe: any thread may submit; the collaborators are reached through final fields.
 */
public final class DefaultComponent implements ObjectOwner, RequestOwner {

    /** The backplane, as what components need of it. */
    private final ComponentHost backplane;
    /** The backplane's admission, taken once: a finishing request reaches it in one field read, not via the backplane. */
    private final TotalAdmission backplaneAdmission;
    private final String name;
    /** The backplane's ready structure, which this component's objects join (here, not per object: it saves memory per key). */
    private final ReadyMembership ready;
    public final ActionCounters counters = new ActionCounters();
    private final AtomicInteger waiting = new AtomicInteger();
    public final KeyedObjects keyedObjects;
    final ComponentAdmission admission;
    final ComponentTimers timers;
    final ModuleState module;
    private final ComponentEndpoints endpoints;
    private final RequestDispatch requests;
    /** Adapts the admission limit to the component's queue-wait target; null without a target. */
    public final QueueWaitLimit queueWaitLimit;

    public DefaultComponent(ComponentHost backplane, ComponentSpec spec, ReadyMembership ready) {
        this.backplane = backplane;
        this.backplaneAdmission = backplane.totalAdmission();
        this.name = spec.name();
        this.ready = ready;
        this.keyedObjects = new KeyedObjects(this, spec.idleObjectRetention(), backplane.timers(), backplane.clock(),
                backplane.tracer());
        this.admission = new ComponentAdmission(this, backplane, spec, counters);
        this.requests = new RequestDispatch(this, backplane, counters, admission, keyedObjects);
        this.timers = new ComponentTimers(this, backplane);
        this.module = new ModuleState(this, spec.dependencies(), spec.hooks());
        this.endpoints = new ComponentEndpoints(this);
        this.queueWaitLimit = spec.queueWaitTarget()
                .map(target -> new QueueWaitLimit(name, target, spec.operationLimit(), backplane.policy().priorities()))
                .orElse(null);
    }

    /** A real tick: a component with a queue-wait target adapts its admission limit (rule 19). */
    public void adaptLimit() {
        QueueWaitLimit adaptive = queueWaitLimit;
        if (adaptive != null) {
            int next = adaptive.tick(admission.outstanding(), counters.rejected.sum());
            if (next != admission.operationLimit()) {
                admission.setOperationLimit(next);
            }
        }
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public Backplane backplane() {
        return backplane;
    }

    /** The backplane, as what this component and its collaborators need of it. */
    ComponentHost host() {
        return backplane;
    }

    /** Why a dropped action's trace ended: the backplane shut down before it ran. */
    public BackplaneShutdownException shutDownBeforeItRan() {
        return new BackplaneShutdownException("backplane '" + backplane.name() + "' shut down before the action on"
                + " component '" + name + "' ran");
    }

    // ---------------------------------------------------------------- dispatch (rule 10)

    @Override
    @SuppressWarnings("unchecked")
    public <T> CompletableFuture<T> submit(Object key, int priority, Action<T> action) {
        CompletableFuture<Object> future = new CompletableFuture<>();
        requests.dispatch(null, requests.request(key, priority, future, null, null, false), action);
        return (CompletableFuture<T>) future;
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T> CompletableFuture<T> submitTo(WorkObject object, int priority, Action<T> action) {
        CompletableFuture<Object> future = new CompletableFuture<>();
        requests.dispatch(object, requests.request(object.key, priority, future, null, null, false), action);
        return (CompletableFuture<T>) future;
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T> CompletableFuture<T> submitToPool(PooledObjects pool, int priority, Action<T> action) {
        CompletableFuture<Object> future = new CompletableFuture<>();
        toPool(pool, priority, future, null, action);
        return (CompletableFuture<T>) future;
    }

    @Override
    public void executeOnPool(PooledObjects pool, int priority, Action<?> action) {
        toPool(pool, priority, null, null, action);
    }

    /** A request to {@code pool} (through an endpoint when {@code endpoint} is its counters), dispatched. */
    private void toPool(PooledObjects pool, int priority, CompletableFuture<Object> future, ActionCounters endpoint, Action<?> action) {
        requests.dispatchToPool(pool, requests.request(pool.requestKey(), priority, future, null, endpoint, false), action);
    }

    @Override
    public void queueOnMember(PooledWorkObject member, ActionNode node) {
        requests.queueOnMember(member, node);
    }

    @Override
    public int priorities() {
        return backplane.policy().priorities();
    }

    @Override
    public int workerThreads() {
        return backplane.policy().threads();
    }

    /** The backplane's worker threads changed: each pool starts what its backlog holds, up to its new places. */
    public void workerThreadsChanged() {
        keyedObjects.startBacklogs();
    }

    /** An endpoint's request: to the object for {@code key}. */
    void dispatchFor(DefaultEndpoint<?, ?> endpoint, Object key, int priority, Action<?> action, CompletableFuture<Object> future) {
        requests.dispatch(null, requests.request(key, priority, future, null, endpoint == null ? null : endpoint.counters, false), action);
    }

    /** A pooled endpoint's request: to its pool. */
    void dispatchToPool(DefaultEndpoint<?, ?> endpoint, PooledObjects pool, int priority, Action<?> action,
            CompletableFuture<Object> future) {
        toPool(pool, priority, future, endpoint.counters, action);
    }

    @Override
    public void execute(Object key, int priority, Action<?> action) {
        requests.dispatch(null, requests.request(key, priority, null, null, null, false), action);
    }

    void dispatchTimerFiring(Object key, int priority, Action<?> action, ScheduledTimer timer) {
        requests.dispatch(null, requests.request(key, priority, null, timer, null, false), action);
    }

    /** A state transition ({@link ModuleState}): a system request at priority 0 on the component's own object. */
    void dispatchTransition(Action<?> action, CompletableFuture<Object> done) {
        requests.dispatch(null, requests.request(COMPONENT_KEY, 0, done, null, null, true), action);
    }

    @Override
    public <M, T> CompletableFuture<T> digest(M message, Digester<M, T> digester) {
        Objects.requireNonNull(digester, "digester must not be null");
        CompletableFuture<T> result = new CompletableFuture<>();
        CompletableFuture<Object> digested = submit(DIGESTER_KEY, DIGESTER_PRIORITY, context -> {
            Digester.Dispatch<T> dispatch = digester.decide(context, message);
            Objects.requireNonNull(dispatch, "the digester of component '" + name + "' returned no dispatch");
            // The digester's own request ends here, so digesting never waits for the real work.
            submit(dispatch.key(), dispatch.priority(), dispatch.action()).whenComplete((value, failure) -> {
                if (failure == null) {
                    result.complete(value);
                } else {
                    result.completeExceptionally(failure);
                }
            });
            return null;
        });
        digested.whenComplete((ignored, failure) -> {
            if (failure != null) {
                result.completeExceptionally(failure);
            }
        });
        return result;
    }

    // ---------------------------------------------------------------- accounting

    /** Counts {@code request} as rejected and returns the exception that tells its caller (see {@link ComponentAdmission}). */
    public BackplaneRejectedException reject(Request request, Reason reason, String message) {
        return admission.reject(request, reason, message);
    }

    @Override
    public void requestFinished(Request request, boolean success, boolean byShutdown) {
        int slot = WorkerThread.currentSlot(); // once for every counter the finish touches
        admission.finished(slot);
        counters.finished(slot, success);
        ActionCounters endpoint = request.endpoint();
        if (endpoint != null) {
            endpoint.finished(slot, success);
        }
        backplaneAdmission.requestFinished(request, success, byShutdown, slot);
    }

    @Override
    public void unobservedFailure(Object key, Throwable failure) {
        backplane.unobservedFailure(this, key, failure);
    }

    @Override
    public void waitingChanged(int delta) {
        waiting.addAndGet(delta);
        backplaneAdmission.waitingChanged(delta);
    }

    // ---------------------------------------------------------------- objects (KeyedObjects)

    @Override
    public ReadyMembership ready() {
        return ready;
    }

    @Override
    public boolean keepsIdleObjects() {
        return keyedObjects.keepsIdleObjects();
    }

    @Override
    public void settled(WorkObject object, AfterAction after) {
        keyedObjects.settled(object, after);
    }

    @Override
    public void deliverReply(PendingReply reply, WorkObject object, Object value, Throwable failure) {
        ReadyEntry entry = object.deliver(reply, value, failure, backplane.clock().nanoTime());
        if (entry != null) {
            backplane.scheduler().push(entry);
        }
    }

    @Override
    public ObjectHandle object(Object key) {
        return keyedObjects.handle(key);
    }

    @Override
    public ObjectPool pool(String poolName, int size) {
        return keyedObjects.pool(poolName, size);
    }

    @Override
    public int cancelQueued(Object key) {
        return keyedObjects.cancelQueued(key);
    }

    @Override
    public int objectCount() {
        return keyedObjects.size();
    }

    public int waiting() {
        return waiting.get();
    }

    public Iterable<WorkObject> objects() {
        return keyedObjects.values();
    }

    // ---------------------------------------------------------------- timers (ComponentTimers)

    @Override
    public TimerHandle schedule(Object key, int priority, Duration delay, Action<?> action) {
        return timers.schedule(key, priority, delay, action);
    }

    @Override
    public TimerHandle scheduleAtFixedRate(Object key, int priority, Duration initialDelay, Duration period, Action<?> action) {
        return timers.scheduleAtFixedRate(key, priority, initialDelay, period, action);
    }

    @Override
    public TimerHandle scheduleWithFixedDelay(Object key, int priority, Duration initialDelay, Duration delay, Action<?> action) {
        return timers.scheduleWithFixedDelay(key, priority, initialDelay, delay, action);
    }

    @Override
    public TimerHandle timer(TimerSpec spec) {
        return timers.timer(spec);
    }

    // ---------------------------------------------------------------- limits (ComponentAdmission)

    @Override
    public int operationLimit() {
        return admission.operationLimit();
    }

    @Override
    public void setOperationLimit(int limit) {
        admission.setOperationLimit(limit);
    }

    @Override
    public double admissionReserve() {
        return admission.admissionReserve();
    }

    @Override
    public int admissionThreshold(int priority) {
        return admission.admissionThreshold(priority);
    }

    @Override
    public int outstanding() {
        return admission.outstanding();
    }

    // ---------------------------------------------------------------- module state (ModuleState)

    @Override
    public ComponentState state() {
        return module.state();
    }

    @Override
    public Set<String> dependencies() {
        return module.dependencies();
    }

    // ---------------------------------------------------------------- endpoints (ComponentEndpoints)

    @Override
    public <Q, R> ActionEndpoint<Q, R> endpoint(EndpointSpec<Q, R> spec) {
        return endpoints.endpoint(spec);
    }

    @Override
    public Collection<ActionEndpoint<?, ?>> endpoints() {
        return endpoints.endpoints();
    }

    @Override
    public <E> Subscription subscribe(String topic, Class<E> eventType, ActionEndpoint<? super E, ?> endpoint) {
        return endpoints.subscribe(topic, eventType, endpoint);
    }

    // ---------------------------------------------------------------- statistics

    @Override
    public ComponentStatistics statistics() {
        List<EndpointStatistics> endpointStats = endpoints.statistics();
        return new ComponentStatistics(name, admission.outstanding(), admission.operationLimit(), keyedObjects.size(),
                waiting.get(), counters.snapshot(), module.state(), List.copyOf(module.dependencies()), endpointStats);
    }

    @Override
    public String toString() {
        return "BackplaneComponent{" + name + "}";
    }
}
