package io.appbackplane.internal.scheduling;

import io.appbackplane.Action;
import io.appbackplane.ActionContext;
import io.appbackplane.ActionTracer;
import io.appbackplane.Backplane;
import io.appbackplane.BackplaneClock;
import io.appbackplane.BackplaneComponent;
import io.appbackplane.BackplanePolicy;
import io.appbackplane.ReplyHandler;
import io.appbackplane.internal.base.FutureCompletions;
import io.appbackplane.internal.base.WorkerLocalPadding;
import io.appbackplane.internal.objects.ActionNode;
import io.appbackplane.internal.objects.ObservedActions;
import io.appbackplane.internal.objects.PendingReply;
import io.appbackplane.internal.objects.TurnGate;
import io.appbackplane.internal.objects.WorkObject;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletionStage;

/**
 * The {@link ActionContext} of one worker (or of the stepping thread), reused for every action it
 * runs, and the worker's {@link TurnGate}. Confined to its thread; the context of an
 * action is valid only while {@link #begin} .. {@link #end} brackets it.
 */
final class RunContext extends WorkerLocalPadding implements ActionContext, TurnGate {

    private final SchedulingHost backplane;
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
    /**
     * The actions a worker's turn had run when it last went on as a new turn of the same object
     * (see {@link #mayContinue}); 0 for a turn that has not. Rule 7's actions per turn count from here.
     */
    private int turnBase;
    /** Set when something other than an action failed during the turn: the object leaves RUNNING at once. */
    boolean turnBroken;
    /** When the last action run with this context ended (or the step driver's boundary), on the backplane's clock. */
    long lastActionEnd;
    /**
     * Whether this worker went straight on from {@link #lastActionEnd} to the action about to run:
     * no park, spin, yield or throttled wait since, and no user code (a tracer, an observer, a
     * listener, a reply's listener: {@link #userCodeRan} clears it; its turn's
     * future completions move {@code lastActionEnd} past themselves), only its own scheduling. The
     * action's start is then {@code lastActionEnd} rather than a clock read (see {@link
     * #actionStart}). Always false in the step driver, whose steps a test may separate by advancing
     * the clock.
     */
    boolean straightOn;

    /** What this context's thread charges to the CPU budget. */
    final CpuMeter cpuMeter;
    /** Futures the current turn finished, completed once its object left RUNNING ({@link Scheduler#completeFutures}). */
    final FutureCompletions completions = new FutureCompletions();
    /**
     * Whether a worker runs the turns (true) or the step driver (false). A worker's turn is one
     * uninterrupted run, so it takes a continued turn's next action off the queue at once (see
     * {@link TurnGate#prefetchesNext}) and keeps an object that is alone at its
     * priority (see {@link #mayContinue}). The step driver's turn spans steps, between which a
     * test looks at ready depths and quota use: it keeps to the plain rule, so that what a test
     * sees between steps is what rule 7 describes.
     */
    private final boolean worker;

    /** The longest turn, in actions, also for an object alone at its priority (see {@link #mayContinue}). */
    static final int LONGEST_TURN = BackplanePolicy.MAX_ACTIONS_PER_TURN;

    RunContext(SchedulingHost backplane, boolean worker) {
        this.backplane = backplane;
        this.cpuMeter = backplane.newCpuMeter();
        this.worker = worker;
    }

    /**
     * Where the action of {@code node} starts, on the backplane's clock. Straight on from the
     * previous action ({@link #straightOn}), that is where the previous one ended, or where this
     * one was queued if later: the worker's scheduling in between (ending the last turn, which may
     * wake another worker, and taking this object; usually well under a microsecond) counts as this
     * action's run time, which saves a clock read per action (docs/benchmarks.md, "Fewer clock
     * reads"). Otherwise the clock.
     */
    long actionStart(ActionNode node, BackplaneClock clock) {
        return straightOn ? Math.max(lastActionEnd, node.enqueuedAt) : clock.nanoTime();
    }

    /** The action begun with this context ended at {@code end}; a worker goes straight on from there. */
    void actionEnded(long end) {
        lastActionEnd = end;
        straightOn = worker;
    }

    /**
     * User code ran on this thread since {@link #lastActionEnd} (a tracer, an observer, a listener,
     * a reply's listener): the next action starts at a clock read, so that its run time holds none
     * of that code's time.
     */
    void userCodeRan() {
        straightOn = false;
    }

    /** A turn of the object taken at {@code priority} begins. */
    void startTurn(int priority) {
        turnPriority = priority;
        turnActions = 0;
        turnBase = 0;
        turnBroken = false;
    }

    void begin(WorkObject object, ActionNode node) {
        this.owner = Thread.currentThread();
        this.object = object;
        this.node = node;
        this.lastPriority = node.priority();
        this.reply = null;
        this.replyStage = null;
        this.replyTimeout = null;
        this.continuation = null;
        this.active = true;
    }

    /**
     * Ends the action's context. Drops the object and the action (and with it the request, its
     * future and result): a parked worker's context must not keep a released object or a result
     * nobody else holds reachable.
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
    void listen(PendingReply r, CompletionStage<?> stage, long now) {
        Duration timeout = replyTimeout;
        replyTimeout = null;
        r.listen(backplane.timers(), backplane.sharedReplies(), now, stage, timeout);
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
     * Rule 7: whether the object's turn goes on with its next action. Within the actions per turn,
     * while the object stays at the turn's priority, nothing more urgent is READY, the CPU budget
     * allows a start and the priority's quota allows a charge (each action is charged).
     *
     * <p>A worker's shortcut, equivalent to the plain rule: at the end of a turn the object would
     * rejoin the tail of its ready queue at its priority, and the next select would take the head
     * of the most urgent queue with quota left, under the CPU check. When no other object is READY
     * at the turn's priority ({@code noneReadyAt}), that queue would hold only this object, so
     * (the checks below being the same as select's: nothing more urgent, quota charged at the same
     * priority, CPU) the select would take it again and start a NEW turn with it. The worker does
     * just that without the push and the poll: it starts the new turn in place ({@code turnBase}),
     * so the actions per turn count afresh, as they do for the step driver, whose turn ends and
     * whose next select takes the object again. A failed check ends the turn either way, and the
     * select that follows decides as it would have. {@code WorkerShortcutEquivalenceTest} runs
     * generated workloads through a worker's turns and through the step driver and requires the
     * same order of actions; its named cases are the counterexamples that found the turn counting
     * wrong (the shortcut once extended the old turn instead of starting a new one). A worker's
     * turns in place stop at {@link #LONGEST_TURN} actions, at a turn boundary: a worker retires (or
     * stops) only between turns, and ending there is what the plain rule does anyway.
     */
    @Override
    public boolean mayContinue(int effectivePriority) {
        if (turnBroken) {
            return false;
        }
        TurnLimits limits = backplane.scheduler().limits();
        int perTurn = limits.actionsPerTurn();
        boolean turnLeft = turnActions - turnBase < perTurn;
        if (!turnLeft && worker && turnActions + perTurn <= LONGEST_TURN && limits.noneReadyAt(turnPriority)) {
            turnBase = turnActions; // a new turn of the same object, in place (see above)
            turnLeft = true;
        }
        return turnLeft
                && effectivePriority == turnPriority
                && !limits.readyAbove(effectivePriority)
                && limits.cpuAllowsStart(lastActionEnd, turnPriority) // rule 5: budget used up ends the turn
                && (turnCharge = limits.charge(turnPriority)) != QuotaLedger.NO_CHARGE;
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
        return node.priority();
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
        this.reply = PendingReply.create(object, node.request, handler, timeout != null, followUpTrace());
        this.replyStage = stage;
        this.replyTimeout = timeout;
        return null;
    }

    @Override
    public boolean shouldYield() {
        check();
        return PriorityInheritance.moreUrgentWorkWaiting(node.priority(), backplane.policy().priorities());
    }

    @Override
    public <T> T yieldTo(Action<T> next) {
        check();
        Objects.requireNonNull(next, "continuation must not be null");
        checkNothingPending("yield");
        long enqueuedAt = backplane.clock().nanoTime();
        this.continuation = ActionNode.create(next, node.request, enqueuedAt, followUpTrace());
        return null;
    }

    /** The tracer's token for a follow-up (a reply handler or continuation) of the running action; null without a tracer. */
    private Object followUpTrace() {
        ActionTracer tracer = backplane.tracer();
        return tracer == null ? null : ObservedActions.followUp(tracer, object.component, node.priority());
    }

    private void checkNothingPending(String what) {
        if (reply != null) {
            BackplaneComponent component = object.component;
            throw new IllegalStateException("cannot " + what + ": object '" + object.key + "' of component '"
                    + component.name() + "' already waits for a reply, and an object has at most one outstanding reply");
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
