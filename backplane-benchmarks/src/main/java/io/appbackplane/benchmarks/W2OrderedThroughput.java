package io.appbackplane.benchmarks;

import io.appbackplane.benchmarks.peers.KeyedExecutor;
import io.appbackplane.benchmarks.peers.Peers;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
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
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.ThreadParams;

/**
 * W2, per-key ordered throughput: every task belongs to a random one of {@value Workloads#KEYS}
 * keys (priorities as in W1) and must start only after the previous task of its key from the same
 * producer has finished. Every task checks that against a plain per-key array, as user code that
 * relies on the ordering would keep its state, and counts order violations; the secondary metric
 * {@code orderViolations} reports them per iteration. An executor that claims per-key order and shows a
 * violation fails the trial; {@code tpe-fifo} (no per-key order) is the negative control that
 * shows the check bites. Producers keep a bounded window of tasks in flight as in W1, so the score
 * is steady-state tasks run per second.
 *
 * <p>{@code shape} picks the load: {@code mixed} (the default) is the priority mix of W1 (one task in
 * eight urgent) with a window of {@link Workloads#WINDOW} and AppBackplane charging a CPU limit of
 * {@code workers} cores; {@code flat} is the shape of an outside peer harness: every task at
 * priority {@value #FLAT_PRIORITY}, a window of {@value #FLAT_WINDOW} tasks that parks the producer
 * until half remain, and AppBackplane's default policy with no CPU limit.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(Scope.Benchmark)
@Fork(value = 3, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
@Warmup(iterations = 4, time = 2)
@Measurement(iterations = 5, time = 2)
public class W2OrderedThroughput {

    @Param({"appbackplane", "striped", "pekko-t5", "pekko-t100", "tpe-fifo"})
    public String peer;

    @Param({"tiny", "5us"})
    public String work;

    @Param("2")
    public int workers;

    @Param({"mixed"})
    public String shape;

    /** The {@code flat} shape's one priority (of the default 8). */
    static final int FLAT_PRIORITY = 6;

    /** The {@code flat} shape's window: at most this many tasks in flight per producer. */
    static final int FLAT_WINDOW = 8_192;

    KeyedExecutor executor;
    boolean flat;
    long tokens;
    OrderChecker checker;
    Integer[] keys;

    @Setup(Level.Trial)
    public void start(BenchmarkParams params) throws InterruptedException {
        tokens = Work.tokens(work);
        flat = switch (shape) {
            case "mixed" -> false;
            case "flat" -> true;
            default -> throw new IllegalArgumentException("shape '" + shape + "' is unknown; allowed: mixed, flat");
        };
        CoreToCore.recordAtTrialStart(params); // the machine's mode for this fork
        checker = new OrderChecker(params.getThreads(), Workloads.KEYS);
        keys = new Integer[Workloads.KEYS];
        for (int k = 0; k < keys.length; k++) {
            keys[k] = k;
        }
        executor = flat ? Peers.createUnlimited(peer, workers, Workloads.KEYS) : Peers.create(peer, workers, Workloads.KEYS);
    }

    @TearDown(Level.Trial)
    public void stop() {
        if (executor == null) {
            return;
        }
        executor.close();
        long violations = checker.total();
        if (executor.ordersPerKey() && violations > 0) {
            throw new IllegalStateException("peer '" + peer + "' claims per-key order but ran " + violations
                    + " tasks out of order");
        }
        if (!executor.ordersPerKey()) {
            System.out.println("negative control '" + peer + "': " + violations + " order violations"
                    + (violations == 0 ? " (none seen: the check did not bite in this trial)" : ""));
        }
    }

    /** One producer: its window, index, task counter and next sequence number per key. */
    @State(Scope.Thread)
    public static class Producer {
        Workloads.Window window;
        int index;
        long submitted;
        int[] nextSequence;

        @Setup(Level.Trial)
        public void start(ThreadParams thread, W2OrderedThroughput benchmark) {
            window = new Workloads.Window(benchmark.flat ? FLAT_WINDOW : Workloads.WINDOW);
            index = thread.getThreadIndex();
            nextSequence = new int[Workloads.KEYS];
        }
    }

    /** The order violations the producer's tasks saw in one iteration (a secondary metric). */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.EVENTS)
    public static class Violations {
        public long orderViolations;

        @Setup(Level.Iteration)
        public void reset() {
            orderViolations = 0;
        }
    }

    @Benchmark
    @Threads(1)
    public void producers1(Producer producer, Violations violations) throws TimeoutException {
        submit(producer, violations);
    }

    @Benchmark
    @Threads(2)
    public void producers2(Producer producer, Violations violations) throws TimeoutException {
        submit(producer, violations);
    }

    private void submit(Producer producer, Violations violations) throws TimeoutException {
        producer.window.acquire();
        long i = producer.submitted++;
        int key = ThreadLocalRandom.current().nextInt(Workloads.KEYS);
        int sequence = ++producer.nextSequence[key];
        executor.submit(keys[key], flat ? FLAT_PRIORITY : Workloads.priority(i),
                new OrderedTask(checker, producer.window, producer.index, key, sequence, tokens));
        if ((i & VIOLATION_POLL_MASK) == 0) {
            violations.orderViolations += checker.take(producer.index);
        }
    }

    /** How often (every this + 1 tasks) a producer moves its tasks' violations into its counter. */
    private static final int VIOLATION_POLL_MASK = 1_023;

    /** One keyed task: checks its place in its key's order, works, frees its window slot. */
    static final class OrderedTask implements Runnable {
        private final OrderChecker checker;
        private final Workloads.Window window;
        private final int producer;
        private final int key;
        private final int sequence;
        private final long tokens;

        OrderedTask(OrderChecker checker, Workloads.Window window, int producer, int key, int sequence, long tokens) {
            this.checker = checker;
            this.window = window;
            this.producer = producer;
            this.key = key;
            this.sequence = sequence;
            this.tokens = tokens;
        }

        @Override
        public void run() {
            checker.started(producer, key, sequence);
            Work.run(tokens);
            checker.finished(producer, key, sequence);
            window.release();
        }
    }

    /**
     * Per producer and key, the sequence number of the last task that finished. A task that starts
     * when that is not its own number minus one ran out of order or overlapped its predecessor: a
     * violation. The arrays are plain on purpose: an executor that orders per key hands each key's
     * tasks from one thread to the next with a happens-before edge, so they read what the previous
     * task wrote; one that does not is caught (racy reads only add violations).
     */
    static final class OrderChecker {
        private final int[][] lastFinished;
        private final AtomicLongArray pending;
        private final AtomicLong total = new AtomicLong();

        OrderChecker(int producers, int keys) {
            lastFinished = new int[producers][keys];
            pending = new AtomicLongArray(producers);
        }

        void started(int producer, int key, int sequence) {
            if (lastFinished[producer][key] != sequence - 1) {
                pending.incrementAndGet(producer);
                total.incrementAndGet();
            }
        }

        void finished(int producer, int key, int sequence) {
            lastFinished[producer][key] = sequence;
        }

        /** The violations of {@code producer}'s tasks since the last call. */
        long take(int producer) {
            return pending.getAndSet(producer, 0);
        }

        long total() {
            return total.get();
        }
    }
}
