package io.appbackplane.internal.objects;

import io.appbackplane.internal.base.SafeText;
import java.util.ArrayList;
import java.util.List;

/**
 * An object: a FIFO work queue ({@link ObjectActionQueue}, its superclass) served one action at a
 * time, scheduled at the priority of its most urgent outstanding action (scheduling rules 7, 8, 16).
 * This class is the state machine; its state word's packing is {@link ObjectStateWord}.
 *
 * <h2>States</h2>
 * <ul>
 *   <li>{@link #IDLE}: no work; in no ready queue. → READY (work arrives) or RELEASED (unpinned,
 *       and either at once or by the {@link IdleObjectSweep} once it has stayed idle).
 *   <li>{@link #READY}: has work; exactly one valid {@link ReadyEntry} in the ready queue of
 *       {@code readyPriority}. → RUNNING (a worker takes the entry) or READY at a more urgent
 *       priority (new entry; the old one goes stale).
 *   <li>{@link #RUNNING}: one worker holds the object and runs its actions. → READY (more work),
 *       IDLE, RELEASED (idle, unpinned, released at once) or WAITING (the action awaits a reply).
 *   <li>{@link #WAITING}: on the wait queue for a reply; new work queues but does not schedule;
 *       never released. → READY when the reply (or its timeout) is delivered.
 *   <li>{@link #RELEASED}: removed (or being removed) from its component's map; terminal. A
 *       submitter that finds it looks the key up again.
 * </ul>
 *
 * <h2>Concurrency</h2>
 * Every field here and in the queue is guarded by this object's monitor (except the queue's {@code
 * prefetched}, handed from the monitor to the worker holding the object): submitters, the worker
 * running it, reply deliveries and the shutdown sweep all synchronize on it. The monitor is per
 * object, so there is no global lock on the path submit → ready queue → worker; ready-queue pushes
 * happen after the monitor is released, by the caller that a method hands the entry to push
 * ({@link Enqueued}, {@link TurnEnd}). Invariants, whenever the monitor is free (besides the
 * queue's own):
 * <ul>
 *   <li>{@code state == READY ⇔ parked is the object's ReadyEntry}, and then {@code
 *       readyEntry.priority = effectivePriority()} or more urgent work has not arrived since;
 *   <li>{@code parked is a PendingReply ⇒ state ∈ {RUNNING, WAITING}} (the awaited reply);
 *       {@code state == WAITING ⇒ it is, && front == null};
 *   <li>{@code state ∈ {IDLE, RELEASED} ⇒ no queued work, no front, parked == null};
 *   <li>{@code prefetched != null ⇒ state == RUNNING};
 * </ul>
 *
 * <h2>Memory</h2>
 * A keyed object is one 48-byte instance with compressed references (a waiting conversation holds
 * one, docs/benchmarks.md W4): its ready entry and its awaited reply share one field, since an
 * object is never READY while it waits.
 */
public sealed class WorkObject extends ObjectActionQueue permits PooledWorkObject {

    /** No work, in no queue. */
    public static final int IDLE = 0;
    /** In a ready queue. */
    public static final int READY = 1;
    /** Held by a worker. */
    static final int RUNNING = 2;
    /** On the wait queue for a reply. */
    static final int WAITING = 3;
    /** Gone from its component; terminal. */
    public static final int RELEASED = 4;

    /** What {@link #enqueue} hands back besides null: the new entry to push, or a {@link Refusal}. */
    public sealed interface Enqueued permits ReadyEntry, Refusal {}

    /** What {@link #afterAction} hands back: the new entry to push, or an {@link AfterAction}. */
    public sealed interface TurnEnd permits ReadyEntry, AfterAction {}

    /** The component this object belongs to. */
    public final ObjectOwner component;
    public final Object key;

    /**
     * The object's current {@link ReadyEntry} while it is READY, the {@link PendingReply} it awaits
     * from {@link #startWaiting} until the wait ends, else null: the two never coexist (a waiting
     * object becomes READY only once its reply's delivery ended the wait).
     */
    private Object parked;
    /**
     * State, abandoned flag, the idle sweep's LISTED and SWEPT bits, and pins ({@link
     * ObjectStateWord}). Read and written under the monitor only, like every field here.
     */
    private int word;

    public WorkObject(ObjectOwner component, Object key) {
        this.component = component;
        this.key = key;
    }

    /**
     * Queues {@code node}; called by a submitter.
     *
     * @return the object's new entry, which the caller must push to the ready queues (then signal
     *     a worker), {@code null} if nothing is to be pushed, {@link Refusal#RELEASED} if this
     *     object was released (the caller looks the key up again), or {@link Refusal#ABANDONED}
     *     after shutdown abandoned it (the caller fails the request)
     */
    public synchronized Enqueued enqueue(ActionNode node) {
        if (currentState() == RELEASED) {
            return Refusal.RELEASED;
        }
        if (isAbandoned()) {
            return Refusal.ABANDONED; // the caller fails the request outside this monitor
        }
        append(node);
        switch (currentState()) {
            case IDLE:
                return becomeReady();
            case READY:
                if (node.priority() < ((ReadyEntry) parked).priority) {
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
    public synchronized boolean take(ReadyEntry entry) {
        if (currentState() != READY || parked != entry) {
            return false;
        }
        component.ready().decrementDepth(entry.priority);
        parked = null;
        setState(RUNNING);
        prefetch();
        return true;
    }

    /** The next action to run (front first, then FIFO); called by the worker holding the object. */
    public synchronized ActionNode next() {
        checkState(RUNNING);
        ActionNode node = takePrefetched();
        if (node != null) {
            return node;
        }
        node = pollNext();
        return node; // null if cancelled or abandoned while the worker was getting here
    }

    /**
     * Registers the reply the just-finished action waits for; called by its worker while RUNNING.
     *
     * @return false if the object was abandoned by shutdown (the caller fails the request)
     */
    public synchronized boolean startWaiting(PendingReply reply) {
        checkState(RUNNING);
        if (isAbandoned()) {
            return false;
        }
        parked = reply;
        return true;
    }

    /**
     * Puts a continuation at the head of the queue; called by the worker while RUNNING.
     *
     * @return false if the object was abandoned by shutdown
     */
    public synchronized boolean pushFront(ActionNode continuation) {
        checkState(RUNNING);
        if (isAbandoned()) {
            return false;
        }
        setFront(continuation);
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
    public synchronized ReadyEntry deliver(PendingReply reply, Object value, Throwable failure, long now) {
        if (parked != reply) {
            return null; // already delivered, timed out, cancelled or abandoned: ignore
        }
        parked = null;
        setFront(reply.end(value, failure, now));
        if (currentState() == WAITING) {
            component.waitingChanged(-1);
            placeRetaken();
            return becomeReady();
        }
        return null; // still RUNNING: the worker sees the front when the action ends
    }

    /**
     * Decides the object's next state after an action; called by the worker holding it.
     *
     * @param turn decides, under this monitor, whether the turn may go on at the object's current
     *     priority (actions per turn, more urgent work waiting, quota)
     * @return an {@link AfterAction}, or the new entry of the object, READY again, which the
     *     caller must push
     */
    public synchronized TurnEnd afterAction(TurnGate turn) {
        checkState(RUNNING);
        if (parked != null) { // RUNNING: only an awaited reply can be parked here
            setState(WAITING);
            component.waitingChanged(+1);
            placeFreed();
            return AfterAction.WAIT;
        }
        if (!hasQueuedWork() && !isAbandoned()) {
            ActionNode next = nextFromPool(); // its own work is done: a pool member takes its pool's next request
            if (next != null) {
                append(next);
            }
        }
        if (!hasQueuedWork()) {
            setState(IDLE);
            leftPlace(true);
            return idled();
        }
        if (turn.mayContinue(effectivePriority())) {
            if (turn.prefetchesNext()) {
                prefetch();
            }
            return AfterAction.CONTINUE;
        }
        ReadyEntry entry = becomeReady();
        return entry;
    }

    /** Pins the object (an {@link io.appbackplane.ObjectHandle}); false if it was released. */
    synchronized boolean pin() {
        if (currentState() == RELEASED) {
            return false;
        }
        word = (word & ~ObjectStateWord.SWEPT) + ObjectStateWord.PIN; // a pin is use: the sweep's mark goes
        return true;
    }

    /** Unpins; then as {@link #settleIfIdle}. */
    synchronized AfterAction unpin() {
        word -= ObjectStateWord.PIN;
        return settleIfIdle();
    }

    /**
     * After an unpin or a cancellation: an IDLE, unpinned object is released at once or listed for
     * the idle sweep, as after its last action ({@link #idled}).
     *
     * @return {@link AfterAction#RELEASE} (the caller removes it from the table), {@link
     *     AfterAction#LIST_IDLE} (the caller lists it) or {@link AfterAction#NO_WORK} (nothing to do)
     */
    synchronized AfterAction settleIfIdle() {
        return currentState() == IDLE ? idled() : AfterAction.NO_WORK;
    }

    /**
     * The object is IDLE: unpinned, it stays listed if it is, else it is listed for its
     * component's {@link IdleObjectSweep} if that keeps idle objects and has room, else released at
     * once.
     */
    private AfterAction idled() {
        if (pins() > 0 || ObjectStateWord.isListed(word)) {
            return AfterAction.NO_WORK;
        }
        if (!component.keepsIdleObjects()) {
            setState(RELEASED);
            return AfterAction.RELEASE;
        }
        word |= ObjectStateWord.LISTED;
        return AfterAction.LIST_IDLE;
    }

    /**
     * The idle sweep's visit: an object idle and unpinned since the sweep before (it marked the
     * object, and any change of state or pin since cleared the mark) is RELEASED; one idle and
     * unpinned now is marked; any other is unlisted (listed again when it next goes idle).
     */
    synchronized IdleObjectSweep.Visit sweepIdle() {
        if (currentState() != IDLE || pins() > 0) {
            word &= ~ObjectStateWord.LISTED;
            return IdleObjectSweep.Visit.UNLISTED;
        }
        if (ObjectStateWord.isSwept(word)) {
            setState(RELEASED);
            return IdleObjectSweep.Visit.RELEASED;
        }
        word |= ObjectStateWord.SWEPT;
        return IdleObjectSweep.Visit.KEPT;
    }

    /** Removes the queued (not started) actions, for cancellation; front and reply stay. */
    synchronized List<ActionNode> removeQueued() {
        List<ActionNode> removed = removeFifo();
        if (currentState() == READY && !hasFront()) {
            goStale();
            setState(IDLE); // the caller then settles it (settleIfIdle)
            leftPlace(true); // a pool member held a place for the work just removed
        }
        return removed;
    }

    /** {@link #abandon(boolean, List)} for good: later offers fail too. */
    public List<Request> abandon(List<ActionNode> dropped) {
        return abandon(true, dropped);
    }

    /**
     * Shutdown: removes every queued action, the front and the awaited reply; with {@code forever}
     * later offers fail too, without it (the drain timeout, before the DOWN hooks) the object takes
     * work again. A running action finishes; its request completes normally.
     *
     * @param dropped receives the removed actions (their traces end as dropped), or null
     * @return the requests to fail (those of removed actions and of the awaited reply; for a pool's
     *     member, those its pool had backlogged as well)
     */
    public synchronized List<Request> abandon(boolean forever, List<ActionNode> dropped) {
        if (forever) {
            word |= ObjectStateWord.ABANDONED;
        }
        List<Request> failed = new ArrayList<>();
        removeAll(failed, dropped);
        abandonPoolBacklog(failed, dropped); // a member's pool's too: its members would take it next
        if (parked instanceof PendingReply awaiting) {
            failed.add(awaiting.abandon());
            parked = null;
        }
        if (currentState() == READY) {
            goStale();
            setState(IDLE);
            leftPlace(true);
        } else if (currentState() == WAITING) {
            component.waitingChanged(-1);
            setState(IDLE);
            leftPlace(false); // a waiting member had freed its place already
        }
        return failed;
    }

    /** Queued, front, running and awaited actions: how busy the object is (for pools, rule 12). */
    synchronized int load() {
        return waiting() + (currentState() == RUNNING || currentState() == WAITING ? 1 : 0);
    }

    // ---- a pool member's part (PooledWorkObject overrides these; a keyed object has no pool) ----

    /** Under the monitor, when the object's own work is done: a pool member's next request from its pool's backlog, or null. */
    ActionNode nextFromPool() {
        return null;
    }

    /** Under the monitor, the object has just gone IDLE; {@code heldPlace}: it held a pool place until now. */
    void leftPlace(boolean heldPlace) {
    }

    /** Under the monitor, the object has just begun to wait for a reply. */
    void placeFreed() {
    }

    /** Under the monitor, a reply has just made the waiting object READY. */
    void placeRetaken() {
    }

    /** Under the monitor, in {@link #abandon}: a pool member also fails what its pool has backlogged. */
    void abandonPoolBacklog(List<Request> failed, List<ActionNode> dropped) {
    }

    /**
     * After the monitor, once the object went idle or began to wait (or shutdown or a cancellation
     * left it idle): a pool member's pool starts what its backlog holds on a member that may start.
     */
    public void startPoolBacklog() {
    }

    /** The state; the caller holds the monitor. */
    private int currentState() {
        return ObjectStateWord.state(word);
    }

    /** Sets the state, keeping the flags (but the sweep's mark) and the pins; the caller holds the monitor. */
    private void setState(int state) {
        word = ObjectStateWord.withState(word, state);
    }

    private int pins() {
        return ObjectStateWord.pins(word);
    }

    private boolean isAbandoned() {
        return ObjectStateWord.isAbandoned(word);
    }

    public synchronized int state() {
        return currentState();
    }

    public synchronized int queued() {
        return waiting();
    }

    /**
     * The current entry stops being valid (the object leaves READY other than by a take, or moves
     * to a more urgent queue): uncount it, kill it and drop it from its queue's head if it is there
     * (see {@link ReadyEntry}), so that it is neither mistaken for work nor keeps this object
     * reachable. Under the monitor; the purge is lock-free and never blocks.
     */
    private void goStale() {
        ReadyEntry stale = (ReadyEntry) parked;
        parked = null;
        component.ready().decrementDepth(stale.priority);
        stale.kill();
        component.ready().purgeDeadHead(stale.priority);
    }

    private ReadyEntry becomeReady() {
        int p = effectivePriority();
        ReadyEntry entry = new ReadyEntry(this, p);
        parked = entry;
        setState(READY);
        component.ready().incrementDepth(p);
        return entry;
    }

    private void checkState(int expected) {
        if (currentState() != expected) {
            throw new IllegalStateException("object '" + SafeText.of(key) + "' is in state " + currentState() + ", expected " + expected);
        }
    }

    /** Checks the monitor-guarded invariants; for tests. */
    public synchronized void checkInvariants() {
        checkQueue();
        require((currentState() == READY) == (parked instanceof ReadyEntry), "readyEntry iff READY");
        require(!(parked instanceof PendingReply) || currentState() == RUNNING || currentState() == WAITING,
                "an awaited reply outside RUNNING and WAITING");
        require(currentState() != WAITING || (parked instanceof PendingReply && !hasFront()), "WAITING needs an awaited reply");
        require(currentState() != IDLE && currentState() != RELEASED || (!hasQueuedWork() && parked == null),
                "an idle object holds work");
        require(!hasPrefetched() || currentState() == RUNNING, "a prefetched action outside RUNNING");
        require(!ObjectStateWord.isSwept(word) || (currentState() == IDLE && pins() == 0),
                "the idle sweep's mark on an object in use");
    }

    @Override
    public String toString() {
        return "WorkObject{" + component.name() + "/" + SafeText.of(key) + "}";
    }
}
