package io.appbackplane.internal.scheduling;

import io.appbackplane.ActionTracer;
import io.appbackplane.BackplaneClock;
import io.appbackplane.BackplaneListener;
import io.appbackplane.internal.BackplaneCounters;
import io.appbackplane.internal.DefaultBackplane;
import io.appbackplane.internal.base.ActionCounters;
import io.appbackplane.internal.base.FutureCompletions;
import io.appbackplane.internal.base.SafeText;
import io.appbackplane.internal.objects.ActionNode;
import io.appbackplane.internal.objects.AfterAction;
import io.appbackplane.internal.objects.NothingTaken;
import io.appbackplane.internal.objects.ObservedActions;
import io.appbackplane.internal.objects.PendingReply;
import io.appbackplane.internal.objects.ReadyEntry;
import io.appbackplane.internal.objects.Request;
import io.appbackplane.internal.objects.Selection;
import io.appbackplane.internal.objects.WorkObject;
import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionStage;

/**
 * Decides what runs next and runs it (scheduling rules 2–8, 14, 15): the same code for worker threads
 * and for the step driver, so tests see the production decisions (a worker's {@link RunContext}
 * also keeps an object alone at its priority, starting its next turn in place, which the step
 * driver's does not; see there for why both run the same actions in the same order).
 *
 * <h2>Concurrency</h2>
 * Any number of workers call {@link #select()} and {@link #runTurnStep} concurrently; there is no
 * global lock. Selection scans priorities from the most urgent, charges the quota with a CAS before
 * polling (so a quota is never overdrawn and a polled entry never has to be put back), and takes
 * the object with its monitor; a stale entry refunds its charge. Once an object is taken (RUNNING),
 * its worker is the only thread that runs its actions until the object leaves RUNNING, which gives
 * per-object order and one action at a time.
 */
public final class Scheduler {

    private final DefaultBackplane backplane;
    private final BackplaneCounters counters;
    private final BackplaneClock clock;
    private final ReadyQueues ready;
    private final QuotaLedger quotas;
    private final CpuBudget cpu;
    private final RunnableWork work;
    private volatile int actionsPerTurn;
    private volatile long slowActionNanos;

    public Scheduler(DefaultBackplane backplane, ReadyQueues ready, QuotaLedger quotas, CpuBudget cpu,
            int actionsPerTurn, Duration slowActionThreshold) {
        this.backplane = backplane;
        this.counters = backplane.counters;
        this.clock = backplane.clock();
        this.ready = ready;
        this.quotas = quotas;
        this.cpu = cpu;
        this.work = new RunnableWork(ready, cpu, clock);
        this.actionsPerTurn = actionsPerTurn;
        this.slowActionNanos = slowActionThreshold.toNanos();
    }

    /**
     * Takes the next object to run: the head of the most urgent ready queue with quota left (rule
     * 3), replenishing all quotas by a virtual tick when every priority with work has spent its
     * quota (rule 6), unless the CPU budget is used up (rule 5; under {@code auto} the most urgent
     * priority is still taken then, {@link CpuBudget#exemptsMostUrgent()}).
     *
     * @return a taken entry (its object is now RUNNING and owned by the caller, its priority's quota
     *     charged), {@link NothingTaken#NOTHING_READY} or {@link NothingTaken#THROTTLED}
     */
    Selection select() {
        return select(cpu.isLimited() ? clock.nanoTime() : 0);
    }

    /**
     * {@link #select()} at a time the caller read a moment ago (a worker passes the end of the
     * action it just ran, saving a clock read per turn; the CPU budget changes per slice, not per
     * microsecond). Ignored without a CPU limit.
     */
    Selection select(long now) {
        int priorities = ready.priorities();
        int scanned = priorities; // the priorities this selection may take from
        if (cpu.isLimited()) {
            if (!cpu.mayStart(now)) {
                int depth = ready.totalDepth();
                if (depth == 0) {
                    return NothingTaken.NOTHING_READY;
                }
                int urgent = cpu.exemptsMostUrgent() ? ready.depth(0) : 0;
                if (depth > urgent) {
                    cpu.throttled(now); // less urgent work waits for budget
                }
                if (urgent == 0) {
                    return NothingTaken.THROTTLED;
                }
                scanned = 1; // rule 5 under auto: only the most urgent priority starts without budget
            } else if (cpu.isThrottled()) {
                cpu.resumed(now);
            }
        }
        while (true) {
            long generation = quotas.generation();
            boolean quotaSpent = false;
            for (int p = 0; p < scanned; p++) {
                // Depth, not the queue, counts work (as the park check does): a stale entry is
                // dead and purged when it reaches its queue's head (ReadyEntry), never taken.
                while (ready.depth(p) > 0) {
                    long charge = quotas.charge(p);
                    if (charge == QuotaLedger.NO_CHARGE) {
                        quotaSpent = true;
                        break;
                    }
                    ReadyEntry entry = ready.poll(p);
                    if (entry == null) {
                        // Counted in depth but not pushed yet (its submitter is between the two, and
                        // signals a worker when it has pushed): nothing to take here now.
                        quotas.refund(p, charge);
                        break;
                    }
                    WorkObject object = entry.object; // read once: null if the entry is dead
                    if (object != null && object.take(entry)) {
                        ready.purgeDeadHead(p); // the entry after it may be dead
                        return entry;
                    }
                    quotas.refund(p, charge); // a stale entry: try this priority again
                }
            }
            if (scanned < priorities) {
                // Budget spent and nothing taken at the most urgent priority. Its quota is spent:
                // it waits for budget too, as no virtual tick comes without budget (rule 6). Else
                // its object is counted but not pushed yet: the worker yields before it parks,
                // as for any object counted READY, until its submitter pushes it.
                if (quotaSpent) {
                    cpu.throttled(now);
                    return NothingTaken.THROTTLED;
                }
                return NothingTaken.NOTHING_READY;
            }
            if (!quotaSpent) {
                return NothingTaken.NOTHING_READY;
            }
            quotas.virtualTick(generation); // if another worker replenished first, just rescan
        }
    }

    /**
     * Runs one action of a taken object and decides what happens to the object next.
     *
     * @return {@link AfterAction#CONTINUE} if the same worker should run the object's next action
     *     (same turn), otherwise what {@link WorkObject#afterAction} said, already acted upon (a
     *     new entry pushed, a released object forgotten, an idle one listed for the idle sweep)
     */
    WorkObject.TurnEnd runTurnStep(RunContext context, WorkObject object) {
        ActionNode node = object.takePrefetched(); // taken with the object, or by the step that continued the turn
        if (node == null) {
            node = object.next();
        }
        Throwable escaped = null;
        if (node != null) {
            try {
                runAction(context, object, node);
            } catch (Throwable t) { // not the action's own failure (rule 15 catches that): a defect or a VM error
                escaped = t;
                context.turnBroken = true; // the object leaves RUNNING below; this turn goes no further
                failQuietly(node.request, t, context.completions);
            }
            context.turnActions++;
        } else {
            context.lastActionEnd = clock.nanoTime();
        }
        WorkObject.TurnEnd after = decideAfterAction(context, object);
        if (escaped != null) {
            throwUnchecked(escaped); // to the worker, which survives it or is replaced (WorkerPool)
        }
        return after;
    }

    /** Finishes a request whose action's bookkeeping failed, if nothing else did; never throws. */
    private static void failQuietly(Request request, Throwable failure, FutureCompletions later) {
        try {
            request.fail(failure, later);
        } catch (RuntimeException | Error ignored) {
            // the request's own completion failed too: the worker reports the first failure
        }
    }

    @SuppressWarnings("unchecked")
    private static <T extends Throwable> void throwUnchecked(Throwable t) throws T {
        throw (T) t;
    }

    /**
     * Decides again, at the start of the step driver's next step, whether a turn it was told to
     * continue may go on: in step mode the action boundary lasts until the next step, so work
     * submitted in between counts as waiting at that boundary (rule 7), as it would for a worker.
     *
     * @return as {@link #runTurnStep}: {@link AfterAction#CONTINUE} or the object's next state, acted upon
     */
    WorkObject.TurnEnd redecideTurn(RunContext context, WorkObject object) {
        quotas.refund(context.turnPriority, context.turnCharge); // the provisional CONTINUE's charge; charged again if it stands
        context.lastActionEnd = clock.nanoTime(); // the step's boundary is now, not when the action ended
        return decideAfterAction(context, object);
    }

    /** Asks the object what comes next and acts on it: push it if READY again; forget or list it if idle. */
    private WorkObject.TurnEnd decideAfterAction(RunContext context, WorkObject object) {
        WorkObject.TurnEnd after = object.afterAction(context);
        if (after instanceof ReadyEntry entry) {
            push(entry);
        } else if (after == AfterAction.RELEASE || after == AfterAction.LIST_IDLE) {
            // Only these two need the component (a continued turn, the common case, does not).
            object.component.settled(object, (AfterAction) after);
        }
        return after;
    }

    /**
     * Runs a whole turn on a taken entry (the worker's loop body), then completes the futures of the
     * requests it finished: the object has left RUNNING by then (READY again and pushed, WAITING,
     * IDLE or released), so a submitter's callback may block or wait for the same key without
     * holding the object.
     */
    void runTurn(RunContext context, ReadyEntry taken) {
        WorkObject object = taken.object;
        taken.forget(); // it may stay its queue's dummy: it must not keep the object reachable
        context.startTurn(taken.priority);
        try {
            while (runTurnStep(context, object) == AfterAction.CONTINUE) {
                // keep the object: rule 7's actions per turn
            }
        } finally {
            completeFutures(context); // also after an escaped error: runTurnStep let the object go first
        }
    }

    /**
     * Completes the futures of the requests the caller's turn (or step) finished, which runs the
     * dependants submitters attached to them on this thread. Timed like an action: the time is
     * charged to the CPU budget (rule 5 governs everything a worker burns) and counted in {@code
     * statistics().cpu().futureCallbackTime()}. No clock read when the turn finished no future
     * (fire-and-forget work, a turn that waits for a reply), and one otherwise: the window starts
     * where the turn's last action ended ({@code lastActionEnd}, read a moment ago), so it also
     * holds the few instructions that let the object go.
     */
    void completeFutures(RunContext context) {
        FutureCompletions completions = context.completions;
        if (completions.isEmpty()) {
            return;
        }
        long start = context.lastActionEnd;
        try {
            completions.completeAll();
        } finally {
            long end = clock.nanoTime();
            context.lastActionEnd = end;
            context.cpuMeter.actionRan(start, end);
            counters.futureCallbacksRan(end - start);
        }
    }

    /** Makes a READY object's entry visible to workers and wakes one if any is parked. */
    public void push(ReadyEntry entry) {
        ready.push(entry);
        if (entry.isDead()) {
            // Killed between its object's monitor and this push (its priority rose or its work was
            // cancelled): the killer's purge may have run before the push, so purge it here.
            ready.purgeDeadHead(entry.priority);
            return;
        }
        backplane.signalWork();
    }

    private void runAction(RunContext context, WorkObject object, ActionNode node) {
        Request request = node.request;
        context.begin(object, node);
        ActionTracer tracer = backplane.tracer;
        if (tracer != null) { // the queue wait ends here, also for a cancelled request (its trace ends below)
            context.userCodeRan(); // the tracer's, before the start: not the action's time
            node.trace = ObservedActions.starting(tracer, node.trace, object.component, node.priority);
        }
        if (request.future != null && request.future.isCancelled()) {
            context.end();
            context.lastActionEnd = clock.nanoTime();
            CancellationException cancelled = new CancellationException("the submitter cancelled the request before its action ran");
            if (tracer != null) {
                ObservedActions.ended(tracer, node.trace, cancelled);
            }
            request.fail(cancelled, context.completions);
            return;
        }
        long start = context.actionStart(node, clock);
        Object result = null;
        Throwable failure = null;
        try {
            result = node.action.run(context);
        } catch (Throwable t) { // rule 15: any failure belongs to the request, never to the worker
            failure = t;
        } finally {
            context.end();
        }
        if (tracer != null) {
            ObservedActions.ended(tracer, node.trace, failure);
        }
        long end = clock.nanoTime();
        context.actionEnded(end);
        start = Math.min(start, end); // a queueing time read on another thread by a clock not monotonic across threads
        long runTime = end - start;
        context.cpuMeter.actionRan(start, end);
        counters.actionRan(object.component, node, start - node.enqueuedAt, runTime);
        if (counters.hasObserver()) {
            context.userCodeRan(); // the observer's, after the end
        }
        if (runTime > slowActionNanos) {
            slowAction(object, node, runTime);
            context.userCodeRan(); // the slow-action listeners'
        }
        PendingReply reply = context.takeReply();
        ActionNode continuation = context.takeContinuation();
        CompletionStage<?> replyStage = context.takeReplyStage(); // a parked worker keeps no user stage reachable
        if (failure == null && result != null && (reply != null || continuation != null)) {
            failure = new IllegalStateException("an action that calls awaitReply or yieldTo must return that call's value"
                    + " (null), but the action on object '" + SafeText.of(object.key) + "' returned " + SafeText.of(result));
        }
        if (failure != null) {
            request.fail(failure, context.completions); // an awaited reply or continuation of a failed action is dropped
        } else if (reply != null) {
            if (object.startWaiting(reply)) {
                context.listen(reply, replyStage, end);
            } else {
                request.abandon(context.completions);
            }
        } else if (continuation != null) {
            if (!object.pushFront(continuation)) {
                request.abandon(context.completions);
            }
        } else {
            request.complete(result, context.completions); // completed after the turn: completeFutures
        }
        if (failure != null || reply != null) {
            context.userCodeRan(); // an unobserved-failure listener's, or the reply's listener's
        }
    }

    private void slowAction(WorkObject object, ActionNode node, long runTime) {
        object.component.counters.slowActions.increment();
        counters.priority(node.priority).slowActions.increment();
        ActionCounters endpoint = node.request.endpoint();
        if (endpoint != null) {
            endpoint.slowActions.increment();
        }
        backplane.listeners.slowAction(new BackplaneListener.SlowAction(backplane.name(), object.component.name(),
                object.key, node.priority, Duration.ofNanos(runTime), Duration.ofNanos(slowActionNanos)));
    }

    /** Whether an object is READY at a priority more urgent than {@code priority} (this backplane). */
    boolean readyAbove(int priority) {
        return ready.readyAbove(priority);
    }

    /** Whether no object is READY at {@code priority} (one that rejoined its tail would be its head). */
    boolean noneReadyAt(int priority) {
        return ready.depth(priority) == 0;
    }

    /**
     * Whether the CPU budget lets one more action at {@code priority} start at {@code now} (rule 5);
     * checked before each action of a turn, with the end of the action before it as {@code now}.
     */
    boolean cpuAllowsStart(long now, int priority) {
        return !cpu.isLimited() || (priority == 0 && cpu.exemptsMostUrgent()) || cpu.mayStart(now);
    }

    /** The backplane's CPU budget (tests set an {@code auto} limit with their own sources on it). */
    CpuBudget cpuBudget() {
        return cpu;
    }

    /** Charges one action to {@code priority}: its receipt, or {@link QuotaLedger#NO_CHARGE}. */
    long charge(int priority) {
        return quotas.charge(priority);
    }

    /** What a worker that found nothing, and the step driver, ask about READY objects and the CPU budget. */
    RunnableWork work() {
        return work;
    }

    int actionsPerTurn() {
        return actionsPerTurn;
    }

    void setActionsPerTurn(int actionsPerTurn) {
        this.actionsPerTurn = actionsPerTurn;
    }
}
