package io.appbackplane.internal;

import io.appbackplane.Action;
import io.appbackplane.Backplane;
import io.appbackplane.BackplaneComponent;
import io.appbackplane.BackplanePolicy;
import io.appbackplane.BackplaneRejectedException;
import io.appbackplane.BackplaneRejectedException.Reason;
import io.appbackplane.ComponentSpec;
import io.appbackplane.ComponentStatistics;
import io.appbackplane.Digester;
import io.appbackplane.ObjectPool;
import io.appbackplane.ObjectHandle;
import io.appbackplane.ObjectReleasedException;
import io.appbackplane.TimerHandle;
import io.appbackplane.ActionEndpoint;
import io.appbackplane.ComponentState;
import io.appbackplane.ComponentStateException;
import io.appbackplane.EndpointSpec;
import io.appbackplane.EndpointStatistics;
import io.appbackplane.StateHook;
import io.appbackplane.TimerSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A component: its keyed objects, its outstanding-request limit (DESIGN rule 11) and its counts.
 *
 * <p>Invariants: {@code outstanding = accepted requests − finished requests} (each request finishes
 * exactly once, see {@link Request}); {@code waiting = objects of this component in state
 * WAITING}; an object is in {@code objects} from its creation until it is RELEASED (a submitter
 * that meets a RELEASED object removes it and retries, so no work is queued to a dead object).
 */
final class DefaultComponent implements BackplaneComponent {

    private final DefaultBackplane backplane;
    private final String name;
    private final ComponentSpec.MakeRoom makeRoom;
    static final int MAX_POOL_SIZE = 1024;

    private final ConcurrentHashMap<Object, WorkObject> objects = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, PooledObjects> pools = new ConcurrentHashMap<>();
    /** The backplane's ready queues, which this component's objects join (here, not per object: it saves memory per key). */
    final ReadyQueues ready;
    /** Requests accepted and not finished, under {@code operationLimit}. */
    private final AdmissionCounter outstanding = new AdmissionCounter();
    private final AtomicInteger waiting = new AtomicInteger();
    private volatile int operationLimit;
    /** The component's own admission reserve, or NaN to follow the backplane policy's (which may change). */
    private final double ownAdmissionReserve;
    final ActionCounters counters = new ActionCounters();
    private final Set<String> dependencies;
    private final Map<ComponentState, List<StateHook>> hooks;
    private volatile ComponentState state = ComponentState.START;
    private final StateWaiters stateWaiters = new StateWaiters();
    private final ConcurrentHashMap<String, DefaultEndpoint<?, ?>> endpoints = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, TimerEndpoint> timerEndpoints = new ConcurrentHashMap<>();

    DefaultComponent(DefaultBackplane backplane, ComponentSpec spec, ReadyQueues ready) {
        this.backplane = backplane;
        this.name = spec.name();
        this.makeRoom = spec.makeRoom();
        this.operationLimit = spec.operationLimit();
        this.ownAdmissionReserve = spec.admissionReserve().orElse(Double.NaN);
        this.ready = ready;
        this.dependencies = spec.dependencies();
        this.hooks = spec.hooks();
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public Backplane backplane() {
        return backplane;
    }

    DefaultBackplane backplaneImpl() {
        return backplane;
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T> CompletableFuture<T> submit(Object key, int priority, Action<T> action) {
        CompletableFuture<Object> future = new CompletableFuture<>();
        dispatch(null, request(key, priority, future, null, null, false), action);
        return (CompletableFuture<T>) future;
    }

    /** Submits to a pinned object (a pool's): no key lookup. */
    @SuppressWarnings("unchecked")
    <T> CompletableFuture<T> submitTo(WorkObject object, int priority, Action<T> action) {
        CompletableFuture<Object> future = new CompletableFuture<>();
        dispatch(object, request(object.key, priority, future, null, null, false), action);
        return (CompletableFuture<T>) future;
    }

    /** Executes on a pinned object (a pool's): no key lookup, no future. */
    void executeOn(WorkObject object, int priority, Action<?> action) {
        dispatch(object, request(object.key, priority, null, null, null, false), action);
    }

    /** An endpoint's request: to {@code pinned} (a pool member) or the object for {@code key}. */
    void dispatchFor(DefaultEndpoint<?, ?> endpoint, WorkObject pinned, Object key, int priority, Action<?> action,
            CompletableFuture<Object> future) {
        Object target = pinned != null ? pinned.key : key;
        dispatch(pinned, request(target, priority, future, null, endpoint == null ? null : endpoint.counters, false), action);
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

    @Override
    public ObjectPool pool(String poolName, int size) {
        Objects.requireNonNull(poolName, "pool name must not be null");
        if (size < 1 || size > MAX_POOL_SIZE) {
            throw new IllegalArgumentException(
                    "pool size " + size + " for pool '" + poolName + "' is invalid; allowed: 1.." + MAX_POOL_SIZE);
        }
        PooledObjects pool = pools.computeIfAbsent(poolName, n -> {
            WorkObject[] members = new WorkObject[size];
            for (int i = 0; i < size; i++) {
                Object key = new PooledObjects.PoolKey(n, i);
                while (true) {
                    WorkObject object = objectFor(key);
                    if (object.pin()) {
                        members[i] = object;
                        break;
                    }
                    objects.remove(key, object);
                }
            }
            return new PooledObjects(this, n, members);
        });
        if (pool.size() != size) {
            throw new IllegalArgumentException("pool '" + poolName + "' of component '" + name + "' has "
                    + pool.size() + " objects, not " + size + "; allowed: the same size, or release it first");
        }
        return pool;
    }

    void poolReleased(PooledObjects pool) {
        pools.remove(pool.name(), pool);
    }

    @Override
    public void execute(Object key, int priority, Action<?> action) {
        dispatch(null, request(key, priority, null, null, null, false), action);
    }

    void dispatchTimerFiring(Object key, int priority, Action<?> action, ScheduledTimer timer) {
        dispatch(null, request(key, priority, null, timer, null, false), action);
    }

    private Request request(Object key, int priority, CompletableFuture<Object> future, ScheduledTimer timer,
            ActionCounters endpoint, boolean system) {
        Objects.requireNonNull(key, "object key must not be null");
        return new Request(this, key, priority, future, timer, endpoint, system);
    }

    /**
     * Admits a request and queues its first action, in the caller's thread (rule 10).
     *
     * @param pinned the object of an {@link ObjectHandle} or pool, or null to look the key up
     */
    private void dispatch(WorkObject pinned, Request request, Action<?> action) {
        Objects.requireNonNull(action, "action must not be null");
        int priority = backplane.policy().checkPriority(request.priority);
        Object key = request.key;
        counters.submitted.increment();
        backplane.priorityCounters(priority).submitted.increment();
        if (request.endpoint != null) {
            request.endpoint.submitted.increment();
        }
        admit(request);
        ActionNode node = new ActionNode(action, priority, request, backplane.clock().nanoTime());
        if (backplane.tracer != null) {
            node.trace = ObservedActions.queued(backplane.tracer, this, priority);
        }
        while (true) {
            WorkObject object = pinned != null ? pinned : objectFor(key);
            ReadyEntry entry = object.enqueue(node);
            if (entry == ReadyEntry.RETRY) {
                objects.remove(key, object); // released concurrently: help remove it, then look again
                pinned = null; // a handle released while we dispatched: the key's current object serves
                continue;
            }
            if (entry == ReadyEntry.ABANDONED) {
                request.abandon();
                if (node.trace != null) {
                    ObservedActions.dropped(backplane.tracer, List.of(node), () -> DefaultBackplane.shutDownBeforeItRan(this));
                }
            } else if (entry != null) {
                backplane.scheduler().push(entry);
            }
            if (backplane.isStopped()) {
                // Admitted before shutdown, queued after its sweep (which may have missed this object):
                // fail what the object holds, as the sweep would have, so no request stays pending.
                List<ActionNode> dropped = backplane.tracer != null ? new ArrayList<>() : null;
                for (Request left : object.abandon(dropped)) {
                    left.abandon();
                }
                if (dropped != null) {
                    ObservedActions.dropped(backplane.tracer, dropped, () -> DefaultBackplane.shutDownBeforeItRan(this));
                }
            }
            return;
        }
    }

    /**
     * Counts the request in, or throws the rejection that tells the caller to back off. A system
     * request (a state transition) is exempt from the limits and is admitted while draining.
     *
     * <p>Rule 11: a request at priority p is admitted while fewer than {@link #admissionThreshold}(p)
     * requests (of any priority) are outstanding; the rest of the limit is the reserve that less
     * urgent work never takes, so a flood of it alone cannot get a more urgent request rejected.
     */
    private void admit(Request request) {
        backplane.admit(this, request); // backplane-wide: closed? total limit?
        if (request.system) {
            outstanding.admit();
            return;
        }
        int threshold = admissionThreshold(request.priority);
        if (outstanding.tryAdmit(threshold)
                || (askForRoom(request) && outstanding.tryAdmit(admissionThreshold(request.priority)))) {
            return;
        }
        backplane.unadmit();
        int limit = operationLimit;
        String share = threshold >= limit ? "its outstanding-operation limit (" + limit + ")"
                : "the " + threshold + " outstanding requests that priority " + request.priority + " may fill of its"
                        + " outstanding-operation limit (" + limit + "; the admission reserve " + admissionReserve()
                        + " keeps the rest for more urgent priorities)";
        throw reject(request, Reason.COMPONENT_LIMIT, "component '" + name + "' of backplane '" + backplane.name()
                + "' is at " + share + " and could not make room; back off and retry later");
    }

    private boolean askForRoom(Request request) {
        if (request.timer != null) {
            // A timer firing is dispatched by the thread that also fires real ticks and reply
            // timeouts: no user hook runs there (a slow or failing one would hold up the whole
            // backplane's ticks). At the limit the firing is skipped and counted (rule 13).
            return false;
        }
        try {
            return makeRoom.makeRoom(this, request.priority);
        } catch (RuntimeException | Error e) { // the request is not admitted: count it as rejected
            backplane.unadmit();
            countRejected(request);
            backplane.countRejection(Reason.COMPONENT_LIMIT); // it was at its limit; the hook's exception tells the caller
            throw e;
        }
    }

    /** Counts {@code request} as rejected and returns the exception that tells its caller. */
    BackplaneRejectedException reject(Request request, Reason reason, String message) {
        countRejected(request);
        backplane.countRejection(reason);
        // after shutdown began nothing is retryable here: the node is going away (DESIGN §3.2)
        return new BackplaneRejectedException(reason, backplane.name(), name, message,
                reason != Reason.CLOSED && !backplane.isShutdown());
    }

    private void countRejected(Request request) {
        counters.rejected.increment();
        backplane.priorityCounters(request.priority).rejected.increment();
        if (request.endpoint != null) {
            request.endpoint.rejected.increment();
        }
    }

    /** Rejects an endpoint request because of the component's state (it never became a request). */
    BackplaneRejectedException rejectForState(DefaultEndpoint<?, ?> endpoint, String message) {
        counters.submitted.increment();
        counters.rejected.increment();
        endpoint.counters.submitted.increment();
        endpoint.counters.rejected.increment();
        backplane.countRejection(Reason.STATE);
        return new BackplaneRejectedException(Reason.STATE, backplane.name(), name, message, !backplane.isShutdown());
    }

    /** Called exactly once per accepted request, by {@link Request}. */
    void requestFinished(Request request, boolean success, boolean byShutdown) {
        outstanding.finish();
        counters.finished(success);
        if (request.endpoint != null) {
            request.endpoint.finished(success);
        }
        backplane.requestFinished(request, success, byShutdown);
    }

    void waitingChanged(int delta) {
        waiting.addAndGet(delta);
        backplane.waitingChanged(delta);
    }

    /** Keyed objects are released when idle (rule 16). */
    boolean releasesIdleObjects() {
        return true;
    }

    /**
     * The object for {@code key}, created if there is none. A lookup, then {@code putIfAbsent}
     * rather than {@code computeIfAbsent}: with many short-lived keys most submissions create an
     * object, and {@code putIfAbsent} into an empty bin is one CAS, where {@code computeIfAbsent}
     * also allocates a reservation node and locks it. Two racing submitters may both create an
     * object; one is put, the other is garbage (the map decides which one serves the key).
     */
    private WorkObject objectFor(Object key) {
        WorkObject object = objects.get(key);
        if (object == null) {
            WorkObject fresh = new WorkObject(this, key);
            object = objects.putIfAbsent(key, fresh);
            if (object == null) {
                object = fresh;
            }
        }
        return object;
    }

    /** Removes an object that reached RELEASED. */
    void forgetReleased(WorkObject object) {
        objects.remove(object.key, object);
    }

    @Override
    public ObjectHandle object(Object key) {
        Objects.requireNonNull(key, "object key must not be null");
        while (true) {
            WorkObject object = objectFor(key);
            if (object.pin()) {
                return new Handle(object);
            }
            objects.remove(key, object);
        }
    }

    @Override
    public int cancelQueued(Object key) {
        Objects.requireNonNull(key, "object key must not be null");
        WorkObject object = objects.get(key);
        if (object == null) {
            return 0;
        }
        List<ActionNode> removed = object.removeQueued();
        if (object.tryRelease()) {
            forgetReleased(object);
        }
        for (ActionNode node : removed) {
            CancellationException cancelled = new CancellationException(
                    "queued action of object '" + SafeText.of(key) + "' of component '" + name + "' was cancelled by cancelQueued");
            node.request.fail(cancelled);
            if (node.trace != null) {
                ObservedActions.dropped(backplane.tracer, List.of(node), () -> cancelled);
            }
        }
        return removed.size();
    }

    @Override
    public TimerHandle schedule(Object key, int priority, Duration delay, Action<?> action) {
        return startTimer(key, priority, delay, action, ScheduledTimer.Mode.ONCE, Duration.ZERO);
    }

    @Override
    public TimerHandle scheduleAtFixedRate(Object key, int priority, Duration initialDelay, Duration period, Action<?> action) {
        return startTimer(key, priority, initialDelay, action, ScheduledTimer.Mode.FIXED_RATE, checkPositive("period", period));
    }

    @Override
    public TimerHandle scheduleWithFixedDelay(Object key, int priority, Duration initialDelay, Duration delay, Action<?> action) {
        return startTimer(key, priority, initialDelay, action, ScheduledTimer.Mode.FIXED_DELAY, checkPositive("delay", delay));
    }

    private TimerHandle startTimer(Object key, int priority, Duration initialDelay, Action<?> action,
            ScheduledTimer.Mode mode, Duration period) {
        Objects.requireNonNull(key, "object key must not be null");
        Objects.requireNonNull(action, "action must not be null");
        Objects.requireNonNull(initialDelay, "initial delay must not be null");
        if (initialDelay.isNegative()) {
            throw new IllegalArgumentException("timer delay " + initialDelay + " is invalid; allowed: zero or positive");
        }
        backplane.policy().checkPriority(priority);
        ScheduledTimer timer = new ScheduledTimer(this, key, priority, action, mode, period.toNanos(), null);
        backplane.timerStarted(timer);
        timer.start(backplane.clock().nanoTime() + initialDelay.toNanos());
        return timer;
    }

    private static Duration checkPositive(String what, Duration d) {
        Objects.requireNonNull(d, what + " must not be null");
        if (d.isZero() || d.isNegative()) {
            throw new IllegalArgumentException("timer " + what + " " + d + " is invalid; allowed: a positive duration");
        }
        return d;
    }

    @Override
    public int operationLimit() {
        return operationLimit;
    }

    @Override
    public void setOperationLimit(int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException(
                    "operation-limit = " + limit + " for component '" + name + "' is invalid; allowed: 1.." + Integer.MAX_VALUE);
        }
        this.operationLimit = limit;
    }

    @Override
    public double admissionReserve() {
        double own = ownAdmissionReserve;
        return Double.isNaN(own) ? backplane.policy().admissionReserve() : own;
    }

    @Override
    public int admissionThreshold(int priority) {
        BackplanePolicy policy = backplane.policy();
        double own = ownAdmissionReserve;
        return BackplanePolicy.admissionThreshold(operationLimit, Double.isNaN(own) ? policy.admissionReserve() : own,
                policy.checkPriority(priority), policy.priorities());
    }

    @Override
    public int outstanding() {
        return outstanding.outstanding();
    }

    @Override
    public int objectCount() {
        return objects.size();
    }

    int waiting() {
        return waiting.get();
    }

    Iterable<WorkObject> objects() {
        return objects.values();
    }

    @Override
    public ComponentState state() {
        return state;
    }

    @Override
    public Set<String> dependencies() {
        return dependencies;
    }

    /**
     * Enters {@code to}: runs the state's hooks, then switches the state and the timer endpoints,
     * as one action on the component's own object (so it is ordered with the component's work).
     *
     * @return completes when the component is in {@code to}; fails with a {@link
     *     ComponentStateException} naming the component and state if a hook failed
     */
    CompletableFuture<Void> transition(ComponentState to) {
        CompletableFuture<Object> done = new CompletableFuture<>();
        try {
            dispatch(null, request(COMPONENT_KEY, 0, done, null, null, true), context -> {
                ComponentState from = state;
                for (StateHook hook : hooks.getOrDefault(to, List.of())) {
                    try {
                        hook.onEnter(context, from, to);
                    } catch (Exception | Error e) {
                        throw new ComponentStateException(name, to, "component '" + name + "' failed to enter " + to
                                + " (from " + from + "): " + e, e);
                    }
                }
                state = to;
                for (TimerEndpoint timer : timerEndpoints.values()) {
                    timer.stateChanged();
                }
                return null;
            });
        } catch (RuntimeException e) {
            stateWaiters.failedToEnter(to, e);
            return CompletableFuture.failedFuture(e);
        }
        return done.whenComplete((ignored, failure) -> {
            if (failure == null) {
                stateWaiters.entered(to);
            } else {
                stateWaiters.failedToEnter(to, failure);
            }
        }).thenApply(ignored -> null);
    }

    /**
     * Completes when this component has entered {@code target} (INITIALIZING: or is past it, in a
     * role); fails if its transition into {@code target} fails. For components of linked backplanes
     * that depend on this one.
     */
    CompletableFuture<Void> whenEntered(ComponentState target) {
        return stateWaiters.whenEntered(target);
    }

    /** This move will not take the component into {@code state} ({@code why}): fails what waits for it. */
    void willNotEnter(ComponentState state, Throwable why) {
        stateWaiters.failedToEnter(state, why);
    }

    @Override
    public <Q, R> ActionEndpoint<Q, R> endpoint(EndpointSpec<Q, R> spec) {
        Objects.requireNonNull(spec, "endpoint spec must not be null");
        String duplicate = "component '" + name + "' already has an endpoint named '" + spec.name()
                + "'; endpoint names must be unique within a component";
        if (endpoints.containsKey(spec.name())) { // before construction: a duplicate pooled endpoint is no pool-size clash
            throw new IllegalArgumentException(duplicate);
        }
        DefaultEndpoint<Q, R> endpoint = new DefaultEndpoint<>(this, spec);
        if (endpoints.putIfAbsent(spec.name(), endpoint) != null) {
            throw new IllegalArgumentException(duplicate);
        }
        return endpoint;
    }

    @Override
    public Collection<ActionEndpoint<?, ?>> endpoints() {
        return List.copyOf(endpoints.values());
    }

    @Override
    public TimerHandle timer(TimerSpec spec) {
        Objects.requireNonNull(spec, "timer spec must not be null");
        backplane.policy().checkPriority(spec.priority());
        TimerEndpoint timer = new TimerEndpoint(this, spec);
        if (timerEndpoints.putIfAbsent(spec.name(), timer) != null) {
            throw new IllegalArgumentException("component '" + name + "' already has a timer named '" + spec.name()
                    + "'; timer names must be unique within a component");
        }
        timer.stateChanged(); // starts at once if the component is already in an accepting state
        return timer;
    }

    /** Starts the scheduled timer behind a timer endpoint. */
    ScheduledTimer startTimer(TimerSpec spec) {
        Object key = spec.key() != null ? spec.key() : COMPONENT_KEY;
        ScheduledTimer.Mode mode = switch (spec.kind()) {
            case ONCE -> ScheduledTimer.Mode.ONCE;
            case FIXED_RATE -> ScheduledTimer.Mode.FIXED_RATE;
            case FIXED_DELAY -> ScheduledTimer.Mode.FIXED_DELAY;
            case COMPUTED_DELAY -> ScheduledTimer.Mode.COMPUTED_DELAY;
        };
        ScheduledTimer timer = new ScheduledTimer(this, key, spec.priority(), spec.action(), mode, spec.period().toNanos(),
                spec.nextDelay());
        backplane.timerStarted(timer);
        Duration first = spec.kind() == TimerSpec.Kind.COMPUTED_DELAY ? spec.nextDelay().get() : spec.initialDelay();
        if (first == null) {
            timer.cancel();
        } else {
            timer.start(backplane.clock().nanoTime() + Math.max(0, first.toNanos()));
        }
        return timer;
    }

    @Override
    public <E> Subscription subscribe(String topic, Class<E> eventType, ActionEndpoint<? super E, ?> endpoint) {
        Objects.requireNonNull(topic, "topic must not be null");
        Objects.requireNonNull(eventType, "event type must not be null");
        Objects.requireNonNull(endpoint, "endpoint must not be null");
        if (endpoint.component() != this || !(endpoint instanceof DefaultEndpoint<? super E, ?> own)) {
            throw new IllegalArgumentException("endpoint " + endpoint + " does not belong to component '" + name
                    + "'; allowed: an endpoint registered with this component's endpoint(...)");
        }
        return backplane.topics().subscribe(topic, eventType, own);
    }

    @Override
    public ComponentStatistics statistics() {
        List<EndpointStatistics> endpointStats = new ArrayList<>();
        for (DefaultEndpoint<?, ?> endpoint : endpoints.values()) {
            endpointStats.add(endpoint.statistics());
        }
        endpointStats.sort(java.util.Comparator.comparing(EndpointStatistics::name));
        return new ComponentStatistics(name, outstanding.outstanding(), operationLimit, objects.size(), waiting.get(),
                counters.snapshot(), state, List.copyOf(dependencies), endpointStats);
    }

    @Override
    public String toString() {
        return "BackplaneComponent{" + name + "}";
    }

    /** An {@link ObjectHandle}: pins its object until released. */
    private final class Handle implements ObjectHandle {
        private final WorkObject object;
        private final AtomicBoolean released = new AtomicBoolean();

        Handle(WorkObject object) {
            this.object = object;
        }

        @Override
        public Object key() {
            return object.key;
        }

        @Override
        public BackplaneComponent component() {
            return DefaultComponent.this;
        }

        @Override
        @SuppressWarnings("unchecked")
        public <T> CompletableFuture<T> submit(int priority, Action<T> action) {
            if (released.get()) {
                throw new ObjectReleasedException("the handle of object '" + object.key + "' of component '" + name
                        + "' was released; get a new one with component.object(key)");
            }
            CompletableFuture<Object> future = new CompletableFuture<>();
            dispatch(object, request(object.key, priority, future, null, null, false), action);
            return (CompletableFuture<T>) future;
        }

        @Override
        public void release() {
            if (released.compareAndSet(false, true) && object.unpin()) {
                forgetReleased(object);
            }
        }

        @Override
        public boolean isReleased() {
            return released.get();
        }

        @Override
        public String toString() {
            return "ObjectHandle{" + name + "/" + object.key + (released.get() ? ", released" : "") + "}";
        }
    }
}
