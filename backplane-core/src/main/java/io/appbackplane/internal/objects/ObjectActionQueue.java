package io.appbackplane.internal.objects;

import java.util.ArrayList;
import java.util.List;

/**
 * An object's outstanding actions in the order they run: the front (a reply or continuation, rules
 * 8 and 14) before the FIFO of submitted actions, with the most urgent priority among them known in
 * O(1), so that the object can be scheduled at it (rule 7).
 *
 * <p>The queue half of {@link WorkObject}, split out as its superclass rather than a field so that
 * an object stays one 48-byte instance (docs/benchmarks.md, W4) and the per-action path takes no
 * extra hop. It has no lock of its own: every method but {@link #takePrefetched} is called under the
 * monitor of the object itself, held by its {@code WorkObject} caller.
 *
 * <p>The FIFO is a ring of {@link ActionNode}s linked through {@code next}: {@code tail} is the
 * newest and {@code tail.next} the oldest (the head), so one field holds both ends. The most urgent
 * priority of the FIFO and how many of its actions have it share one int ({@code atMin}: the
 * priority in the low {@value #PRIORITY_BITS} bits, the count above, saturating at {@link
 * #MAX_COUNT}). Invariants, whenever that monitor is free ({@link #checkQueue}):
 * <ul>
 *   <li>{@code queued = length(ring)}; {@code tail == null ⇔ queued == 0};
 *   <li>{@code minPriority() = min(priority of ring)} and {@code countAtMin() = min(MAX_COUNT,
 *       number of them at minPriority)} ({@link #NO_PRIORITY} and 0 when the FIFO is empty);
 *   <li>{@code prefetched} is in neither the front nor the FIFO: it has started.
 * </ul>
 */
abstract class ObjectActionQueue {

    /** The priority of an empty queue: less urgent than any real one. */
    static final int NO_PRIORITY = Integer.MAX_VALUE;

    /** Bits of {@code atMin} that hold the priority: priorities are 0..63 (BackplanePolicy.MAX_PRIORITIES). */
    private static final int PRIORITY_BITS = 7;
    private static final int PRIORITY_MASK = (1 << PRIORITY_BITS) - 1;
    /** {@code atMin}'s priority bits when the FIFO is empty. */
    private static final int EMPTY_PRIORITY = PRIORITY_MASK;
    /**
     * The most the count at the most urgent priority holds. Past it the count saturates: removing
     * an action at that priority then recounts the FIFO (a queue of more than 33 million actions at
     * one priority on one object pays O(length) per removal instead of failing).
     */
    static final int MAX_COUNT = (1 << (Integer.SIZE - PRIORITY_BITS)) - 1;

    private ActionNode tail;
    private int queued;
    /** The FIFO's most urgent priority and its count (see the class comment); {@code EMPTY_PRIORITY} and 0 when empty. */
    private int atMin = EMPTY_PRIORITY;
    /** A reply or continuation: runs before the FIFO's head (rules 8 and 14). */
    private ActionNode front;
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
            node.next = node;
        } else {
            node.next = tail.next;
            tail.next = node;
        }
        tail = node;
        queued++;
        int min = minPriority();
        if (node.priority() < min) {
            atMin = pack(node.priority(), 1);
        } else if (node.priority() == min && countAtMin() < MAX_COUNT) {
            atMin += 1 << PRIORITY_BITS;
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
            if (tail != null) {
                node = removeHead();
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
        return front != null || tail != null;
    }

    /** Actions waiting in the front and the FIFO. */
    final int waiting() {
        return queued + (front == null ? 0 : 1);
    }

    /** The priority the object is scheduled at: its most urgent waiting action's. */
    final int effectivePriority() {
        int min = minPriority();
        return front == null ? min : Math.min(front.priority(), min);
    }

    /** Empties the FIFO, for cancellation; the front stays. Returns the removed actions in order. */
    final List<ActionNode> removeFifo() {
        List<ActionNode> removed = new ArrayList<>(queued);
        drainFifo(removed, null);
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
        drainFifo(dropped, failed);
    }

    /** Empties the FIFO in order, adding its actions to {@code actions} and their requests to {@code requests} (either may be null). */
    private void drainFifo(List<ActionNode> actions, List<Request> requests) {
        if (tail == null) {
            return;
        }
        ActionNode n = tail.next;
        tail.next = null; // the ring opened at its tail: the walk ends there
        while (n != null) {
            ActionNode next = n.next;
            n.next = null;
            if (requests != null) {
                requests.add(n.request);
            }
            if (actions != null) {
                actions.add(n);
            }
            n = next;
        }
        tail = null;
        queued = 0;
        atMin = EMPTY_PRIORITY;
    }

    /** Unlinks and returns the FIFO's head; the FIFO is not empty. */
    private ActionNode removeHead() {
        ActionNode node = tail.next;
        if (node == tail) {
            tail = null;
        } else {
            tail.next = node.next;
        }
        node.next = null;
        queued--;
        if (tail == null) {
            atMin = EMPTY_PRIORITY;
        } else if (node.priority() == minPriority()) {
            int count = countAtMin();
            if (count == MAX_COUNT || count == 1) {
                rescanMinPriority(); // saturated: the true count is unknown; or the last at this priority left
            } else {
                atMin -= 1 << PRIORITY_BITS;
            }
        }
        return node;
    }

    /** The FIFO's most urgent priority, or {@link #NO_PRIORITY} when it is empty. */
    final int minPriority() {
        int p = atMin & PRIORITY_MASK;
        return p == EMPTY_PRIORITY ? NO_PRIORITY : p;
    }

    private int countAtMin() {
        return atMin >>> PRIORITY_BITS;
    }

    private static int pack(int priority, int count) {
        return priority | (count << PRIORITY_BITS);
    }

    /**
     * Recomputes the most urgent queued priority after the last action at the old one left. O(queue
     * length), but it runs only when a whole priority tier drains, so amortized O(priorities).
     */
    private void rescanMinPriority() {
        int min = NO_PRIORITY;
        int count = 0;
        ActionNode n = tail;
        do {
            n = n.next;
            if (n.priority() < min) {
                min = n.priority();
                count = 1;
            } else if (n.priority() == min && count < MAX_COUNT) {
                count++;
            }
        } while (n != tail);
        atMin = pack(min, count);
    }

    /** Checks the invariants above; for tests, under the monitor. */
    final void checkQueue() {
        int length = 0;
        int min = NO_PRIORITY;
        int count = 0;
        if (tail != null) {
            ActionNode n = tail;
            do {
                n = n.next;
                length++;
                if (n.priority() < min) {
                    min = n.priority();
                    count = 1;
                } else if (n.priority() == min) {
                    count++;
                }
            } while (n != tail && length <= queued);
        }
        require(length == queued, "queued = " + queued + " but the queue holds " + length);
        require(min == minPriority() && Math.min(count, MAX_COUNT) == countAtMin(), "min/count stale");
    }

    static void require(boolean condition, String message) {
        if (!condition) {
            throw new AssertionError(message);
        }
    }
}
