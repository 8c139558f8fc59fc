package io.appbackplane.internal;

import io.appbackplane.Backplane;
import io.appbackplane.BackplaneComponent;
import io.appbackplane.BackplaneListener;
import io.appbackplane.internal.base.SafeText;
import java.util.List;

/**
 * Reports a backplane's events to its {@link BackplaneListener}s: logs each one (WARNING), then
 * tells every listener, in the order they were added, on the thread where the event happened (a
 * worker, the step driver, a thread that finished a request).
 *
 * <p>Invariant: a listener's failure (a {@link RuntimeException}, even an {@link Error}) is logged
 * and never reaches that thread, nor keeps the listeners after it from being told.
 */
public final class ListenerFanOut {

    private static final System.Logger LOG = System.getLogger(Backplane.class.getName());

    private final String backplaneName;
    private final List<BackplaneListener> listeners;

    ListenerFanOut(String backplaneName, List<BackplaneListener> listeners) {
        this.backplaneName = backplaneName;
        this.listeners = listeners;
    }

    public void slowAction(BackplaneListener.SlowAction slow) {
        LOG.log(System.Logger.Level.WARNING, "slow action: backplane ''{0}'', component ''{1}'', object ''{2}'',"
                + " priority {3} ran {4} ms (threshold {5} ms)", slow.backplane(), slow.component(), SafeText.of(slow.objectKey()),
                slow.priority(), slow.runTime().toMillis(), slow.threshold().toMillis());
        for (BackplaneListener listener : listeners) {
            try {
                listener.onSlowAction(slow);
            } catch (RuntimeException | Error e) { // a listener's failure never gets into the worker (not even an Error)
                LOG.log(System.Logger.Level.WARNING, "backplane listener failed", e);
            }
        }
    }

    public void unobservedFailure(BackplaneComponent component, Object key, Throwable failure) {
        LOG.log(System.Logger.Level.WARNING, "action on object '" + SafeText.of(key) + "' of component '" + component.name()
                + "' in backplane '" + backplaneName + "' failed and nobody awaited its result", failure);
        for (BackplaneListener listener : listeners) {
            try {
                listener.onUnobservedFailure(component.name(), key, failure);
            } catch (RuntimeException | Error e) { // a listener's failure never gets into the worker (not even an Error)
                LOG.log(System.Logger.Level.WARNING, "backplane listener failed", e);
            }
        }
    }
}
