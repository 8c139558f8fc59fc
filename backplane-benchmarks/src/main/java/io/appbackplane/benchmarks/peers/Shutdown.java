package io.appbackplane.benchmarks.peers;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;

/** Stopping a peer's executors the same way everywhere. */
public final class Shutdown {

    private Shutdown() {}

    /** Stops {@code executor} and waits up to 10 s for its threads. */
    public static void await(ExecutorService executor) {
        executor.shutdownNow();
        try {
            if (!executor.awaitTermination(10, TimeUnit.SECONDS)) {
                throw new IllegalStateException(executor + " did not stop within 10 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
