package io.appbackplane.benchmarks.peers;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.concurrent.ExecutorService;

/**
 * One virtual thread per task ({@code Executors.newVirtualThreadPerTaskExecutor()}, JDK 21+), on a
 * carrier pool of {@code workers} threads. The module targets Java 17, so the executor is looked up
 * reflectively; on an older JDK the peer is not available. The carrier count is the system property
 * {@code jdk.virtualThreadScheduler.parallelism}, read when the first virtual thread starts: it is
 * set here unless given, which works in a fresh JVM (JMH's forks).
 */
final class VirtualThreadPeer implements KeyedExecutor {

    private static final String PARALLELISM = "jdk.virtualThreadScheduler.parallelism";

    private final ExecutorService executor;

    VirtualThreadPeer(int workers) {
        int feature = Runtime.version().feature();
        if (feature < 21) {
            throw new UnsupportedOperationException(
                    "peer 'virtual' is n/a on JDK " + feature + ": virtual threads need JDK 21 or newer");
        }
        if (System.getProperty(PARALLELISM) == null) {
            System.setProperty(PARALLELISM, Integer.toString(workers));
        }
        executor = newVirtualThreadPerTaskExecutor();
    }

    private static ExecutorService newVirtualThreadPerTaskExecutor() {
        try {
            MethodHandle factory = MethodHandles.publicLookup().findStatic(java.util.concurrent.Executors.class,
                    "newVirtualThreadPerTaskExecutor", MethodType.methodType(ExecutorService.class));
            return (ExecutorService) factory.invokeExact();
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException("cannot create the virtual-thread executor", e);
        }
    }

    @Override
    public void submit(Object key, int priority, Runnable task) {
        executor.execute(task);
    }

    @Override
    public boolean ordersPerKey() {
        return false;
    }

    @Override
    public void close() {
        Shutdown.await(executor);
    }
}
