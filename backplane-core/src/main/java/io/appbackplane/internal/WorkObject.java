package io.appbackplane.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.List;

/**
 * An object: a FIFO work queue served one action at a time, scheduled at the priority of its most
 * urgent outstanding action (DESIGN rules 7, 8, 16).
 *
 * <h2>States</h2>
 * <ul>
 *   <li>{@link #IDLE}: no work; in no ready queue. → READY (work arrives) or RELEASED.
 *   <li>{@link #READY}: has work; exactly one valid {@link ReadyEntry} in the ready queue of
 *       {@code readyPriority}. → RUNNING (a worker takes the entry) or READY at a more urgent
 *       priority (new entry; the old one goes stale).
 *   <li>{@link #RUNNING}: one worker holds the object and runs its actions. → READY (more work),
 *       IDLE, RELEASED (idle, unpinned) or WAITING (the action awaits a reply).
 *   <li>{@link #WAITING}: on the wait queue for a reply; new work queues but does not schedule;
 *       never released. → READY when the reply (or its timeout) is delivered.
 *   <li>{@link #RELEASED}: removed (or being removed) from its component's map; terminal. A
 *       submitter that finds it looks the key up again.
 * </ul>
 *
 * <h2>Concurrency</h2>
 * Every field below is guarded by this object's monitor (except {@code prefetched}, handed from the
 * monitor to the worker holding the object): submitters, the worker running it, reply
 * deliveries and the shutdown sweep all synchronize on it. The monitor is per object, so there is no
 * global lock on the path submit → ready queue → worker; ready-queue pushes happen after the monitor
 * is released. Invariants, whenever the monitor is free:
 * <ul>
 *   <li>{@code queued = length(head..tail)};
 *   <li>{@code minPriority = min(priority of head..tail)} and {@code countAtMin = number of them at
 *       minPriority} ({@link #NO_PRIORITY} and 0 when the queue is empty);
 *   <li>{@code state == READY ⇔ readyEntry != null}, and then {@code readyEntry.priority =
 *       effectivePriority()} or more urgent work has not arrived since;
 *   <li>{@code state == WAITING ⇒ awaiting != null && front == null};
 *   <li>{@code state ∈ {IDLE, RELEASED} ⇒ head == null && front == null && awaiting == null};
 *   <li>{@code loadHint == load()} (every method that changes the load calls {@code loadChanged}).
 * </ul>
 */
final class WorkObject {

    /** No work, in no queue. */
    static final int IDLE = 0;
    /** In a ready queue. */
    static final int READY = 1;
    /** Held by a worker. */
    static final int RUNNING = 2;
    /** On the wait queue for a reply. */
    static final int WAITING = 3;
    /** Gone from its component; terminal. */
    static final int RELEASED = 4;

    static final int NO_PRIORITY = Integer.MAX_VALUE;

    private static final int STATE_BITS = 0b111;
    private static final int ABANDONED = 1 << 3;
    /** One pin, in {@code word}'s bits above the flags. */
    private static final int PIN = 1 << 4;

    final DefaultComponent component;
    final Object key;

    private ActionNode head;
    private ActionNode tail;
    private int queued;
    /** A reply or continuation: runs before {@code head} (rules 8 and 14). */
    private ActionNode front;
    private int minPriority = NO_PRIORITY;
    private int countAtMin;

    private ReadyEntry readyEntry;
    /**
     * The action the worker holding the object runs next, taken off the queue ahead of time by
     * {@link #take} or by a {@link #afterAction} that continues the turn, so that starting an
     * action costs no extra monitor round trip. Written under the monitor and read (then cleared)
     * by that same worker without it: confined to the worker while RUNNING, like a running
     * action. Taking it off the queue is the action's start as far as cancellation and the
     * shutdown sweep are concerned.
     */
    private ActionNode prefetched;
    private PendingReply awaiting;
    /**
     * The state (low 3 bits: IDLE..RELEASED), the abandoned flag (set by the shutdown sweep: work
     * offered afterwards fails at once) and the number of pins (handles and pools holding the
     * object; the bits above), in one word to keep the object at 64 bytes (docs/benchmarks.md, W4).
     * Read and written under the monitor only, like every field here but {@code loadHint}.
     */
    private int word;
    /**
     * {@link #load()} as of the last change, for pools choosing an object without taking N
     * monitors (rule 12's choice is advisory: a moment-old value is as good). Written under the
     * monitor with release semantics, read without it.
     */
    @SuppressWarnings("unused") // accessed through LOAD_HINT
    private int loadHint;

    private static final VarHandle LOAD_HINT;

    static {
        try {
            LOAD_HINT = MethodHandles.lookup().findVarHandle(WorkObject.class, "loadHint", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    WorkObject(DefaultComponent component, Object key) {
        this.component = component;
        this.key = key;
    }

    /**
     * Queues {@code node}; called by a submitter.
     *
     * @return an entry the caller must push to the ready queues (then signal a worker), {@code
     *     null} if nothing is to be pushed, {@link ReadyEntry#RETRY} if this object was released
     *     (the caller looks the key up again), or {@link ReadyEntry#ABANDONED} after shutdown
     *     abandoned it (the caller fails the request)
     */
    synchronized ReadyEntry enqueue(ActionNode node) {
        if (currentState() == RELEASED) {
            return ReadyEntry.RETRY;
        }
        if (isAbandoned()) {
            return ReadyEntry.ABANDONED; // the caller fails the request outside this monitor
        }
        if (tail == null) {
            head = node;
        } else {
            tail.next = node;
        }
        tail = node;
        queued++;
        if (node.priority < minPriority) {
            minPriority = node.priority;
            countAtMin = 1;
        } else if (node.priority == minPriority) {
            countAtMin++;
        }
        loadChanged();
        switch (currentState()) {
            case IDLE:
                return becomeReady();
            case READY:
                if (node.priority < readyEntry.priority) {
                    // Rule 7: priority rises → leave the old queue (entry goes stale), join the new tail.
                    goStale();
                    return becomeReady();
                }
                return null;
            case RUNNING: // the worker re-examines the queue when the action ends
            case WAITING: // the reply's delivery makes it ready
                return null;
            default:
                throw new IllegalStateException("unknown object state " + currentState());
        }
    }

    /**
     * Takes a ready entry for a worker: READY → RUNNING if {@code entry} is still valid.
     *
     * @return false if the entry is stale (the object moved queues or is no longer READY)
     */
    synchronized boolean take(ReadyEntry entry) {
        if (currentState() != READY || readyEntry != entry) {
            return false;
        }
        component.ready.decrementDepth(entry.priority);
        readyEntry = null;
        setState(RUNNING);
        prefetched = pollNext();
        loadChanged();
        return true;
    }

    /** The next action to run (front first, then FIFO); called by the worker holding the object. */
    synchronized ActionNode next() {
        checkState(RUNNING);
        ActionNode node = prefetched;
        if (node != null) {
            prefetched = null;
            return node;
        }
        node = pollNext();
        loadChanged();
        return node; // null if cancelled or abandoned while the worker was getting here
    }

    /**
     * The action {@link #take} or a continuing {@link #afterAction} took off the queue, or null;
     * called by the worker holding the object, without the monitor (see {@code prefetched}).
     */
    ActionNode takePrefetched() {
        ActionNode node = prefetched;
        prefetched = null;
        return node;
    }

    private ActionNode pollNext() {
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

    /**
     * Registers the reply the just-finished action waits for; called by its worker while RUNNING.
     *
     * @return false if the object was abandoned by shutdown (the caller fails the request)
     */
    synchronized boolean startWaiting(PendingReply reply) {
        checkState(RUNNING);
        if (isAbandoned()) {
            return false;
        }
        awaiting = reply;
        return true;
    }

    /**
     * Puts a continuation at the head of the queue; called by the worker while RUNNING.
     *
     * @return false if the object was abandoned by shutdown
     */
    synchronized boolean pushFront(ActionNode continuation) {
        checkState(RUNNING);
        if (isAbandoned()) {
            return false;
        }
        front = continuation;
        loadChanged();
        return true;
    }

    /**
     * Delivers a reply as an action at the head of the queue, if this object still waits for
     * {@code reply}; called by whichever thread completed the reply or by the timeout timer. An
     * accepted delivery ends the wait ({@link PendingReply#end}: the record lets go of the object,
     * request and handler, and its timeout is cancelled).
     *
     * @param now the backplane's clock, the handler action's queue time
     * @return an entry to push, or null (refused, or accepted while the object is still RUNNING:
     *     {@code reply.hasEnded()} then says which)
     */
    synchronized ReadyEntry deliver(PendingReply reply, Object value, Throwable failure, long now) {
        if (awaiting != reply) {
            return null; // already delivered, timed out, cancelled or abandoned: ignore
        }
        awaiting = null;
        front = reply.end(value, failure, now);
        loadChanged();
        if (currentState() == WAITING) {
            component.waitingChanged(-1);
            return becomeReady();
        }
        return null; // still RUNNING: the worker sees the front when the action ends
    }

    /** {@link #afterAction}: keep running the object (another action of the same turn). */
    static final ReadyEntry CONTINUE = new ReadyEntry(null, -1);
    /** {@link #afterAction}: the object now waits for a reply. */
    static final ReadyEntry WAIT = new ReadyEntry(null, -1);
    /** {@link #afterAction}: the object has no work. */
    static final ReadyEntry NO_WORK = new ReadyEntry(null, -1);
    /** {@link #afterAction}: the object has no work and is RELEASED: remove it from the component. */
    static final ReadyEntry RELEASE = new ReadyEntry(null, -1);

    /**
     * Decides the object's next state after an action; called by the worker holding it.
     *
     * @param turn decides, under this monitor, whether the turn may go on at the object's current
     *     priority (actions per turn, more urgent work waiting, quota)
     * @return {@link #CONTINUE}, {@link #WAIT}, {@link #NO_WORK}, {@link #RELEASE}, or the new
     *     entry of the object, READY again, which the caller must push
     */
    synchronized ReadyEntry afterAction(TurnGate turn) {
        checkState(RUNNING);
        if (awaiting != null) {
            setState(WAITING);
            component.waitingChanged(+1);
            return WAIT;
        }
        if (front == null && head == null) {
            setState(pins() == 0 && component.releasesIdleObjects() ? RELEASED : IDLE);
            loadChanged();
            return currentState() == RELEASED ? RELEASE : NO_WORK;
        }
        if (turn.mayContinue(effectivePriority())) {
            if (turn.prefetchesNext()) {
                prefetched = pollNext();
                loadChanged(); // the action that ended no longer counts; the prefetched one does
            }
            return CONTINUE;
        }
        ReadyEntry entry = becomeReady();
        loadChanged();
        return entry;
    }

    /** Decides whether a turn goes on; see {@link #afterAction}. */
    interface TurnGate {
        boolean mayContinue(int effectivePriority);

        /**
         * Whether a continuing {@link #afterAction} also takes the next action off the queue for
         * {@link #takePrefetched}: a worker runs it at once; the step driver, whose next step
         * decides again first ({@code Scheduler.redecideTurn}), leaves it queued.
         */
        default boolean prefetchesNext() {
            return false;
        }
    }

    /** Pins the object (an {@link io.appbackplane.ObjectHandle}); false if it was released. */
    synchronized boolean pin() {
        if (currentState() == RELEASED) {
            return false;
        }
        word += PIN;
        return true;
    }

    /** Unpins; returns true if the object was idle, unpinned and is now RELEASED. */
    synchronized boolean unpin() {
        word -= PIN;
        return tryRelease();
    }

    /** IDLE and unpinned → RELEASED; returns true if so (the caller removes it from the map). */
    synchronized boolean tryRelease() {
        if (pins() == 0 && currentState() == IDLE && component.releasesIdleObjects()) {
            setState(RELEASED);
            return true;
        }
        return false;
    }

    /** Removes the queued (not started) actions, for cancellation; front and reply stay. */
    synchronized List<ActionNode> removeQueued() {
        List<ActionNode> removed = new ArrayList<>(queued);
        for (ActionNode n = head; n != null; n = n.next) {
            removed.add(n);
        }
        head = tail = null;
        queued = 0;
        minPriority = NO_PRIORITY;
        countAtMin = 0;
        if (currentState() == READY && front == null) {
            goStale();
            setState(IDLE); // the caller then tries to release the object
        }
        loadChanged();
        return removed;
    }

    /**
     * Shutdown: removes every queued action, the front and the awaited reply, and makes later
     * offers fail. A running action finishes; its request completes normally.
     *
     * @param dropped receives the removed actions (their traces end as dropped), or null
     * @return the requests to fail (those of removed actions and of the awaited reply)
     */
    List<Request> abandon(List<ActionNode> dropped) {
        return abandon(true, dropped);
    }

    /**
     * Shutdown: removes every queued action, the front and the awaited reply; with {@code forever}
     * later offers fail too, without it (the drain timeout, before the DOWN hooks) the object takes
     * work again. A running action finishes; its request completes normally.
     *
     * @param dropped receives the removed actions (their traces end as dropped), or null
     * @return the requests to fail (those of removed actions and of the awaited reply)
     */
    synchronized List<Request> abandon(boolean forever, List<ActionNode> dropped) {
        if (forever) {
            word |= ABANDONED;
        }
        List<Request> failed = new ArrayList<>();
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
        head = tail = null;
        queued = 0;
        minPriority = NO_PRIORITY;
        countAtMin = 0;
        if (awaiting != null) {
            failed.add(awaiting.abandon());
            awaiting = null;
        }
        if (currentState() == READY) {
            goStale();
            setState(IDLE);
        } else if (currentState() == WAITING) {
            component.waitingChanged(-1);
            setState(IDLE);
        }
        loadChanged();
        return failed;
    }

    /** Queued, front, running and awaited actions: how busy the object is (for pools, rule 12). */
    synchronized int load() {
        return computeLoad();
    }

    /** {@link #load()} without the monitor: the value as of the last change (see {@code loadHint}). */
    int loadHint() {
        return (int) LOAD_HINT.getAcquire(this);
    }

    private int computeLoad() {
        return queued + (front == null ? 0 : 1) + (currentState() == RUNNING || currentState() == WAITING ? 1 : 0);
    }

    /** The state; the caller holds the monitor. */
    private int currentState() {
        return word & STATE_BITS;
    }

    /** Sets the state, keeping the flags and pins; the caller holds the monitor. */
    private void setState(int state) {
        word = (word & ~STATE_BITS) | state;
    }

    private int pins() {
        return word >>> 4;
    }

    private boolean isAbandoned() {
        return (word & ABANDONED) != 0;
    }

    /** Publishes the load after a change; called under the monitor by every method that changes it. */
    private void loadChanged() {
        LOAD_HINT.setRelease(this, computeLoad());
    }

    synchronized int state() {
        return currentState();
    }

    synchronized int queued() {
        return queued + (front == null ? 0 : 1);
    }

    /** The priority the object is scheduled at: its most urgent outstanding action's. */
    private int effectivePriority() {
        return front == null ? minPriority : Math.min(front.priority, minPriority);
    }

    /**
     * The current entry stops being valid (the object leaves READY other than by a take, or moves
     * to a more urgent queue): uncount it, kill it and drop it from its queue's head if it is there
     * (see {@link ReadyEntry}), so that it is neither mistaken for work nor keeps this object
     * reachable. Under the monitor; the purge is lock-free and never blocks.
     */
    private void goStale() {
        ReadyEntry stale = readyEntry;
        readyEntry = null;
        component.ready.decrementDepth(stale.priority);
        stale.kill();
        component.ready.purgeDeadHead(stale.priority);
    }

    private ReadyEntry becomeReady() {
        int p = effectivePriority();
        readyEntry = new ReadyEntry(this, p);
        setState(READY);
        component.ready.incrementDepth(p);
        return readyEntry;
    }

    private void removeHead() {
        ActionNode node = head;
        head = node.next;
        node.next = null;
        if (head == null) {
            tail = null;
        }
        queued--;
        if (node.priority == minPriority && --countAtMin == 0) {
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
            if (n.priority < min) {
                min = n.priority;
                count = 1;
            } else if (n.priority == min) {
                count++;
            }
        }
        minPriority = min;
        countAtMin = count;
    }

    private void checkState(int expected) {
        if (currentState() != expected) {
            throw new IllegalStateException("object '" + SafeText.of(key) + "' is in state " + currentState() + ", expected " + expected);
        }
    }

    /** Checks the monitor-guarded invariants; for tests. */
    synchronized void checkInvariants() {
        int length = 0;
        int min = NO_PRIORITY;
        int count = 0;
        for (ActionNode n = head; n != null; n = n.next) {
            length++;
            if (n.priority < min) {
                min = n.priority;
                count = 1;
            } else if (n.priority == min) {
                count++;
            }
        }
        require(length == queued, "queued = " + queued + " but the queue holds " + length);
        require(min == minPriority && count == countAtMin, "min/count stale");
        require((currentState() == READY) == (readyEntry != null), "readyEntry iff READY");
        require(currentState() != WAITING || (awaiting != null && front == null), "WAITING needs an awaited reply");
        require(currentState() != IDLE && currentState() != RELEASED || (head == null && front == null && awaiting == null),
                "an idle object holds work");
        require(prefetched == null || currentState() == RUNNING, "a prefetched action outside RUNNING");
    }

    private static void require(boolean condition, String message) {
        if (!condition) {
            throw new AssertionError(message);
        }
    }

    @Override
    public String toString() {
        return "WorkObject{" + component.name() + "/" + SafeText.of(key) + "}";
    }
}
