package io.appbackplane.internal;

import io.appbackplane.Backplane;
import io.appbackplane.BackplanePolicy;
import io.appbackplane.BackplaneRejectedException;
import io.appbackplane.BackplaneRejectedException.Reason;
import io.appbackplane.OffloadThreads;
import java.lang.reflect.Method;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs a backplane's {@linkplain io.appbackplane.ActionContext#offload offloaded} blocking calls:
 * at most {@link BackplanePolicy#offloadThreads()} at once, at most {@link
 * BackplanePolicy#offloadQueue()} waiting, on virtual threads where the JDK has them (reached by
 * reflection: the release target is 17) or on daemon platform threads. Idle threads end after 30 s,
 * so a backplane that never offloads, or no longer does, holds none. Shut down with the backplane:
 * calls already accepted still run; later ones are rejected.
 */
public final class OffloadExecutor {

    private static final long KEEP_ALIVE_SECONDS = 30;
    /** {@code Thread.ofVirtual()} and {@code Thread.Builder}'s methods; null on JDKs without virtual threads. */
    private static final Method OF_VIRTUAL;
    private static final Method BUILDER_NAME;
    private static final Method BUILDER_FACTORY;

    static {
        Method ofVirtual = null;
        Method name = null;
        Method factory = null;
        try {
            Class<?> builder = Class.forName("java.lang.Thread$Builder");
            ofVirtual = Thread.class.getMethod("ofVirtual");
            name = builder.getMethod("name", String.class, long.class);
            factory = builder.getMethod("factory");
            factory.invoke(ofVirtual.invoke(null)); // JDK 19/20 have the API as a preview: it throws unless enabled
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            ofVirtual = null;
        }
        OF_VIRTUAL = ofVirtual;
        BUILDER_NAME = name;
        BUILDER_FACTORY = factory;
    }

    private final String backplane;
    private final int threads;
    private final int queue;
    private final boolean virtual;
    private final ThreadPoolExecutor pool;

    OffloadExecutor(String backplane, BackplanePolicy policy) {
        this.backplane = backplane;
        this.threads = policy.offloadThreads();
        this.queue = policy.offloadQueue();
        this.virtual = policy.offloadThreadKind() != OffloadThreads.PLATFORM && virtualThreadsAvailable();
        BlockingQueue<Runnable> waiting = queue == 0 ? new SynchronousQueue<>() : new LinkedBlockingQueue<>(queue);
        String prefix = "backplane-" + backplane + "-offload-";
        this.pool = new ThreadPoolExecutor(threads, threads, KEEP_ALIVE_SECONDS, TimeUnit.SECONDS, waiting,
                virtual ? virtualThreads(prefix) : platformThreads(prefix), new ThreadPoolExecutor.AbortPolicy());
        pool.allowCoreThreadTimeOut(true);
    }

    /** Whether this JDK has virtual threads (21+, or 19/20 with preview features enabled). */
    public static boolean virtualThreadsAvailable() {
        return OF_VIRTUAL != null;
    }

    /**
     * Starts {@code call}, offloaded by an action of {@code component}, on an offload thread; its
     * outcome completes {@code reply}. A call the executor cannot take completes {@code reply} at
     * once with a {@link BackplaneRejectedException} that says why ({@code OFFLOAD_LIMIT}: threads
     * and queue full; {@code CLOSED}: shut down), counted in the backplane's rejections: never
     * lost, never silent.
     */
    public static <R> void start(Backplane backplane, String component, Callable<R> call, CompletableFuture<R> reply) {
        if (!(backplane instanceof DefaultBackplane own)) {
            reply.completeExceptionally(new IllegalStateException("offload needs a backplane built by Backplane.builder()"));
            return;
        }
        own.offloads.get().run(own, component, call, reply);
    }

    private <R> void run(DefaultBackplane own, String component, Callable<R> call, CompletableFuture<R> reply) {
        try {
            pool.execute(() -> {
                try {
                    reply.complete(call.call());
                } catch (Throwable t) { // the call's failure is the reply's, as any reply stage's
                    reply.completeExceptionally(t);
                }
            });
        } catch (RejectedExecutionException e) {
            BackplaneRejectedException rejection = rejection(component, e);
            own.counters.countRejection(rejection.reason());
            reply.completeExceptionally(rejection);
        }
    }

    private BackplaneRejectedException rejection(String component, RejectedExecutionException cause) {
        boolean closed = pool.isShutdown();
        BackplaneRejectedException e = new BackplaneRejectedException(closed ? Reason.CLOSED : Reason.OFFLOAD_LIMIT,
                backplane, component, closed
                        ? "offload rejected: backplane '" + backplane + "' is shut down"
                        : "offload rejected: backplane '" + backplane + "' runs " + threads + " blocking calls already and "
                                + queue + " more wait (its policy's offload-threads and offload-queue)");
        e.initCause(cause);
        return e;
    }

    /** Whether the calls run on virtual threads. */
    boolean virtual() {
        return virtual;
    }

    /** Takes no more calls; accepted ones still run (their replies find the backplane shut down). */
    void shutdown() {
        pool.shutdown();
    }

    private static ThreadFactory virtualThreads(String prefix) {
        try {
            Object builder = BUILDER_NAME.invoke(OF_VIRTUAL.invoke(null), prefix, 0L);
            return (ThreadFactory) BUILDER_FACTORY.invoke(builder);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("virtual threads were found but cannot be made", e);
        }
    }

    private static ThreadFactory platformThreads(String prefix) {
        AtomicInteger next = new AtomicInteger();
        return task -> {
            Thread thread = new Thread(task, prefix + next.getAndIncrement());
            thread.setDaemon(true); // like virtual threads, they never keep the JVM alive
            return thread;
        };
    }
}
