package io.appbackplane.internal.objects;

import java.util.List;

/**
 * A pool's member: a {@link WorkObject} that knows its pool, so that it takes the pool's backlogged
 * requests when its own work is done and tells the pool when it goes idle, waits or resumes
 * ({@link PooledObjects}): it overrides {@code WorkObject}'s pool hooks, which do nothing for a
 * keyed object. Made only by its pool's creation ({@link KeyedObjects#pool}); an object
 * made later for a released member's key is a plain {@link WorkObject}.
 */
public final class PooledWorkObject extends WorkObject {

    /** The pool this object serves, set once when the pool is made (before any request reaches it). */
    private PooledObjects pool;
    private int poolIndex;

    PooledWorkObject(ObjectOwner component, Object key) {
        super(component, key);
    }

    /** Joins {@code pool} as its member number {@code index}; once, before the pool is published. */
    void joined(PooledObjects pool, int index) {
        this.pool = pool;
        this.poolIndex = index;
    }

    /** The pool this object serves. */
    public PooledObjects pool() {
        return pool;
    }

    int poolIndex() {
        return poolIndex;
    }

    @Override
    ActionNode nextFromPool() {
        return pool.pollBacklog();
    }

    @Override
    void leftPlace(boolean heldPlace) {
        pool.memberIdled(this, heldPlace);
    }

    @Override
    void placeFreed() {
        pool.memberWaits();
    }

    @Override
    void placeRetaken() {
        pool.memberResumed();
    }

    @Override
    void abandonPoolBacklog(List<Request> failed, List<ActionNode> dropped) {
        failed.addAll(pool.abandonBacklog(dropped));
    }

    @Override
    public void startPoolBacklog() {
        pool.startBacklogged();
    }
}
