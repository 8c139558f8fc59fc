package io.appbackplane.internal.objects;

import io.appbackplane.Action;
import io.appbackplane.ObjectPool;
import io.appbackplane.ObjectReleasedException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * An {@link ObjectPool}: N pinned objects; a request goes to the first idle one, else to the least
 * loaded (scheduling rule 12). The choice reads each object's load under its monitor without holding
 * two at once, so two racing submitters may pick the same object; that only costs balance, never
 * correctness (each object still runs one action at a time).
 */
public final class PooledObjects implements ObjectPool {

    /** The key of one pool object, shown as {@code name#index}. */
    record PoolKey(String pool, int index) {
        @Override
        public String toString() {
            return pool + "#" + index;
        }
    }

    /** The table of the component's objects, which holds this pool by name. */
    private final KeyedObjects table;
    private final ObjectOwner component;
    private final String name;
    private final PooledWorkObject[] objects;
    private final AtomicBoolean released = new AtomicBoolean();

    PooledObjects(KeyedObjects table, ObjectOwner component, String name, PooledWorkObject[] objects) {
        this.table = table;
        this.component = component;
        this.name = name;
        this.objects = objects;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public int size() {
        return objects.length;
    }

    @Override
    public <T> CompletableFuture<T> submit(int priority, Action<T> action) {
        checkNotReleased();
        return component.submitTo(leastLoaded(), priority, action);
    }

    @Override
    public void execute(int priority, Action<?> action) {
        checkNotReleased();
        component.executeOn(leastLoaded(), priority, action);
    }

    private void checkNotReleased() {
        if (released.get()) {
            throw new ObjectReleasedException(
                    "pool '" + name + "' of component '" + component.name() + "' was released; create it again with pool(name, size)");
        }
    }

    public WorkObject leastLoaded() {
        WorkObject best = objects[0];
        int bestLoad = Integer.MAX_VALUE;
        for (PooledWorkObject object : objects) {
            int load = object.loadHint(); // no monitors: the choice is advisory (rule 12)
            if (load == 0) {
                return object; // idle: take it
            }
            if (load < bestLoad) {
                bestLoad = load;
                best = object;
            }
        }
        return best;
    }

    @Override
    public int[] loads() {
        int[] loads = new int[objects.length];
        for (int i = 0; i < objects.length; i++) {
            loads[i] = objects[i].load();
        }
        return loads;
    }

    @Override
    public void release() {
        if (released.compareAndSet(false, true)) {
            table.poolReleased(this);
            for (WorkObject object : objects) {
                table.settled(object, object.unpin());
            }
        }
    }

    boolean isReleased() {
        return released.get();
    }

    @Override
    public String toString() {
        return "ObjectPool{" + component.name() + "/" + name + " x" + objects.length + "}";
    }
}
