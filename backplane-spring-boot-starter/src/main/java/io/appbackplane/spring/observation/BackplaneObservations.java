package io.appbackplane.spring.observation;

import io.appbackplane.ActionTracer;
import io.appbackplane.Backplane;
import io.appbackplane.BackplaneComponent;
import io.appbackplane.spring.autoconfigure.BackplaneBuilderCustomizer;
import io.appbackplane.spring.observation.BackplaneActionContext.Stage;
import io.micrometer.common.KeyValues;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;

/**
 * {@code backplane.observations.enabled}: a Micrometer {@link Observation} for each action's queue
 * wait ({@value #QUEUE}) and one for its run ({@value #RUN}), so a trace shows both as spans.
 * Low-cardinality tags: {@code backplane}, {@code component}, {@code priority}. Names and tags come
 * from {@link BackplaneActionQueueObservationConvention} and {@link
 * BackplaneActionObservationConvention}: the conventions given here, else the defaults.
 *
 * <p>The queue observation starts on the submitting thread when the action is accepted, so its
 * parent is the caller's current observation (an HTTP request's, say); it stops when a worker
 * starts the action. The run observation then starts as its sibling (same parent), is in scope on
 * the worker while the action runs (observations the action makes become its children) and stops
 * when the action ends, with the action's failure as its error. Reply handlers and {@code yieldTo}
 * continuations are not submitted: they get a run observation only, whose parent is the
 * observation current when the action registered them — that action's run observation, so a
 * chain of replies stays in the request's trace, each step under the one before. An action that never runs (removed by {@code
 * cancelQueued}, or failed by shutdown before it ran) gets no run observation; its queue
 * observation stops with that failure as its error.
 */
public final class BackplaneObservations implements ActionTracer, BackplaneBuilderCustomizer {

    /** The observation of an action's wait in its queue. */
    public static final String QUEUE = "backplane.action.queue";
    /** The observation of an action's run. */
    public static final String RUN = "backplane.action.run";

    private static final BackplaneActionQueueObservationConvention DEFAULT_QUEUE =
            new DefaultBackplaneActionQueueObservationConvention();
    private static final BackplaneActionObservationConvention DEFAULT_RUN = new DefaultBackplaneActionObservationConvention();

    private final ObservationRegistry registry;
    private final BackplaneActionQueueObservationConvention queueConvention;
    private final BackplaneActionObservationConvention runConvention;

    /** With the default conventions (or the registry's global ones). */
    public BackplaneObservations(ObservationRegistry registry) {
        this(registry, null, null);
    }

    /**
     * @param queueConvention replaces the default convention of the queue-wait observations, or
     *     {@code null}
     * @param runConvention replaces the default convention of the run observations, or {@code null}
     */
    public BackplaneObservations(ObservationRegistry registry, BackplaneActionQueueObservationConvention queueConvention,
            BackplaneActionObservationConvention runConvention) {
        this.registry = registry;
        this.queueConvention = queueConvention;
        this.runConvention = runConvention;
    }

    @Override
    public void customize(String name, Backplane.Builder builder) {
        builder.actionTracer(this);
    }

    @Override
    public Object actionQueued(BackplaneComponent component, int priority) {
        Observation parent = registry.getCurrentObservation(); // the caller's, or null
        Observation queue = Observation.createNotStarted(queueConvention, DEFAULT_QUEUE,
                () -> context(Stage.QUEUE, component, priority), registry).parentObservation(parent).start();
        return new Queued(queue, parent);
    }

    /** A reply handler or continuation: remembers the observation of the action that registered it (its run's). */
    @Override
    public Object followUpRegistered(BackplaneComponent component, int priority) {
        Observation current = registry.getCurrentObservation();
        return current == null ? null : new FollowUp(current);
    }

    @Override
    public Object actionStarting(Object queued, BackplaneComponent component, int priority) {
        Observation run = Observation.createNotStarted(runConvention, DEFAULT_RUN,
                () -> context(Stage.RUN, component, priority), registry);
        if (queued instanceof Queued q) {
            q.queue.stop();
            run.parentObservation(q.parent); // a sibling of the queue wait, under the caller's observation
        } else if (queued instanceof FollowUp f) {
            run.parentObservation(f.registeredBy()); // after the step that awaited the reply or yielded
        }
        return run.start().openScope();
    }

    @Override
    public void actionEnded(Object running, Throwable failure) {
        if (running instanceof Observation.Scope scope) {
            Observation run = scope.getCurrentObservation();
            scope.close();
            if (failure != null) {
                run.error(failure);
            }
            run.stop();
        }
    }

    /** The action never ran (cancelled, or its backplane shut down): its queue observation ends with the reason as its error. */
    @Override
    public void actionDropped(Object queued, Throwable reason) {
        if (queued instanceof Queued q) {
            q.queue.error(reason);
            q.queue.stop();
        }
    }

    private static BackplaneActionContext context(Stage stage, BackplaneComponent component, int priority) {
        return new BackplaneActionContext(stage, component.backplane().name(), component.name(), priority);
    }

    /** The default conventions' low-cardinality tags: {@code backplane}, {@code component}, {@code priority}. */
    static KeyValues actionKeyValues(BackplaneActionContext context) {
        return KeyValues.of("backplane", context.backplane(), "component", context.component(),
                "priority", String.valueOf(context.priority()));
    }

    /** A follow-up's token: the observation current when it was registered. Holds nothing open. */
    private record FollowUp(Observation registeredBy) {}

    /** An action's queue-wait observation and the caller's observation it was made under (null: none). */
    private record Queued(Observation queue, Observation parent) {}
}
