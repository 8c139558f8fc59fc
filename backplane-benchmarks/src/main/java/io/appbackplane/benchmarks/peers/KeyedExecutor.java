package io.appbackplane.benchmarks.peers;

/**
 * The one shape every peer is driven through, so that AppBackplane and the executors it is compared
 * with run exactly the same tasks. Each implementation is what a user would write with that tool,
 * with {@code workers} threads in total.
 *
 * <p>{@code key} names the entity a task belongs to: an executor that {@linkplain #ordersPerKey()
 * orders per key} runs the tasks of one key one at a time in submission order; {@code null} means
 * the task needs no ordering. {@code priority} is 0 (most urgent) and up; executors without
 * priorities ignore it.
 */
public interface KeyedExecutor extends AutoCloseable {

    /** Queues {@code task}; returns at once. */
    void submit(Object key, int priority, Runnable task);

    /** Whether tasks with equal keys run one at a time, in submission order. */
    boolean ordersPerKey();

    /** Stops the threads; tasks still queued may be dropped (the benchmarks wait for theirs). */
    @Override
    void close();
}
