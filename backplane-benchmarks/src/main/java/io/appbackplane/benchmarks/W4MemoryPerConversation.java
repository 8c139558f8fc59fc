package io.appbackplane.benchmarks;

import io.appbackplane.Backplane;
import io.appbackplane.BackplaneComponent;
import io.appbackplane.BackplanePolicy;
import io.appbackplane.ComponentSpec;
import io.appbackplane.benchmarks.peers.KeyedExecutor;
import io.appbackplane.benchmarks.peers.Peers;
import io.appbackplane.benchmarks.peers.Shutdown;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.runner.IterationType;

/**
 * W4, memory per waiting conversation: {@value #DEFAULT_CONVERSATIONS} conversations (change with
 * {@code -jvmArgsAppend -Dbench.conversations=N}), each an object that waits for the reply of its
 * own asynchronous call, all waiting at the same time; then every reply arrives and each
 * conversation's handler checks it. The results are three secondary metrics per measurement
 * iteration:
 *
 * <ul>
 *   <li>{@code bytesPerConversation}: heap in use (after full GCs) while all conversations wait,
 *       minus the heap in use before the first one started, divided by the number of
 *       conversations. The reply futures and the keys exist (and are counted in the baseline)
 *       before the conversations start, so this is what waiting costs beyond the reply future
 *       itself: the peer's bookkeeping, the callback registered on the future, the handler, and for
 *       virtual threads the parked thread and its stack (stack chunks live in the heap).
 *   <li>{@code threads}: platform threads alive while all conversations wait, minus those alive
 *       when the trial started (before any peer existed): the peer's worker threads. Virtual
 *       threads are not platform threads and are not counted here (their cost is in the bytes);
 *       their carrier threads are.
 *   <li>{@code resumeMillis}: from completing the first reply (all in this thread, one after the
 *       other) until the last handler has run: what waking 100,000 conversations costs.
 * </ul>
 *
 * <p>A conversation is "waiting" once its reply future has a dependent registered on it
 * ({@link CompletableFuture#getNumberOfDependents()}): the backplane's reply listener, the pool
 * callback, or the {@code join()} of the blocked virtual thread; for {@code appbackplane} the
 * backplane must also report every object on its wait queue. The measurement waits (bounded) for
 * that, then completes every reply and waits (bounded) until every handler has run with the right
 * value; a hang, a lost or a wrong reply fails the trial.
 *
 * <p>Peers, each with {@code workers} threads:
 * <ul>
 *   <li>{@code appbackplane}: the default policy (no CPU limit); one keyed object per conversation,
 *       {@code execute(key, 3, ctx -> ctx.awaitReply(reply, handler))}, no thread per conversation;
 *   <li>{@code virtual}: a virtual thread per conversation (the {@code virtual} peer of the other
 *       workloads) blocked in {@code reply.join()}, then running the handler; JDK 21 or newer, on
 *       JDK 17-20 the trial fails at set-up with a message saying the peer is n/a;
 *   <li>{@code callbacks}: {@code reply.whenCompleteAsync(handler, pool)} on a pool of {@code
 *       workers} threads, no per-conversation object beyond the callback.
 * </ul>
 *
 * <p>JMH runs one invocation per iteration ({@link Mode#SingleShotTime}); the primary score is the
 * time of that whole round (starting, waiting for, measuring with forced GCs, and finishing every
 * conversation) and is not a result. JMH sums {@link AuxCounters.Type#EVENTS} counters over
 * iterations in its "score" of a secondary metric; the per-iteration values are in the JSON's
 * {@code rawData}, and the report takes their median and spread. So that the summed score is not
 * read as one round's (with {@code -i 2} it shows twice the bytes and threads of a round), the
 * trial's end prints the median of its measured rounds.
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@State(Scope.Benchmark)
@Fork(value = 3, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 1)
@Measurement(iterations = 3)
public class W4MemoryPerConversation {

    static final int DEFAULT_CONVERSATIONS = 100_000;

    /** Conversations per round. */
    static final int CONVERSATIONS = Integer.getInteger("bench.conversations", DEFAULT_CONVERSATIONS);

    /** Priority the conversations' actions run at. */
    static final int PRIORITY = Workloads.BULK;

    @Param({"appbackplane", "virtual", "callbacks"})
    public String peer;

    @Param("2")
    public int workers;

    /** Platform threads alive before any peer existed. */
    int threadsAtStart;

    Object[] keys;
    List<CompletableFuture<Object>> replies;
    Conversations conversations;
    long baselineHeap;
    final AtomicInteger handled = new AtomicInteger();
    final AtomicInteger wrong = new AtomicInteger();
    /** Counted down by each handler: the resume ends when it reaches zero. */
    CountDownLatch allHandled;
    /** Whether the current round is a measured one (not warm-up). */
    boolean measuredRound;
    /** Each measured round's results, for the trial's summary line. */
    final List<double[]> measured = new ArrayList<>();

    /** The per-iteration results (secondary metrics). */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.EVENTS)
    public static class Footprint {
        /** Heap bytes per waiting conversation, beyond the reply future and the key. */
        public double bytesPerConversation;
        /** Platform threads the peer added while all conversations wait. */
        public double threads;
        /** Milliseconds from completing the first reply until every handler has run (the resume). */
        public double resumeMillis;
    }

    @Setup(Level.Trial)
    public void startTrial() {
        if (CONVERSATIONS < 1) {
            throw new IllegalArgumentException("bench.conversations = " + CONVERSATIONS + "; allowed: 1 or more");
        }
        threadsAtStart = ManagementFactory.getThreadMXBean().getThreadCount();
    }

    /** Creates the keys, the reply futures and the peer, then measures the heap they leave. */
    @Setup(Level.Iteration)
    public void startRound(IterationParams iteration) throws InterruptedException {
        measuredRound = iteration.getType() == IterationType.MEASUREMENT;
        keys = new Object[CONVERSATIONS];
        replies = new ArrayList<>(CONVERSATIONS);
        for (int i = 0; i < CONVERSATIONS; i++) {
            keys[i] = "conversation-" + i;
            replies.add(new CompletableFuture<>());
        }
        handled.set(0);
        wrong.set(0);
        allHandled = new CountDownLatch(CONVERSATIONS);
        conversations = create(peer, workers);
        baselineHeap = settledHeapUsed();
    }

    @Benchmark
    @Threads(1)
    public void round(Footprint footprint) throws Exception {
        Conversations c = conversations;
        for (int i = 0; i < CONVERSATIONS; i++) {
            c.start(keys[i], replies.get(i));
        }
        await("all " + CONVERSATIONS + " conversations to wait for their reply", () -> waiting() == CONVERSATIONS
                && c.allWaiting(CONVERSATIONS), () -> waiting() + " of them wait" + c.describe());
        long heap = settledHeapUsed();
        int threads = ManagementFactory.getThreadMXBean().getThreadCount();
        // Still waiting after the GCs: nothing completed early.
        if (waiting() != CONVERSATIONS || handled.get() != 0) {
            throw new IllegalStateException("conversations stopped waiting before their reply: " + waiting()
                    + " wait, " + handled.get() + " handled");
        }
        long resumeStart = System.nanoTime();
        for (int i = 0; i < CONVERSATIONS; i++) {
            replies.get(i).complete(keys[i]);
        }
        if (!allHandled.await(Workloads.HANG_TIMEOUT.toNanos(), TimeUnit.NANOSECONDS)) {
            throw new TimeoutException("timed out after " + Workloads.HANG_TIMEOUT + " waiting for every handler to run: "
                    + handled.get() + " of " + CONVERSATIONS + " handled");
        }
        long resumeNanos = System.nanoTime() - resumeStart;
        if (wrong.get() != 0) {
            throw new IllegalStateException(wrong.get() + " handlers saw a wrong reply or a failure");
        }
        footprint.bytesPerConversation = (double) (heap - baselineHeap) / CONVERSATIONS;
        footprint.threads = threads - threadsAtStart;
        footprint.resumeMillis = resumeNanos / 1e6;
        System.out.println(String.format(Locale.ROOT,
                "%nW4 peer=%s: %.1f bytes per waiting conversation, %d threads added, resumed in %.1f ms",
                peer, footprint.bytesPerConversation, threads - threadsAtStart, footprint.resumeMillis));
        if (measuredRound) {
            measured.add(new double[] {footprint.bytesPerConversation, footprint.threads, footprint.resumeMillis});
        }
    }

    /** Prints the median of the measured rounds: JMH's own score line sums them. */
    @TearDown(Level.Trial)
    public void endTrial() {
        if (measured.isEmpty()) {
            return;
        }
        System.out.println(String.format(Locale.ROOT,
                "%nW4 peer=%s, median of %d measured rounds: %.1f bytes per waiting conversation, %.0f threads added,"
                        + " resumed in %.1f ms (JMH's score lines below are sums over the rounds)",
                peer, measured.size(), median(0), median(1), median(2)));
    }

    private double median(int column) {
        double[] values = measured.stream().mapToDouble(round -> round[column]).sorted().toArray();
        int mid = values.length / 2;
        return values.length % 2 == 1 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
    }

    @TearDown(Level.Iteration)
    public void endRound() {
        Conversations c = conversations;
        conversations = null;
        keys = null;
        replies = null;
        if (c != null) {
            c.close();
        }
    }

    /** Conversations whose reply future has a dependent (a listener, callback or blocked thread). */
    private int waiting() {
        int n = 0;
        for (CompletableFuture<Object> reply : replies) {
            if (reply.getNumberOfDependents() > 0) {
                n++;
            }
        }
        return n;
    }

    /** The handler of the conversation of {@code expected}: checks the reply (the key itself) and counts it. */
    void handle(Object expected, Object reply, Throwable failure) {
        if (failure != null || reply != expected) {
            wrong.incrementAndGet();
        }
        handled.incrementAndGet();
        allHandled.countDown();
    }

    private static void await(String what, BooleanSupplier done, Supplier<String> state)
            throws InterruptedException, TimeoutException {
        long deadline = System.nanoTime() + Workloads.HANG_TIMEOUT.toNanos();
        while (!done.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new TimeoutException("timed out after " + Workloads.HANG_TIMEOUT + " waiting for " + what + ": "
                        + state.get());
            }
            Thread.sleep(10);
        }
    }

    /**
     * Heap in use after full GCs, once two readings in a row agree within 64 KiB (at most ten
     * GCs): {@code System.gc()} is a full, compacting collection with every collector the JDK
     * ships, and JMH leaves explicit GC enabled.
     */
    static long settledHeapUsed() throws InterruptedException {
        long previous = Long.MAX_VALUE;
        for (int i = 0; i < 10; i++) {
            System.gc();
            Thread.sleep(20);
            long used = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
            if (Math.abs(used - previous) < 64 * 1024) {
                return Math.min(used, previous);
            }
            previous = used;
        }
        return previous;
    }

    Conversations create(String name, int workers) {
        return switch (name) {
            case "appbackplane" -> new BackplaneConversations(workers);
            case "virtual" -> new VirtualThreadConversations(Peers.create("virtual", workers, Workloads.KEYS));
            case "callbacks" -> new CallbackConversations(workers);
            default -> throw new IllegalArgumentException("peer '" + name + "' is unknown; allowed: appbackplane, virtual, callbacks");
        };
    }

    /** How one peer runs a conversation. */
    interface Conversations extends AutoCloseable {

        /** Starts the conversation of {@code key}: it waits for {@code reply}, then calls {@link #handle}. */
        void start(Object key, CompletableFuture<Object> reply);

        /** Whether the peer's own view agrees that {@code n} conversations wait. */
        default boolean allWaiting(int n) {
            return true;
        }

        /** The peer's own view of the waiting conversations, for a timeout message. */
        default String describe() {
            return "";
        }

        @Override
        void close();
    }

    /** One keyed object per conversation, waiting with {@code awaitReply}. */
    final class BackplaneConversations implements Conversations {
        private final Backplane backplane;
        private final BackplaneComponent component;

        BackplaneConversations(int workers) {
            backplane = Backplane.builder("w4").policy(BackplanePolicy.builder().threads(workers).build()).build();
            component = backplane.install(ComponentSpec.named("conversations").withOperationLimit(2 * CONVERSATIONS));
        }

        @Override
        public void start(Object key, CompletableFuture<Object> reply) {
            component.execute(key, PRIORITY, ctx -> ctx.awaitReply(reply, (c, value, failure) -> {
                handle(key, value, failure);
                return null;
            }));
        }

        @Override
        public boolean allWaiting(int n) {
            return component.statistics().waitingObjects() == n;
        }

        @Override
        public String describe() {
            return " (the backplane reports " + component.statistics().waitingObjects() + " objects waiting)";
        }

        @Override
        public void close() {
            backplane.close();
        }
    }

    /** A virtual thread per conversation, blocked in {@code join()}. */
    final class VirtualThreadConversations implements Conversations {
        private final KeyedExecutor executor;

        VirtualThreadConversations(KeyedExecutor executor) {
            this.executor = executor;
        }

        @Override
        public void start(Object key, CompletableFuture<Object> reply) {
            executor.submit(null, PRIORITY, () -> {
                Object value;
                try {
                    value = reply.join();
                } catch (RuntimeException e) {
                    handle(key, null, e);
                    return;
                }
                handle(key, value, null);
            });
        }

        @Override
        public void close() {
            executor.close();
        }
    }

    /** A callback per conversation, run on a pool when the reply completes. */
    final class CallbackConversations implements Conversations {
        private final ThreadPoolExecutor pool;

        CallbackConversations(int workers) {
            pool = new ThreadPoolExecutor(workers, workers, 0, TimeUnit.SECONDS, new LinkedBlockingQueue<>());
            pool.prestartAllCoreThreads();
        }

        @Override
        public void start(Object key, CompletableFuture<Object> reply) {
            reply.whenCompleteAsync((value, failure) -> handle(key, value, failure), pool);
        }

        @Override
        public void close() {
            Shutdown.await(pool);
        }
    }
}
