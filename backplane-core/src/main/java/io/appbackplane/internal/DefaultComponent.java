package io.appbackplane.internal;

import io.appbackplane.Action;
import io.appbackplane.Backplane;
import io.appbackplane.BackplaneComponent;
import io.appbackplane.BackplaneRejectedException;
import io.appbackplane.BackplaneRejectedException.Reason;
import io.appbackplane.ComponentSpec;
import io.appbackplane.ComponentStatistics;
import io.appbackplane.Digester;
import io.appbackplane.ObjectPool;
import io.appbackplane.ObjectHandle;
import io.appbackplane.ObjectReleasedException;
import io.appbackplane.TimerHandle;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

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
    private final Function<Object, WorkObject> objectFactory;
    private final AtomicInteger outstanding = new AtomicInteger();
    private final AtomicInteger waiting = new AtomicInteger();
    private volatile int outstandingLimit;
    final ActionCounters counters = new ActionCounters();

    DefaultComponent(DefaultBackplane backplane, ComponentSpec spec, ReadyQueues ready) {
        this.backplane = backplane;
        this.name = spec.name();
        this.makeRoom = spec.makeRoom();
        this.outstandingLimit = spec.outstandingLimit();
        this.objectFactory = key -> new WorkObject(this, key, ready);
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
        dispatch(null, key, priority, action, future, null);
        return (CompletableFuture<T>) future;
    }

    /** Submits to a pinned object (a pool's): no key lookup. */
    @SuppressWarnings("unchecked")
    <T> CompletableFuture<T> submitTo(WorkObject object, int priority, Action<T> action) {
        CompletableFuture<Object> future = new CompletableFuture<>();
        dispatch(object, object.key, priority, action, future, null);
        return (CompletableFuture<T>) future;
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
                    WorkObject object = objects.computeIfAbsent(key, objectFactory);
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
        dispatch(null, key, priority, action, null, null);
    }

    void dispatchTimerFiring(Object key, int priority, Action<?> action, ScheduledTimer timer) {
        dispatch(null, key, priority, action, null, timer);
    }

    /**
     * Admits a request and queues its first action, in the caller's thread (rule 10).
     *
     * @param pinned the object of an {@link ObjectHandle}, or null to look the key up
     */
    private void dispatch(WorkObject pinned, Object key, int priority, Action<?> action,
            CompletableFuture<Object> future, ScheduledTimer timer) {
        Objects.requireNonNull(key, "object key must not be null");
        Objects.requireNonNull(action, "action must not be null");
        backplane.policy().checkPriority(priority);
        counters.submitted.increment();
        backplane.priorityCounters(priority).submitted.increment();
        admit(priority);
        Request request = new Request(this, key, priority, future, timer);
        ActionNode node = new ActionNode(action, priority, request, backplane.clock().nanoTime());
        while (true) {
            WorkObject object = pinned != null ? pinned : objects.computeIfAbsent(key, objectFactory);
            ReadyEntry entry = object.enqueue(node);
            if (entry == ReadyEntry.RETRY) {
                objects.remove(key, object); // released concurrently: help remove it, then look again
                pinned = null; // a handle released while we dispatched: the key's current object serves
                continue;
            }
            if (entry == ReadyEntry.ABANDONED) {
                request.abandon();
            } else if (entry != null) {
                backplane.scheduler().push(entry);
            }
            if (backplane.isStopped()) {
                // Admitted before shutdown, queued after its sweep (which may have missed this object):
                // fail what the object holds, as the sweep would have, so no request stays pending.
                for (Request left : object.abandon()) {
                    left.abandon();
                }
            }
            return;
        }
    }

    /** Counts the request in, or throws the rejection that tells the caller to back off. */
    private void admit(int priority) {
        backplane.admit(this, priority); // backplane-wide: closed? total limit?
        boolean askedForRoom = false;
        while (true) {
            int n = outstanding.get();
            if (n < outstandingLimit) {
                if (outstanding.compareAndSet(n, n + 1)) {
                    return;
                }
                continue; // CAS lost to another submitter or a finishing request: re-read
            }
            if (!askedForRoom) {
                askedForRoom = true;
                if (askForRoom(priority)) {
                    continue;
                }
            }
            backplane.unadmit();
            throw reject(priority, Reason.COMPONENT_LIMIT, "component '" + name + "' of backplane '" + backplane.name()
                    + "' is at its outstanding-operation limit (" + outstandingLimit
                    + ") and could not make room; back off and retry later");
        }
    }

    private boolean askForRoom(int priority) {
        try {
            return makeRoom.makeRoom(this);
        } catch (RuntimeException | Error e) { // the request is not admitted: count it as rejected
            backplane.unadmit();
            counters.rejected.increment();
            backplane.priorityCounters(priority).rejected.increment();
            throw e;
        }
    }

    BackplaneRejectedException reject(int priority, Reason reason, String message) {
        counters.rejected.increment();
        backplane.priorityCounters(priority).rejected.increment();
        return new BackplaneRejectedException(reason, backplane.name(), name, message);
    }

    /** Called exactly once per accepted request, by {@link Request}. */
    void requestFinished(Request request, boolean success) {
        outstanding.decrementAndGet();
        counters.finished(success);
        backplane.requestFinished(request, success);
    }

    void waitingChanged(int delta) {
        waiting.addAndGet(delta);
        backplane.waitingChanged(delta);
    }

    /** Keyed objects are released when idle (rule 16). */
    boolean releasesIdleObjects() {
        return true;
    }

    /** Removes an object that reached RELEASED. */
    void forgetReleased(WorkObject object) {
        objects.remove(object.key, object);
    }

    @Override
    public ObjectHandle object(Object key) {
        Objects.requireNonNull(key, "object key must not be null");
        while (true) {
            WorkObject object = objects.computeIfAbsent(key, objectFactory);
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
            node.request.fail(new CancellationException(
                    "queued action of object '" + key + "' of component '" + name + "' was cancelled by cancelQueued"));
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
        ScheduledTimer timer = new ScheduledTimer(this, key, priority, action, mode, period.toNanos());
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
    public int outstandingLimit() {
        return outstandingLimit;
    }

    @Override
    public void setOutstandingLimit(int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException(
                    "operation-limit = " + limit + " for component '" + name + "' is invalid; allowed: 1.." + Integer.MAX_VALUE);
        }
        this.outstandingLimit = limit;
    }

    @Override
    public int outstanding() {
        return outstanding.get();
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
    public ComponentStatistics statistics() {
        return new ComponentStatistics(name, outstanding.get(), outstandingLimit, objects.size(), waiting.get(), counters.snapshot());
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
            dispatch(object, object.key, priority, action, future, null);
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
