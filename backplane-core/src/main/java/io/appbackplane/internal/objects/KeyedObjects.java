package io.appbackplane.internal.objects;

import io.appbackplane.Action;
import io.appbackplane.ActionTracer;
import io.appbackplane.BackplaneClock;
import io.appbackplane.BackplaneComponent;
import io.appbackplane.ObjectHandle;
import io.appbackplane.ObjectPool;
import io.appbackplane.ObjectReleasedException;
import io.appbackplane.internal.base.SafeText;
import io.appbackplane.internal.base.TimerService;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The key-to-object table of one component (scheduling rule 16): the object for a key is created on
 * demand by the first request for it and released when idle — at once with a retention of zero,
 * else by the {@link IdleObjectSweep} once it has stayed idle that long — so millions of
 * short-lived keys do not leak memory. Also the pins on objects: {@link ObjectHandle}s and {@link
 * ObjectPool}s, whose objects are not released while pinned.
 *
 * <p>Invariants: an object is in the table from its creation until it is RELEASED; a RELEASED
 * object is removed by whoever meets it (its releaser, or a submitter or pinner that finds it and
 * then looks the key up again), so no work is queued to, and no pin taken on, a dead object. An
 * object awaiting a reply is never idle, so never released. {@code pools} holds each pool of this
 * component that is not released, by name.
 *
 * <p>Thread-safe, without locks of its own: the table is a {@link ConcurrentHashMap}; an object's
 * state (RELEASED or not, its pins) is decided under the object's monitor, in {@link WorkObject}.
 */
public final class KeyedObjects {

    static final int MAX_POOL_SIZE = 1024;

    private final ObjectOwner component;
    /** The backplane's action tracer, or null: the actions {@link #cancelQueued} removes end as dropped. */
    private final ActionTracer tracer;
    private final ConcurrentHashMap<Object, WorkObject> objects = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, PooledObjects> pools = new ConcurrentHashMap<>();
    /** Numbers the pools made, so that each pool's members have keys of their own. */
    private final AtomicLong poolSerials = new AtomicLong();
    /** Releases objects that stayed idle; null with a retention of zero (objects released at once). */
    private final IdleObjectSweep sweep;

    /**
     * @param component the component whose objects these are
     * @param idleObjectRetention how long an idle object is kept (zero: released at once)
     * @param timers the backplane's timer service, which the idle sweep runs on
     * @param clock the backplane's clock, which the idle sweep reads
     * @param tracer the backplane's action tracer, or null
     */
    public KeyedObjects(ObjectOwner component, Duration idleObjectRetention, TimerService timers, BackplaneClock clock,
            ActionTracer tracer) {
        this.component = component;
        this.tracer = tracer;
        this.sweep = idleObjectRetention.isZero() ? null
                : new IdleObjectSweep(this, timers, clock, idleObjectRetention.toNanos());
    }

    /** Idle objects are kept for the retention, unless it is zero or the sweep holds its most already. */
    public boolean keepsIdleObjects() {
        return sweep != null && sweep.hasRoom();
    }

    /** Acts on what an object decided when it went idle: remove it if RELEASED, list it if LIST_IDLE. */
    public void settled(WorkObject object, AfterAction after) {
        if (after == AfterAction.RELEASE) {
            forgetReleased(object);
        } else if (after == AfterAction.LIST_IDLE) {
            sweep.list(object);
        }
    }

    /**
     * The object for {@code key}, created if there is none. A lookup, then {@code putIfAbsent}
     * rather than {@code computeIfAbsent}: with many short-lived keys most submissions create an
     * object, and {@code putIfAbsent} into an empty bin is one CAS, where {@code computeIfAbsent}
     * also allocates a reservation node and locks it. Two racing submitters may both create an
     * object; one is put, the other is garbage (the map decides which one serves the key). (An
     * open-addressing table of the objects themselves saved 40 bytes per object in W4 but cost W2
     * `tiny` about a fifth of its rate: docs/benchmarks.md, "W4's floor".)
     */
    public WorkObject objectFor(Object key) {
        WorkObject object = objects.get(key);
        if (object == null) {
            WorkObject fresh = new WorkObject(component, key);
            object = objects.putIfAbsent(key, fresh);
            if (object == null) {
                object = fresh;
            }
        }
        return object;
    }

    /** Removes an object that reached RELEASED (its releaser, or whoever met it RELEASED and helps). */
    public void forgetReleased(WorkObject object) {
        objects.remove(object.key, object);
    }

    /** The object for {@code key}, pinned (not released until unpinned). */
    private WorkObject pin(Object key) {
        while (true) {
            WorkObject object = objectFor(key);
            if (object.pin()) {
                return object;
            }
            objects.remove(object.key, object); // released concurrently: help remove it, then look again
        }
    }

    /** {@link BackplaneComponent#object}: a handle that pins the object for {@code key}. */
    public ObjectHandle handle(Object key) {
        Objects.requireNonNull(key, "object key must not be null");
        return new Handle(pin(key));
    }

    /** {@link BackplaneComponent#pool}: the pool named {@code poolName}, created with {@code size} pinned objects. */
    public ObjectPool pool(String poolName, int size) {
        Objects.requireNonNull(poolName, "pool name must not be null");
        if (size < 1 || size > MAX_POOL_SIZE) {
            throw new IllegalArgumentException(
                    "pool size " + size + " for pool '" + poolName + "' is invalid; allowed: 1.." + MAX_POOL_SIZE);
        }
        PooledObjects pool = pools.computeIfAbsent(poolName, n -> {
            long serial = poolSerials.incrementAndGet();
            PooledWorkObject[] members = new PooledWorkObject[size];
            for (int i = 0; i < size; i++) {
                // A key of this pool alone: a released pool's members may still be finishing under theirs.
                PooledObjects.PoolKey key = new PooledObjects.PoolKey(n, i, serial);
                PooledWorkObject member = new PooledWorkObject(component, key);
                member.pin();
                objects.put(key, member);
                members[i] = member;
            }
            return new PooledObjects(this, component, n, members);
        });
        if (pool.size() != size) {
            throw new IllegalArgumentException("pool '" + poolName + "' of component '" + component.name() + "' has "
                    + pool.size() + " objects, not " + size + "; allowed: the same size, or release it first");
        }
        return pool;
    }

    /** Each pool of this component starts what its backlog holds, up to its places (the worker threads changed). */
    public void startBacklogs() {
        for (PooledObjects pool : pools.values()) {
            pool.startBacklogged();
        }
    }

    void poolReleased(PooledObjects pool) {
        pools.remove(pool.name(), pool);
    }

    /** {@link BackplaneComponent#cancelQueued}: fails the queued actions of {@code key}'s object. */
    public int cancelQueued(Object key) {
        Objects.requireNonNull(key, "object key must not be null");
        WorkObject object = objects.get(key);
        if (object == null) {
            return 0;
        }
        List<ActionNode> removed = object.removeQueued();
        settled(object, object.settleIfIdle());
        object.startPoolBacklog(); // a pool member left idle by the cancellation freed its place
        for (ActionNode node : removed) {
            CancellationException cancelled = new CancellationException("queued action of object '" + SafeText.of(key)
                    + "' of component '" + component.name() + "' was cancelled by cancelQueued");
            node.request.fail(cancelled);
            if (node.trace() != null) {
                ObservedActions.dropped(tracer, List.of(node), () -> cancelled);
            }
        }
        return removed.size();
    }

    public int size() {
        return objects.size();
    }

    public Iterable<WorkObject> values() {
        return objects.values();
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
            return component;
        }

        @Override
        public <T> CompletableFuture<T> submit(int priority, Action<T> action) {
            if (released.get()) {
                throw new ObjectReleasedException("the handle of object '" + object.key + "' of component '"
                        + component.name() + "' was released; get a new one with component.object(key)");
            }
            return component.submitTo(object, priority, action);
        }

        @Override
        public void release() {
            if (released.compareAndSet(false, true)) {
                settled(object, object.unpin());
            }
        }

        @Override
        public boolean isReleased() {
            return released.get();
        }

        @Override
        public String toString() {
            return "ObjectHandle{" + component.name() + "/" + object.key + (released.get() ? ", released" : "") + "}";
        }
    }
}
