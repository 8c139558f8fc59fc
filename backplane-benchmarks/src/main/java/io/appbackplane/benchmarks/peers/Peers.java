package io.appbackplane.benchmarks.peers;

import java.util.List;

/** The peers by the names the benchmarks' {@code peer} parameter uses. */
public final class Peers {

    /** Priorities at or below this are "urgent" for the peers that split work by priority. */
    public static final int URGENT_MAX_PRIORITY = 1;

    /** Every peer name, in the order the reports list them. */
    public static final List<String> NAMES = List.of(
            "appbackplane", "tpe-fifo", "tpe-priority", "forkjoin", "virtual", "pekko-t5", "pekko-t100", "striped",
            "two-pools");

    private Peers() {}

    /**
     * Creates the peer {@code name} with {@code workers} threads; {@code keys} is the key space size
     * for peers that keep one entity per key.
     *
     * @throws UnsupportedOperationException for a peer this JDK cannot run (virtual threads on JDK 17-20)
     */
    public static KeyedExecutor create(String name, int workers, int keys) {
        return switch (name) {
            case "appbackplane" -> new AppBackplanePeer(workers, true);
            case "tpe-fifo" -> new FifoThreadPoolPeer(workers);
            case "tpe-priority" -> new PriorityThreadPoolPeer(workers);
            case "forkjoin" -> new ForkJoinPeer(workers);
            case "virtual" -> new VirtualThreadPeer(workers);
            case "pekko-t5" -> new PekkoActorPeer(workers, 5, keys);
            case "pekko-t100" -> new PekkoActorPeer(workers, 100, keys);
            case "striped" -> new StripedExecutorPeer(workers);
            case "two-pools" -> new TwoPoolsPeer(workers);
            default -> throw new IllegalArgumentException("peer '" + name + "' is unknown; allowed: " + NAMES);
        };
    }

    /**
     * As {@link #create}, but AppBackplane with its default policy and no CPU limit (no CPU
     * accounting to charge), as a user who sets no limit runs it; the other peers have no limit to
     * drop and are created as by {@link #create}.
     */
    public static KeyedExecutor createUnlimited(String name, int workers, int keys) {
        return name.equals("appbackplane") ? new AppBackplanePeer(workers, false) : create(name, workers, keys);
    }

    static int spread(Object key) {
        int h = key.hashCode();
        return h ^ (h >>> 16);
    }
}
