package io.appbackplane.internal.scheduling;

import io.appbackplane.BackplaneClock;
import io.appbackplane.internal.base.FutureCompletions;
import io.appbackplane.internal.objects.ActionNode;
import io.appbackplane.internal.objects.AfterAction;
import io.appbackplane.internal.objects.ReadyEntry;
import io.appbackplane.internal.objects.Request;
import io.appbackplane.internal.objects.Selection;
import io.appbackplane.internal.objects.WorkObject;
import java.time.Duration;

/**
 * Runs turns (scheduling rules 7, 8, 15): a taken object's actions one after the other while its
 * turn may go on, then what the object does next, acted upon; the same code for worker threads and
 * for the step driver, so tests see the production decisions (a worker's {@link RunContext} also
 * keeps an object alone at its priority, starting its next turn in place, which the step driver's
 * does not; see there for why both run the same actions in the same order). What runs next is the
 * {@link ReadySelector}'s choice, one action is the {@link ActionRunner}'s, whether a turn goes on
 * is asked of {@link TurnLimits}.
 *
 * <h2>Concurrency</h2>
 * Any number of workers call {@link #select()} and {@link #runTurnStep} concurrently; there is no
 * global lock. Once an object is taken (RUNNING), its worker is the only thread that runs its
 * actions until the object leaves RUNNING, which gives per-object order and one action at a time.
 */
public final class Scheduler {

    private final SchedulingHost backplane;
    private final BackplaneClock clock;
    private final ReadyQueues ready;
    private final ReadySelector selector;
    private final ActionRunner actions;
    private final TurnLimits limits;
    private final RunnableWork work;

    public Scheduler(SchedulingHost backplane, ReadyQueues ready, QuotaLedger quotas, CpuBudget cpu,
            int actionsPerTurn, Duration slowActionThreshold) {
        this.backplane = backplane;
        this.clock = backplane.clock();
        this.ready = ready;
        this.selector = new ReadySelector(clock, ready, quotas, cpu);
        this.actions = new ActionRunner(backplane, slowActionThreshold);
        this.limits = new TurnLimits(ready, quotas, cpu, actionsPerTurn);
        this.work = new RunnableWork(ready, cpu, clock);
    }

    /** {@link ReadySelector#select()}: the next object to run, or why there is none. */
    Selection select() {
        return selector.select();
    }

    /** {@link ReadySelector#select(long)}: as {@link #select()}, at a time the caller read a moment ago. */
    Selection select(long now) {
        return selector.select(now);
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
                actions.run(context, object, node);
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
        limits.refund(context.turnPriority, context.turnCharge); // the provisional CONTINUE's charge; charged again if it stands
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
        if (after != AfterAction.CONTINUE && !(after instanceof ReadyEntry)) {
            object.startPoolBacklog(); // idle or waiting: a pool member left its place, a backlogged request may start on a mate
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
            backplane.accounting().futureCallbacksRan(end - start);
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

    /** What a turn may go on under (rule 7): asked by {@link RunContext#mayContinue}. */
    TurnLimits limits() {
        return limits;
    }

    /** What a worker that found nothing, and the step driver, ask about READY objects and the CPU budget. */
    RunnableWork work() {
        return work;
    }
}
