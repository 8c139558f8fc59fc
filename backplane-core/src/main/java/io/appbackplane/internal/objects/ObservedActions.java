package io.appbackplane.internal.objects;

import io.appbackplane.ActionObserver;
import io.appbackplane.ActionTracer;
import io.appbackplane.BackplaneComponent;
import java.util.List;
import java.util.function.Supplier;

/** Composes a backplane's {@link ActionObserver}s and keeps their failures out of the worker. */
public final class ObservedActions {

    private static final System.Logger LOG = System.getLogger(ObservedActions.class.getName());

    private ObservedActions() {}

    /** One observer calling all of {@code observers} in order; null when there are none. */
    public static ActionObserver compose(List<ActionObserver> observers) {
        if (observers.isEmpty()) {
            return null;
        }
        if (observers.size() == 1) {
            return observers.get(0);
        }
        ActionObserver[] all = observers.toArray(ActionObserver[]::new);
        return (component, priority, queueNanos, runNanos) -> {
            for (ActionObserver each : all) {
                tell(each, component, priority, queueNanos, runNanos);
            }
        };
    }

    /** Calls {@code observer}; what it throws is logged, never passed on (as for listeners: not even an Error reaches the worker). */
    public static void tell(ActionObserver observer, BackplaneComponent component, int priority, long queueNanos, long runNanos) {
        try {
            observer.actionRan(component, priority, queueNanos, runNanos);
        } catch (RuntimeException | Error e) {
            LOG.log(System.Logger.Level.WARNING, "backplane action observer failed", e);
        }
    }

    /** {@link ActionTracer#actionQueued}, its failures logged: null then. */
    public static Object queued(ActionTracer tracer, BackplaneComponent component, int priority) {
        try {
            return tracer.actionQueued(component, priority);
        } catch (RuntimeException | Error e) {
            LOG.log(System.Logger.Level.WARNING, "backplane action tracer failed", e);
            return null;
        }
    }

    /** {@link ActionTracer#followUpRegistered}, its failures logged: null then. */
    public static Object followUp(ActionTracer tracer, BackplaneComponent component, int priority) {
        try {
            return tracer.followUpRegistered(component, priority);
        } catch (RuntimeException | Error e) {
            LOG.log(System.Logger.Level.WARNING, "backplane action tracer failed", e);
            return null;
        }
    }

    /** {@link ActionTracer#actionStarting}, its failures logged: null then. */
    public static Object starting(ActionTracer tracer, Object queued, BackplaneComponent component, int priority) {
        try {
            return tracer.actionStarting(queued, component, priority);
        } catch (RuntimeException | Error e) {
            LOG.log(System.Logger.Level.WARNING, "backplane action tracer failed", e);
            return null;
        }
    }

    /** {@link ActionTracer#actionEnded}, its failures logged. */
    public static void ended(ActionTracer tracer, Object running, Throwable failure) {
        try {
            tracer.actionEnded(running, failure);
        } catch (RuntimeException | Error e) {
            LOG.log(System.Logger.Level.WARNING, "backplane action tracer failed", e);
        }
    }

    /** {@link ActionTracer#actionDropped} for each node's queue trace, its failures logged. */
    public static void dropped(ActionTracer tracer, List<ActionNode> nodes, Supplier<Throwable> reason) {
        Throwable why = null;
        for (ActionNode node : nodes) {
            if (node.trace() == null) {
                continue;
            }
            if (why == null) {
                why = reason.get();
            }
            try {
                tracer.actionDropped(node.trace(), why);
            } catch (RuntimeException | Error e) {
                LOG.log(System.Logger.Level.WARNING, "backplane action tracer failed", e);
            }
            node.setTrace(null);
        }
    }
}
