package io.appbackplane.internal.objects;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A pool's object: a {@link WorkObject} that publishes its load, so that its pool can choose among
 * its members without taking N monitors (scheduling rule 12's choice is advisory: a moment-old value
 * is as good). Only pools read a load without the monitor, so only their objects pay the field and
 * its store on every change. Invariant: {@code loadHint == load()} whenever the monitor is free.
 */
final class PooledWorkObject extends WorkObject {

    /** {@link #load()} as of the last change: written under the monitor with release semantics, read without it. */
    @SuppressWarnings("unused") // accessed through LOAD_HINT
    private int loadHint;

    private static final VarHandle LOAD_HINT;

    static {
        try {
            LOAD_HINT = MethodHandles.lookup().findVarHandle(PooledWorkObject.class, "loadHint", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    PooledWorkObject(ObjectOwner component, Object key) {
        super(component, key);
    }

    /** Publishes the load after a change; called under the monitor. */
    void publishLoad(int load) {
        LOAD_HINT.setRelease(this, load);
    }

    /** {@link #load()} without the monitor: the value as of the last change. */
    int loadHint() {
        return (int) LOAD_HINT.getAcquire(this);
    }
}
