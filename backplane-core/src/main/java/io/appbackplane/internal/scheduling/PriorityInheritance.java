package io.appbackplane.internal.scheduling;

import java.lang.ref.WeakReference;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The JVM-wide "more urgent work is waiting" signal behind {@link
 * io.appbackplane.ActionContext#shouldYield()} (scheduling rule 14; the seed's global flag): a long
 * action should yield when any live backplane has an object READY at a priority more urgent than
 * the action's. Polled, not pushed, so it costs the hot path nothing; a poll reads one counter per
 * more urgent priority per backplane.
 *
 * <p>Backplanes may have different numbers of priorities, so priorities are compared by relative
 * urgency: priority p of P has urgency {@code p / (P − 1)} (0 the most urgent, 1 the least; a
 * backplane with one priority has urgency 0). Within one backplane that is the plain order.
 *
 * <p>The registry holds the ready queues weakly: a backplane that is dropped without being shut
 * down is not kept reachable by it (cleared references are removed at the next registration).
 */
public final class PriorityInheritance {

    private static final CopyOnWriteArrayList<WeakReference<ReadyQueues>> BACKPLANES = new CopyOnWriteArrayList<>();

    private PriorityInheritance() {}

    public static void register(ReadyQueues queues) {
        BACKPLANES.removeIf(ref -> ref.get() == null);
        BACKPLANES.add(new WeakReference<>(queues));
    }

    public static void unregister(ReadyQueues queues) {
        BACKPLANES.removeIf(ref -> ref.get() == null || ref.get() == queues);
    }

    /** How many backplanes the registry references (cleared references included); for tests. */
    static int registered() {
        return BACKPLANES.size();
    }

    /**
     * Whether an object is READY, in any backplane, at a priority more urgent than {@code priority}
     * of a backplane with {@code priorities} priorities (by relative urgency, see the class comment).
     */
    static boolean moreUrgentWorkWaiting(int priority, int priorities) {
        for (WeakReference<ReadyQueues> ref : BACKPLANES) {
            ReadyQueues queues = ref.get();
            if (queues != null && queues.queuedAbove(equivalentPriority(priority, priorities, queues.priorities()))) {
                return true;
            }
        }
        return false;
    }

    /**
     * The number of priorities of a backplane with {@code others} priorities that are more urgent
     * than priority {@code p} of {@code own}: its priorities q with {@code q / (others − 1) < p / (own − 1)},
     * that is {@code q < ceil(p × (others − 1) / (own − 1))} (integer arithmetic, no rounding error).
     */
    static int equivalentPriority(int p, int own, int others) {
        if (own <= 1 || p == 0) {
            return 0; // urgency 0: nothing anywhere is more urgent
        }
        if (others <= 1) {
            return 1; // its only priority has urgency 0, more urgent than any p > 0
        }
        long scaled = (long) p * (others - 1);
        return (int) ((scaled + own - 2) / (own - 1)); // ceil(scaled / (own − 1))
    }
}
