package io.appbackplane.internal;

import io.appbackplane.Action;
import io.appbackplane.ActionContext;
import io.appbackplane.Backplane;
import io.appbackplane.BackplaneComponent;
import io.appbackplane.BackplanePolicy;
import io.appbackplane.ReplyHandler;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletionStage;

/**
 * The {@link ActionContext} of one worker (or of the stepping thread), reused for every action it
 * runs, and the worker's {@link WorkObject.TurnGate}. Confined to its thread; the context of an
 * action is valid only while {@link #begin} .. {@link #end} brackets it.
 */
final class RunContext extends WorkerLocalPadding implements ActionContext, WorkObject.TurnGate {

    private final DefaultBackplane backplane;
    private Thread owner;
    private WorkObject object;
    private ActionNode node;
    private PendingReply reply;
    /** The stage and timeout of {@code reply}, until the worker's {@link PendingReply#listen}: not kept per waiting object. */
    private CompletionStage<?> replyStage;
    private Duration replyTimeout;
    private ActionNode continuation;
    private boolean active;
    private int lastPriority = -1;
    /** The priority the current turn was charged to, and how many actions it has run. */
    int turnPriority;
    /** The receipt of the quota charge {@link #mayContinue} took last (refunded if a step driver's turn is redecided). */
    long turnCharge = QuotaLedger.NO_CHARGE;
    int turnActions;
    /** Set when something other than an action failed during the turn: the object leaves RUNNING at once. */
    boolean turnBroken;
    /** When the last action run with this context ended (or the step driver's boundary), on the backplane's clock. */
    long lastActionEnd;

    /** What this context's thread charges to the CPU budget. */
    final CpuMeter cpuMeter;
    /** Futures the current turn finished, completed once its object left RUNNING ({@link Scheduler#completeFutures}). */
    final FutureCompletions completions = new FutureCompletions();
    /**
     * Whether a worker runs the turns (true) or the step driver (false). A worker's turn is one
     * uninterrupted run, so it takes a continued turn's next action off the queue at once (see
     * {@link WorkObject.TurnGate#prefetchesNext}) and keeps an object that is alone at its
     * priority (see {@link #mayContinue}). The step driver's turn spans steps, between which a
     * test looks at ready depths and quota use: it keeps to the plain rule, so that what a test
     * sees between steps is what rule 7 describes.
     */
    private final boolean worker;

    /** The longest turn, in actions, also for an object alone at its priority (see {@link #mayContinue}). */
    static final int LONGEST_TURN = BackplanePolicy.MAX_ACTIONS_PER_TURN;

    RunContext(DefaultBackplane backplane, boolean worker) {
        this.backplane = backplane;
        this.cpuMeter = backplane.newCpuMeter();
        this.worker = worker;
    }

    void begin(WorkObject object, ActionNode node) {
        this.owner = Thread.currentThread();
        this.object = object;
        this.node = node;
        this.lastPriority = node.priority;
        this.reply = null;
        this.replyStage = null;
        this.replyTimeout = null;
        this.continuation = null;
        this.active = true;
    }

    /**
     * Ends the action's context. Drops the object and the action (and with it the request, its
     * future and result): a parked worker's context must not keep a released object or a result
     * nobody else holds reachable (issue 13, defect 8).
     */
    void end() {
        active = false;
        object = null;
        node = null;
    }

    /** The reply the finished action asked to wait for, if any (then cleared). */
    PendingReply takeReply() {
        PendingReply r = reply;
        reply = null;
        return r;
    }

    /** The stage of the reply returned by the last {@link #takeReply} (then cleared). */
    CompletionStage<?> takeReplyStage() {
        CompletionStage<?> stage = replyStage;
        replyStage = null;
        return stage;
    }

    /** Starts listening for {@code r} (from {@link #takeReply}) on its {@code stage} (from {@link #takeReplyStage}). */
    void listen(PendingReply r, CompletionStage<?> stage, TimerService timers, long now) {
        Duration timeout = replyTimeout;
        replyTimeout = null;
        r.listen(timers, now, stage, timeout);
    }

    /** The continuation the finished action yielded to, if any (then cleared). */
    ActionNode takeContinuation() {
        ActionNode c = continuation;
        continuation = null;
        return c;
    }

    /** The priority of the last action begun with this context (for the step driver's report). */
    int lastPriority() {
        return lastPriority;
    }

    /**
     * Rule 7. Past the actions per turn, the object would rejoin the tail of its ready queue; when
     * no other object is READY at its priority it would be that queue's head, and the next select
     * (the same checks as below: nothing more urgent, quota, CPU) would take it again, so a worker
     * goes on with the turn instead of a push and a poll that end where they started, for at most
     * {@link #LONGEST_TURN} actions: a worker retires (or stops) only between turns.
     *
     * <p>Intended to run the plain rule's order: the object would rejoin an empty queue (checked by
     * {@code noneReadyAt}) and the next select, finding nothing more urgent ({@code readyAbove}),
     * would charge the same quota under the same CPU check and take it again. NOT yet shown
     * equivalent: {@code WorkerShortcutEquivalenceTest} (stress-tagged test) finds generated
     * workloads where a worker's turns (this shortcut with prefetching) and the step driver run
     * actions in a different order, while without them the orders agree (issue 13, "one path",
     * open).
     */
    @Override
    public boolean mayContinue(int effectivePriority) {
        if (turnBroken) {
            return false;
        }
        Scheduler scheduler = backplane.scheduler();
        boolean turnLeft = turnActions < scheduler.actionsPerTurn()
                || (worker && turnActions < LONGEST_TURN && scheduler.noneReadyAt(turnPriority));
        return turnLeft
                && effectivePriority == turnPriority
                && !scheduler.readyAbove(effectivePriority)
                && scheduler.cpuAllowsStart(lastActionEnd) // rule 5: budget used up ends the turn
                && (turnCharge = scheduler.charge(turnPriority)) != QuotaLedger.NO_CHARGE;
    }

    @Override
    public boolean prefetchesNext() {
        return worker;
    }

    @Override
    public Backplane backplane() {
        check();
        return backplane;
    }

    @Override
    public BackplaneComponent component() {
        check();
        return object.component;
    }

    @Override
    public Object objectKey() {
        check();
        return object.key;
    }

    @Override
    public int priority() {
        check();
        return node.priority;
    }

    @Override
    public <R, T> T awaitReply(CompletionStage<R> reply, ReplyHandler<? super R, T> handler) {
        return await(reply, null, handler);
    }

    @Override
    public <R, T> T awaitReply(CompletionStage<R> reply, Duration timeout, ReplyHandler<? super R, T> handler) {
        Objects.requireNonNull(timeout, "timeout must not be null");
        if (timeout.isZero() || timeout.isNegative()) {
            throw new IllegalArgumentException("reply timeout " + timeout + " is invalid; allowed: a positive duration");
        }
        return await(reply, timeout, handler);
    }

    private <R, T> T await(CompletionStage<R> stage, Duration timeout, ReplyHandler<? super R, T> handler) {
        check();
        Objects.requireNonNull(stage, "reply must not be null");
        Objects.requireNonNull(handler, "handler must not be null");
        checkNothingPending("wait for a reply");
        this.reply = PendingReply.create(object, node.request, handler, timeout != null);
        this.replyStage = stage;
        this.replyTimeout = timeout;
        return null;
    }

    @Override
    public boolean shouldYield() {
        check();
        return PriorityInheritance.moreUrgentWorkWaiting(node.priority, backplane.policy().priorities());
    }

    @Override
    public <T> T yieldTo(Action<T> next) {
        check();
        Objects.requireNonNull(next, "continuation must not be null");
        checkNothingPending("yield");
        this.continuation = new ActionNode(next, node.priority, node.request, backplane.clock().nanoTime());
        return null;
    }

    private void checkNothingPending(String what) {
        if (reply != null) {
            throw new IllegalStateException("cannot " + what + ": object '" + object.key + "' of component '"
                    + object.component.name() + "' already waits for a reply, and an object has at most one outstanding reply");
        }
        if (continuation != null) {
            throw new IllegalStateException("cannot " + what + ": the action on object '" + object.key
                    + "' already yielded to a continuation");
        }
    }

    private void check() {
        if (!active || Thread.currentThread() != owner) {
            throw new IllegalStateException(
                    "this ActionContext is no longer valid: use it only on the worker thread while its action runs");
        }
    }
}
