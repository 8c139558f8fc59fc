package io.appbackplane.internal.scheduling;

import io.appbackplane.ActionTracer;
import io.appbackplane.BackplaneClock;
import io.appbackplane.BackplaneComponent;
import io.appbackplane.BackplaneListener;
import io.appbackplane.internal.objects.ActionNode;
import io.appbackplane.internal.objects.ObservedActions;
import io.appbackplane.internal.objects.Request;
import io.appbackplane.internal.objects.WorkObject;
import java.time.Duration;
import java.util.concurrent.CancellationException;

/**
 * Runs one action of a taken object on the calling thread (rules 14, 15, 17): traces it, times it,
 * charges its time to the CPU meter, counts it, reports it when slow, and hands what it returned to
 * {@link ActionOutcome}. An action's failure belongs to its request, never to the worker. Called
 * only by the thread that holds the object (RUNNING); keeps no state between actions.
 */
final class ActionRunner {

    private final SchedulingHost backplane;
    private final ActionAccounting accounting;
    /** The backplane's action tracer, or null: one check per action when none. */
    private final ActionTracer tracer;
    private final BackplaneClock clock;
    private final long slowActionNanos;

    ActionRunner(SchedulingHost backplane, Duration slowActionThreshold) {
        this.backplane = backplane;
        this.accounting = backplane.accounting();
        this.tracer = backplane.tracer();
        this.clock = backplane.clock();
        this.slowActionNanos = slowActionThreshold.toNanos();
    }

    /** Runs {@code node}'s action of {@code object} with {@code context}; a cancelled request's action does not run. */
    void run(RunContext context, WorkObject object, ActionNode node) {
        Request request = node.request;
        BackplaneComponent component = object.component;
        context.begin(object, node);
        ActionTracer tracer = this.tracer;
        Object running = null; // the tracer's token for the running action: the node keeps only the queued one
        if (tracer != null) { // the queue wait ends here, also for a cancelled request (its trace ends below)
            context.userCodeRan(); // the tracer's, before the start: not the action's time
            running = ObservedActions.starting(tracer, node.trace(), component, node.priority());
        }
        if (request.future != null && request.future.isCancelled()) {
            context.end();
            context.lastActionEnd = clock.nanoTime();
            CancellationException cancelled = new CancellationException("the submitter cancelled the request before its action ran");
            if (tracer != null) {
                ObservedActions.ended(tracer, running, cancelled);
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
            ObservedActions.ended(tracer, running, failure);
        }
        long end = clock.nanoTime();
        context.actionEnded(end);
        start = Math.min(start, end); // a queueing time read on another thread by a clock not monotonic across threads
        long runTime = end - start;
        context.cpuMeter.actionRan(start, end);
        accounting.actionRan(object, node, start - node.enqueuedAt, runTime);
        if (accounting.hasObserver()) {
            context.userCodeRan(); // the observer's, after the end
        }
        if (runTime > slowActionNanos) {
            slowAction(object, component, node, runTime);
            context.userCodeRan(); // the slow-action listeners'
        }
        ActionOutcome.settle(context, object, request, result, failure, end);
    }

    private void slowAction(WorkObject object, BackplaneComponent component, ActionNode node, long runTime) {
        accounting.slowActionRan(object, node);
        backplane.slowAction(new BackplaneListener.SlowAction(backplane.name(), component.name(),
                object.key, node.priority(), Duration.ofNanos(runTime), Duration.ofNanos(slowActionNanos)));
    }
}
