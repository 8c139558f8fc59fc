package io.appbackplane.internal.objects;

import java.util.ArrayList;
import java.util.List;

/**
 * An object's outstanding actions in the order they run: the front (a reply or continuation, rules
 * 8 and 14) before the FIFO of submitted actions, with the most urgent priority among them known in
 * O(1), so that the object can be scheduled at it (rule 7).
 *
 * <p>The queue half of {@link WorkObject}, split out as its superclass rather than a field so that
 * an object stays one 64-byte instance (docs/benchmarks.md, W4) and the per-action path takes no
 * extra hop. It has no lock of its own: every method but {@link #takePrefetched} is called under the
 * monitor of the object itself, held by its {@code WorkObject} caller. Invariants, whenever that
 * monitor is free ({@link #checkQueue}):
 * <ul>
 *   <li>{@code queued = length(head..tail)};
 *   <li>{@code minPriority = min(priority of head..tail)} and {@code countAtMin = number of them at
 *       minPriority} ({@link #NO_PRIORITY} and 0 when the FIFO is empty);
 *   <li>{@code prefetched} is in neither the front nor the FIFO: it has started.
 * </ul>
 */
abstract class ObjectActionQueue {

    /** The priority of an empty queue: less urgent than any real one. */
    static final int NO_PRIORITY = Integer.MAX_VALUE;

    private ActionNode head;
    private ActionNode tail;
    private int queued;
    /** A reply or continuation: runs before {@code head} (rules 8 and 14). */
    private ActionNode front;
    private int minPriority = NO_PRIORITY;
    private int countAtMin;
    /**
     * The action the worker holding the object runs next, taken off the queue ahead of time (by
     * {@link WorkObject#take} or a continuing {@link WorkObject#afterAction}) so that starting an
     * action costs no extra monitor round trip. Written under the monitor and read (then cleared)
     * by that same worker without it: confined to the worker while the object is RUNNING, like a
     * running action. Taking it off the queue is the action's start as far as cancellation and the
     * shutdown sweep are concerned.
     */
    private ActionNode prefetched;

    /** Appends a submitted action to the FIFO. */
    final void append(ActionNode node) {
        if (tail == null) {
            head = node;
        } else {
            tail.next = node;
        }
        tail = node;
        queued++;
        if (node.priority() < minPriority) {
            minPriority = node.priority();
            countAtMin = 1;
        } else if (node.priority() == minPriority) {
            countAtMin++;
        }
    }

    /** Puts a reply or continuation at the front (the object holds at most one). */
    final void setFront(ActionNode node) {
        front = node;
    }

    /** Removes and returns the next action (front first, then FIFO), or null if there is none. */
    final ActionNode pollNext() {
        ActionNode node = front;
        if (node != null) {
            front = null;
        } else {
            node = head;
            if (node != null) {
                removeHead();
            }
        }
        return node;
    }

    /** Takes the next action off the queue for {@link #takePrefetched}. */
    final void prefetch() {
        prefetched = pollNext();
    }

    /**
     * The action taken off the queue ahead of time, or null; called by the worker holding the
     * object, without the monitor (see {@code prefetched}).
     */
    public final ActionNode takePrefetched() {
        ActionNode node = prefetched;
        prefetched = null;
        return node;
    }

    final boolean hasPrefetched() {
        return prefetched != null;
    }

    final boolean hasFront() {
        return front != null;
    }

    /** Whether an action waits in the front or the FIFO (a prefetched one has started). */
    final boolean hasQueuedWork() {
        return front != null || head != null;
    }

    /** Actions waiting in the front and the FIFO. */
    final int waiting() {
        return queued + (front == null ? 0 : 1);
    }

    /** The priority the object is scheduled at: its most urgent waiting action's. */
    final int effectivePriority() {
        return front == null ? minPriority : Math.min(front.priority(), minPriority);
    }

    /** Empties the FIFO, for cancellation; the front stays. Returns the removed actions in order. */
    final List<ActionNode> removeFifo() {
        List<ActionNode> removed = new ArrayList<>(queued);
        for (ActionNode n = head; n != null; n = n.next) {
            removed.add(n);
        }
        clearFifo();
        return removed;
    }

    /**
     * Empties the front and the FIFO, for shutdown: adds the requests of the removed actions to
     * {@code failed} and the actions to {@code dropped} (if not null), front first.
     */
    final void removeAll(List<Request> failed, List<ActionNode> dropped) {
        if (front != null) {
            failed.add(front.request);
            if (dropped != null) {
                dropped.add(front);
            }
            front = null;
        }
        for (ActionNode n = head; n != null; n = n.next) {
            failed.add(n.request);
            if (dropped != null) {
                dropped.add(n);
            }
        }
        clearFifo();
    }

    private void clearFifo() {
        head = tail = null;
        queued = 0;
        minPriority = NO_PRIORITY;
        countAtMin = 0;
    }

    private void removeHead() {
        ActionNode node = head;
        head = node.next;
        node.next = null;
        if (head == null) {
            tail = null;
        }
        queued--;
        if (node.priority() == minPriority && --countAtMin == 0) {
            rescanMinPriority();
        }
    }

    /**
     * Recomputes the most urgent queued priority after the last action at the old one left. O(queue
     * length), but it runs only when a whole priority tier drains, so amortized O(priorities).
     */
    private void rescanMinPriority() {
        int min = NO_PRIORITY;
        int count = 0;
        for (ActionNode n = head; n != null; n = n.next) {
            if (n.priority() < min) {
                min = n.priority();
                count = 1;
            } else if (n.priority() == min) {
                count++;
            }
        }
        minPriority = min;
        countAtMin = count;
    }

    /** Checks the invariants above; for tests, under the monitor. */
    final void checkQueue() {
        int length = 0;
        int min = NO_PRIORITY;
        int count = 0;
        for (ActionNode n = head; n != null; n = n.next) {
            length++;
            if (n.priority() < min) {
                min = n.priority();
                count = 1;
            } else if (n.priority() == min) {
                count++;
            }
        }
        require(length == queued, "queued = " + queued + " but the queue holds " + length);
        require(min == minPriority && count == countAtMin, "min/count stale");
    }

    static void require(boolean condition, String message) {
        if (!condition) {
            throw new AssertionError(message);
        }
    }
}
