package io.appbackplane.internal.scheduling;

import io.appbackplane.internal.base.CacheLines;
import io.appbackplane.internal.objects.ReadyEntry;
import io.appbackplane.internal.objects.ReadyMembership;
import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * One FIFO ready queue of objects per priority (scheduling rule 2), lock-free ({@link ReadyQueue}).
 *
 * <p>Invariant, for every priority p, whenever no object monitor is held:
 * {@code depth(p) = number of objects whose state is READY at priority p}. Each such object has
 * exactly one valid entry in queue p; the queue may also hold stale (dead) entries (see {@link
 * ReadyEntry}), so {@code queue(p).size() >= depth(p)}, but never at its head once every operation
 * has returned, so {@code depth(p) == 0 ⇒ queue(p) is empty}. Depth is changed only under the
 * monitor of the object whose state changes. Depth, never the queue, is what counts as work: the
 * scheduler's selection and the workers' park check both read it, so they agree.
 */
public final class ReadyQueues implements ReadyMembership {

    /**
     * Ints between two priorities' counters in {@link #depth}: one cache line ({@link CacheLines}),
     * so that workers and submitters changing the depth of one priority do not invalidate the line
     * another priority's counter lives on (false sharing).
     */
    static final int STRIDE = CacheLines.INTS_PER_LINE;

    private final ReadyQueue[] queues;
    /** The depth of priority p is at index {@link #slot}(p) ({@link CacheLines#stridedIndex}). */
    private final AtomicIntegerArray depth;

    public ReadyQueues(int priorities) {
        queues = new ReadyQueue[priorities];
        for (int p = 0; p < priorities; p++) {
            queues[p] = new ReadyQueue();
        }
        depth = new AtomicIntegerArray(CacheLines.stridedLength(priorities, STRIDE));
    }

    int priorities() {
        return queues.length;
    }

    /** Appends an entry; the caller has already counted it in {@link #incrementDepth}. */
    public void push(ReadyEntry entry) {
        queues[entry.priority].push(entry);
    }

    /** The head entry of priority {@code p}, possibly stale, or null. */
    public ReadyEntry poll(int p) {
        return queues[p].poll();
    }

    /**
     * Removes the dead entries at the head of queue {@code p} (see {@link ReadyEntry}); called by
     * whoever may have made that head dead.
     */
    @Override
    public void purgeDeadHead(int p) {
        queues[p].purgeDeadHead();
    }

    /** Whether queue {@code p} holds an entry, dead or alive (for tests: dead ones do not stay). */
    public boolean isQueueEmpty(int p) {
        return queues[p].isEmpty();
    }

    /** Objects READY at priority {@code p}. */
    public int depth(int p) {
        return depth.get(slot(p));
    }

    /** Whether an object is READY at a priority more urgent than {@code priority}. */
    boolean readyAbove(int priority) {
        for (int p = 0; p < priority && p < queues.length; p++) {
            if (depth.get(slot(p)) > 0) {
                return true;
            }
        }
        return false;
    }

    /** Called under the monitor of an object entering READY at {@code p}. */
    @Override
    public void incrementDepth(int p) {
        depth.incrementAndGet(slot(p));
    }

    /** Called under the monitor of an object leaving READY at {@code p}. */
    @Override
    public void decrementDepth(int p) {
        depth.decrementAndGet(slot(p));
    }

    private static int slot(int p) {
        return CacheLines.stridedIndex(p, STRIDE);
    }

    /** Total objects READY. */
    public int totalDepth() {
        int total = 0;
        for (int p = 0; p < queues.length; p++) {
            total += depth.get(slot(p));
        }
        return total;
    }
}
