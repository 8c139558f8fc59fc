package io.appbackplane.internal.scheduling;

import io.appbackplane.internal.base.WorkerTallies;
import io.appbackplane.internal.base.WorkerThread;
import io.appbackplane.internal.objects.ReadyEntry;
import io.appbackplane.internal.objects.ReadyMembership;
import java.util.concurrent.atomic.LongAdder;

/**
 * One FIFO ready queue of objects per priority (scheduling rule 2), lock-free ({@link ReadyQueue}),
 * and the count of objects READY at each priority.
 *
 * <p>The queues, never the counts, are what counts as work: selection polls a priority while its
 * queue holds an entry, and the workers' park check and a turn's "nothing more urgent, nobody else
 * at its priority" read whether queues hold entries, so they agree with what a poll finds. An
 * entry is visible from its push (a submitter pushes after the object's monitor, then signals), so
 * an object that is READY but not yet pushed is not work yet; its push wakes a worker. Invariant,
 * for every priority p, once every operation has returned: queue p's head, if any, is a live entry
 * (dead ones are purged from the head, see {@link ReadyEntry}), and queue p holds exactly one live
 * entry per object READY at p, so {@code queue p is empty ⇔ no object is READY at p}.
 *
 * <p>The counts ({@link #depth}) are statistics: each object entering or leaving READY adds to
 * them under its monitor, a worker in its own tally ({@link WorkerTallies}, a plain store), any
 * other thread in a {@link LongAdder} per priority, so a submit and a take no longer write one
 * shared counter per action. Their sum is exact once every operation has returned (step mode, a
 * quiescent backplane) and a moment old otherwise.
 */
public final class ReadyQueues implements ReadyMembership {

    private final ReadyQueue[] queues;
    /** Objects entering (+1) and leaving (−1) READY, counted by the worker threads, value p for priority p. */
    private final WorkerTallies countedByWorkers;
    /** The same, counted by any other thread (submitters, repliers, the step driver), one adder per priority. */
    private final LongAdder[] countedElsewhere;

    public ReadyQueues(int priorities) {
        queues = new ReadyQueue[priorities];
        countedElsewhere = new LongAdder[priorities];
        for (int p = 0; p < priorities; p++) {
            queues[p] = new ReadyQueue();
            countedElsewhere[p] = new LongAdder();
        }
        countedByWorkers = new WorkerTallies(priorities);
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

    /** Whether queue {@code p} holds no entry, dead or alive (for tests: dead ones do not stay). */
    public boolean isQueueEmpty(int p) {
        return queues[p].isEmpty();
    }

    /** Whether queue {@code p} holds an entry: an object READY at p, pushed (a moment-old answer; see the class comment). */
    boolean hasQueued(int p) {
        return !queues[p].isEmpty();
    }

    /** Whether any queue holds an entry (a moment-old answer). */
    boolean anyQueued() {
        return anyQueuedIn(0, queues.length);
    }

    /** Whether a queue more urgent than {@code priority} holds an entry. */
    boolean queuedAbove(int priority) {
        return anyQueuedIn(0, Math.min(priority, queues.length));
    }

    /** Whether a queue less urgent than {@code priority} holds an entry. */
    boolean anyQueuedBelow(int priority) {
        return anyQueuedIn(priority + 1, queues.length);
    }

    /** Whether a queue of priority {@code from} (inclusive) to {@code to} (exclusive) holds an entry. */
    private boolean anyQueuedIn(int from, int to) {
        for (int p = from; p < to; p++) {
            if (!queues[p].isEmpty()) {
                return true;
            }
        }
        return false;
    }

    /** Called under the monitor of an object entering READY at {@code p}. */
    @Override
    public void incrementDepth(int p) {
        count(p, +1);
    }

    /** Called under the monitor of an object leaving READY at {@code p}. */
    @Override
    public void decrementDepth(int p) {
        count(p, -1);
    }

    private void count(int p, int delta) {
        long[] tally = countedByWorkers.of(WorkerThread.currentSlot());
        if (tally == null) {
            countedElsewhere[p].add(delta);
        } else {
            WorkerTallies.add(tally, p, delta);
        }
    }

    /**
     * Objects READY at priority {@code p} (statistics): exact once every operation has returned, a
     * moment old otherwise (see the class comment; a reading between two threads' additions is
     * clamped at 0).
     */
    public int depth(int p) {
        long sum = countedByWorkers.sum(p) + countedElsewhere[p].sum();
        return (int) Math.max(0, Math.min(Integer.MAX_VALUE, sum));
    }

    /** Total objects READY (statistics, as {@link #depth}). */
    public int totalDepth() {
        int total = 0;
        for (int p = 0; p < queues.length; p++) {
            total += depth(p);
        }
        return total;
    }
}
