package io.appbackplane.internal;

import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The JVM-wide "more urgent work is waiting" signal behind {@link
 * io.appbackplane.ActionContext#shouldYield()} (DESIGN rule 14; the seed's global flag): a long
 * action at priority p should yield when any live backplane has an object READY at a priority more
 * urgent than p. Polled, not pushed, so it costs the hot path nothing; a poll reads one counter per
 * more urgent priority per backplane.
 */
final class PriorityInheritance {

    private static final CopyOnWriteArrayList<ReadyQueues> BACKPLANES = new CopyOnWriteArrayList<>();

    private PriorityInheritance() {}

    static void register(ReadyQueues queues) {
        BACKPLANES.add(queues);
    }

    static void unregister(ReadyQueues queues) {
        BACKPLANES.remove(queues);
    }

    /** Whether an object is READY at a priority more urgent than {@code priority} in any backplane. */
    static boolean moreUrgentWorkWaiting(int priority) {
        for (ReadyQueues queues : BACKPLANES) {
            if (queues.readyAbove(priority)) {
                return true;
            }
        }
        return false;
    }
}
