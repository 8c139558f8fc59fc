package io.appbackplane.benchmarks.peers;

import java.util.concurrent.PriorityBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A {@link ThreadPoolExecutor} over a {@link PriorityBlockingQueue}: most urgent first, FIFO within
 * a priority (a submission sequence breaks ties). No per-key order.
 */
final class PriorityThreadPoolPeer implements KeyedExecutor {

    private final ThreadPoolExecutor pool;
    private final AtomicLong sequence = new AtomicLong();

    PriorityThreadPoolPeer(int workers) {
        pool = new ThreadPoolExecutor(workers, workers, 0, TimeUnit.MILLISECONDS, new PriorityBlockingQueue<>());
    }

    @Override
    public void submit(Object key, int priority, Runnable task) {
        pool.execute(new Prioritized(priority, sequence.getAndIncrement(), task));
    }

    @Override
    public boolean ordersPerKey() {
        return false;
    }

    @Override
    public void close() {
        Shutdown.await(pool);
    }

    private record Prioritized(int priority, long sequence, Runnable task) implements Runnable, Comparable<Prioritized> {
        @Override
        public void run() {
            task.run();
        }

        @Override
        public int compareTo(Prioritized other) {
            int byPriority = Integer.compare(priority, other.priority);
            return byPriority != 0 ? byPriority : Long.compare(sequence, other.sequence);
        }
    }
}
