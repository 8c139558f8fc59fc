package io.appbackplane.internal.components;

import io.appbackplane.ComponentState;
import io.appbackplane.TimerHandle;
import io.appbackplane.TimerSpec;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A timer endpoint: a {@link ScheduledTimer} that exists only while its component is in one of the
 * timer's accepting states (docs/scheduling.md, modules and states). Started and stopped by the component's state changes,
 * which run on the component's own object, one at a time.
 */
final class TimerEndpoint implements TimerHandle {

    private final DefaultComponent component;
    private final TimerSpec spec;
    private final AtomicLong pastFirings = new AtomicLong();
    private final AtomicLong pastSkipped = new AtomicLong();
    private ScheduledTimer running; // guarded by this
    private boolean cancelled; // guarded by this

    TimerEndpoint(DefaultComponent component, TimerSpec spec) {
        this.component = component;
        this.spec = spec;
    }

    String name() {
        return spec.name();
    }

    /** Starts or stops the timer for the component's current state (read here, so never stale). */
    synchronized void stateChanged() {
        ComponentState state = component.state();
        boolean accepting = spec.acceptingStates().contains(state);
        if (accepting && running == null && !cancelled) {
            running = component.timers.startTimer(spec);
        } else if (!accepting && running != null) {
            stopRunning();
        }
    }

    @Override
    public synchronized void cancel() {
        cancelled = true;
        if (running != null) {
            stopRunning();
        }
    }

    private void stopRunning() {
        running.cancel();
        pastFirings.addAndGet(running.firings());
        pastSkipped.addAndGet(running.skippedFirings());
        running = null;
    }

    @Override
    public synchronized boolean isCancelled() {
        return cancelled;
    }

    /** Whether the timer is currently scheduled (its component is in an accepting state). */
    synchronized boolean isRunning() {
        return running != null && !running.isCancelled();
    }

    @Override
    public synchronized long firings() {
        return pastFirings.get() + (running == null ? 0 : running.firings());
    }

    @Override
    public synchronized long skippedFirings() {
        return pastSkipped.get() + (running == null ? 0 : running.skippedFirings());
    }

    @Override
    public String toString() {
        return "TimerEndpoint{" + component.name() + "/" + spec.name() + "}";
    }
}
