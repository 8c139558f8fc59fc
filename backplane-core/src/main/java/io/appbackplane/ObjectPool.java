package io.appbackplane;

import java.util.concurrent.CompletableFuture;

/**
 * N equivalent objects of one component that serve one backlog of requests (scheduling rule 12): a
 * request goes to an idle object while fewer of the pool's objects run than the backplane has
 * worker threads, else it waits in the pool's backlog (most urgent first), which an object takes
 * from when its own work is done. An object waiting for a reply does not count as running, so a
 * pool of N can have N requests waiting for replies at once. Each object runs one action at a time;
 * there is no per-request ordering. Obtain one from {@link BackplaneComponent#pool}; its objects stay
 * pinned until {@link #release()}, and what the pool accepted before it was released still runs.
 * Thread-safe.
 */
public interface ObjectPool extends AutoCloseable {

    /** The pool's name, unique within its component. */
    String name();

    /** The number of objects. */
    int size();

    /** Hands {@code action} to an idle object of the pool that may start, else to the pool's backlog. */
    <T> CompletableFuture<T> submit(int priority, Action<T> action);

    /**
     * Like {@link #submit} without a future (fire and forget): a failure is counted and reported to
     * the backplane's {@linkplain BackplaneListener listeners}, as for {@link BackplaneComponent#execute}.
     */
    void execute(int priority, Action<?> action);

    /**
     * The current load of each object (queued + running + awaited actions), for monitoring; a
     * request in the pool's backlog counts for no object until one takes it.
     */
    int[] loads();

    /** Unpins the pool's objects; submitting afterwards fails with {@link ObjectReleasedException}. */
    void release();

    /** Same as {@link #release()}. */
    @Override
    default void close() {
        release();
    }
}
