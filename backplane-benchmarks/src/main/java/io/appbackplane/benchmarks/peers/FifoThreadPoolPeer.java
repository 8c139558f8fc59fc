package io.appbackplane.benchmarks.peers;

import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/** A {@link ThreadPoolExecutor} with a FIFO queue: no priorities, no per-key order (the negative control of W2). */
final class FifoThreadPoolPeer implements KeyedExecutor {

    private final ThreadPoolExecutor pool;

    FifoThreadPoolPeer(int workers) {
        pool = new ThreadPoolExecutor(workers, workers, 0, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>());
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
