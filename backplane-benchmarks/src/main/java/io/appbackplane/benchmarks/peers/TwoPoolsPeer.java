package io.appbackplane.benchmarks.peers;

import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Two separate FIFO pools, the usual way to keep urgent work from queueing behind bulk work: tasks
 * with priority at most {@link Peers#URGENT_MAX_PRIORITY} go to an urgent pool of one thread, the
 * rest to a bulk pool of {@code workers - 1} threads (at least one). No per-key order.
 */
final class TwoPoolsPeer implements KeyedExecutor {

    private final ThreadPoolExecutor urgent;
    private final ThreadPoolExecutor bulk;

    TwoPoolsPeer(int workers) {
        int bulkThreads = Math.max(1, workers - 1);
        urgent = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>());
        bulk = new ThreadPoolExecutor(bulkThreads, bulkThreads, 0, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>());
    }

    @Override
    public void submit(Object key, int priority, Runnable task) {
        (priority <= Peers.URGENT_MAX_PRIORITY ? urgent : bulk).execute(task);
    }

    @Override
    public boolean ordersPerKey() {
        return false;
    }

    @Override
    public void close() {
        Shutdown.await(urgent);
        Shutdown.await(bulk);
    }
}
