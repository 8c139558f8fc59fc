package io.appbackplane.benchmarks.peers;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;

/**
 * {@code workers} single-thread executors; a keyed task goes to the one its key hashes to (per-key
 * order by construction), an unkeyed one to a random stripe. No priorities.
 */
final class StripedExecutorPeer implements KeyedExecutor {

    private final ExecutorService[] stripes;

    StripedExecutorPeer(int workers) {
        stripes = new ExecutorService[workers];
        for (int i = 0; i < workers; i++) {
            stripes[i] = Executors.newSingleThreadExecutor();
        }
    }

    @Override
    public void submit(Object key, int priority, Runnable task) {
        int stripe = key == null
                ? ThreadLocalRandom.current().nextInt(stripes.length)
                : Math.floorMod(Peers.spread(key), stripes.length);
        stripes[stripe].execute(task);
    }

    @Override
    public boolean ordersPerKey() {
        return true;
    }

    @Override
    public void close() {
        for (ExecutorService stripe : stripes) {
            Shutdown.await(stripe);
        }
    }
}
