package io.appbackplane.internal;

/**
 * A backplane's {@link OffloadExecutor}, made on the first offload (a backplane that never
 * offloads has none) and shut down when the workers have stopped: offloading ends with them.
 *
 * <p>Invariants: at most one executor is made; once {@link #close} ran, the executor is shut
 * down, including one made later (which then rejects every call). Making and closing are
 * serialized by a lock of this object's own (not the backplane's monitor: its setters may take
 * time); {@link #get} reads the made executor without it.
 */
final class LazyOffloads {

    private final DefaultBackplane backplane;
    /** Runs offloaded blocking calls; null until the first offload. */
    private volatile OffloadExecutor offloads;
    /** Guards making and closing {@link #offloads}. */
    private final Object lock = new Object();
    /** Set under {@link #lock} when the workers have stopped. */
    private boolean closed;

    LazyOffloads(DefaultBackplane backplane) {
        this.backplane = backplane;
    }

    /** The executor, made on first use under the backplane's current policy; one made after {@link #close} rejects all calls. */
    OffloadExecutor get() {
        OffloadExecutor o = offloads;
        if (o == null) {
            synchronized (lock) {
                o = offloads;
                if (o == null) {
                    o = new OffloadExecutor(backplane.name(), backplane.policy());
                    if (closed) {
                        o.shutdown();
                    }
                    offloads = o;
                }
            }
        }
        return o;
    }

    /** Shuts the executor down, if one was made, and any made later; accepted calls still run. */
    void close() {
        synchronized (lock) {
            closed = true;
            if (offloads != null) {
                offloads.shutdown();
            }
        }
    }
}
