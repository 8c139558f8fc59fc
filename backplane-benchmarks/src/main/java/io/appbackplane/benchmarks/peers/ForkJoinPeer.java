package io.appbackplane.benchmarks.peers;

import java.util.concurrent.ForkJoinPool;

/**
 * A {@link ForkJoinPool} in async (FIFO) mode, the setting for event-style tasks that are never
 * joined. No priorities, no per-key order.
 */
final class ForkJoinPeer implements KeyedExecutor {

    private final ForkJoinPool pool;

    ForkJoinPeer(int workers) {
        pool = new ForkJoinPool(workers, ForkJoinPool.defaultForkJoinWorkerThreadFactory, null, true);
    }

    @Override
    public void submit(Object key, int priority, Runnable task) {
        pool.execute(task);
    }

    @Override
    public boolean ordersPerKey() {
        return false;
    }

    @Override
    public void close() {
        Shutdown.await(pool);
    }
}
