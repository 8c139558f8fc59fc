package io.appbackplane.internal.scheduling;

import io.appbackplane.Backplane;
import io.appbackplane.BackplaneComponent;
import io.appbackplane.Stepper;
import io.appbackplane.internal.objects.AfterAction;
import io.appbackplane.internal.objects.NothingTaken;
import io.appbackplane.internal.objects.ReadyEntry;
import io.appbackplane.internal.objects.Selection;
import io.appbackplane.internal.objects.WorkObject;

/**
 * The {@link Stepper} of a step-mode backplane: one action per call, on the caller's thread, with
 * the scheduler's own decisions. A turn of several actions (actions per turn > 1) spans calls: the
 * driver keeps the object it holds between them, as a worker would.
 */
public final class StepDriver implements Stepper {

    private static final int RUNAWAY_LIMIT = 10_000_000;

    private final SchedulingHost backplane;
    private final Scheduler scheduler;
    private final RunContext context;
    private WorkObject current;
    private static final long NOT_THROTTLED = Long.MIN_VALUE;
    /** When the last step was THROTTLED: the clock time budget comes back; else {@link #NOT_THROTTLED}. */
    private long throttledUntil = NOT_THROTTLED;

    public StepDriver(SchedulingHost backplane) {
        this.backplane = backplane;
        this.scheduler = backplane.scheduler();
        this.context = new RunContext(backplane, false);
    }

    @Override
    public Step runNext() {
        Backplane previous = CurrentBackplane.get();
        CurrentBackplane.set(backplane);
        try {
            return step();
        } finally {
            CurrentBackplane.set(previous);
        }
    }

    /**
     * One step. A loop, not a recursion: a turn whose object had nothing left to run (its work was
     * cancelled between steps) ends and the driver selects again, as often as that happens.
     */
    private Step step() {
        throttledUntil = NOT_THROTTLED;
        while (true) {
            Step step = tryStep();
            if (step != null) {
                return step;
            }
        }
    }

    /** One attempt: a step, or null if the object taken had nothing to run (look again). */
    private Step tryStep() {
        WorkObject object = current;
        if (object != null && scheduler.redecideTurn(context, object) != AfterAction.CONTINUE) {
            object = current = null; // more urgent work arrived since the last step: end the turn
        }
        if (object == null) {
            Selection selected = scheduler.select();
            if (!(selected instanceof ReadyEntry entry)) {
                if (selected == NothingTaken.THROTTLED) {
                    throttledUntil = scheduler.work().nextBudgetRelease();
                    return Step.THROTTLED;
                }
                return Step.IDLE;
            }
            object = entry.object;
            entry.forget(); // it may stay its queue's dummy: it must not keep the object reachable
            context.startTurn(entry.priority);
        }
        int before = context.turnActions;
        WorkObject.TurnEnd after;
        current = null; // until runTurnStep says the turn continues (an escaped error has let the object go)
        try {
            after = scheduler.runTurnStep(context, object);
        } finally {
            // The step's futures, on this (the stepping) thread: after the object's next state is
            // decided, so it has left RUNNING unless its turn continues at the next step.
            scheduler.completeFutures(context);
        }
        current = after == AfterAction.CONTINUE ? object : null;
        if (context.turnActions == before) {
            return null; // the object's work was cancelled before it ran: look again
        }
        BackplaneComponent component = object.component;
        return new Step(Kind.RAN, component.name(), object.key, context.lastPriority());
    }

    @Override
    public java.util.Optional<java.time.Duration> throttledFor() {
        if (throttledUntil == NOT_THROTTLED) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of(java.time.Duration.ofNanos(Math.max(0, throttledUntil - backplane.clock().nanoTime())));
    }

    @Override
    public int runUntilIdle() {
        int ran = 0;
        while (runNext().ran()) {
            if (++ran > RUNAWAY_LIMIT) {
                throw new IllegalStateException("more than " + RUNAWAY_LIMIT + " actions ran without the backplane"
                        + " becoming idle: an action keeps queuing more work");
            }
        }
        return ran;
    }
}
