package io.appbackplane;

import java.util.concurrent.CompletableFuture;

/**
 * N equivalent objects of one component that serve the same requests (scheduling rule 12): a request
 * goes to an idle object if there is one, else to the least loaded (fewest queued, running or
 * awaited actions). Each object still runs one action at a time, so a pool of N gives up to N-way
 * parallelism without per-request ordering. Obtain one from {@link BackplaneComponent#pool}; its
 * objects stay pinned until {@link #release()}. Thread-safe.
 */
public interface ObjectPool extends AutoCloseable {

    /** The pool's name, unique within its component. */
    String name();

    /** The number of objects. */
    int size();

    /** Queues {@code action} to an idle or the least loaded object of the pool. */
    <T> CompletableFuture<T> submit(int priority, Action<T> action);

    /**
     * Like {@link #submit} without a future (fire and forget): a failure is counted and reported to
     * the backplane's {@linkplain BackplaneListener listeners}, as for {@link BackplaneComponent#execute}.
     */
    void execute(int priority, Action<?> action);

    /** The current load of each object (queued + running + awaited actions), for monitoring. */
    int[] loads();

    /** Unpins the pool's objects; submitting afterwards fails with {@link ObjectReleasedException}. */
    void release();

    /** Same as {@link #release()}. */
    @Override
    default void close() {
        release();
    }
}
