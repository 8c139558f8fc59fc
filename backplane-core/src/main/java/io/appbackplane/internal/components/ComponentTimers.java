package io.appbackplane.internal.components;

import io.appbackplane.Action;
import io.appbackplane.BackplaneComponent;
import io.appbackplane.TimerHandle;
import io.appbackplane.TimerSpec;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The timers of one component (scheduling rule 13): the {@link ScheduledTimer}s started by the
 * {@code schedule...} methods, and the timer endpoints of {@code timer(TimerSpec)}, which exist
 * only while the component is in one of their accepting states. A timer's firings are actions on
 * one of the component's objects, dispatched by the timer thread like any other request.
 *
 * <p>Invariants: timer endpoint names are unique within a component; a timer endpoint owns a
 * {@link ScheduledTimer} only while the component is in one of its accepting states (the transition
 * that changes the state calls {@link #stateChanged} on the component's own object, after the
 * switch). Every timer is registered with the backplane's {@link ShutdownSequence} ({@code
 * timerStarted}) before its first deadline is scheduled, so a timer started during shutdown is cancelled at once.
 *
 * <p>Thread-safe: any thread may start a timer; the endpoint table is a {@link ConcurrentHashMap}.
 */
final class ComponentTimers {

    private final DefaultComponent component;
    private final ComponentHost backplane;
    /** Where every timer is registered before it starts (it cancels the live ones when shutdown begins). */
    private final LiveTimers sequence;
    private final ConcurrentHashMap<String, TimerEndpoint> endpoints = new ConcurrentHashMap<>();

    ComponentTimers(DefaultComponent component, ComponentHost backplane) {
        this.component = component;
        this.backplane = backplane;
        this.sequence = backplane.liveTimers();
    }

    TimerHandle schedule(Object key, int priority, Duration delay, Action<?> action) {
        return start(key, priority, delay, action, ScheduledTimer.Mode.ONCE, Duration.ZERO);
    }

    TimerHandle scheduleAtFixedRate(Object key, int priority, Duration initialDelay, Duration period, Action<?> action) {
        return start(key, priority, initialDelay, action, ScheduledTimer.Mode.FIXED_RATE, checkPositive("period", period));
    }

    TimerHandle scheduleWithFixedDelay(Object key, int priority, Duration initialDelay, Duration delay, Action<?> action) {
        return start(key, priority, initialDelay, action, ScheduledTimer.Mode.FIXED_DELAY, checkPositive("delay", delay));
    }

    private TimerHandle start(Object key, int priority, Duration initialDelay, Action<?> action,
            ScheduledTimer.Mode mode, Duration period) {
        Objects.requireNonNull(key, "object key must not be null");
        Objects.requireNonNull(action, "action must not be null");
        Objects.requireNonNull(initialDelay, "initial delay must not be null");
        if (initialDelay.isNegative()) {
            throw new IllegalArgumentException("timer delay " + initialDelay + " is invalid; allowed: zero or positive");
        }
        backplane.policy().checkPriority(priority);
        ScheduledTimer timer = new ScheduledTimer(component, key, priority, action, mode, period.toNanos(), null);
        sequence.timerStarted(timer);
        timer.start(backplane.clock().nanoTime() + initialDelay.toNanos());
        return timer;
    }

    private static Duration checkPositive(String what, Duration d) {
        Objects.requireNonNull(d, what + " must not be null");
        if (d.isZero() || d.isNegative()) {
            throw new IllegalArgumentException("timer " + what + " " + d + " is invalid; allowed: a positive duration");
        }
        return d;
    }

    /** Registers a timer endpoint; it starts at once if the component is already in an accepting state. */
    TimerHandle timer(TimerSpec spec) {
        Objects.requireNonNull(spec, "timer spec must not be null");
        backplane.policy().checkPriority(spec.priority());
        TimerEndpoint timer = new TimerEndpoint(component, spec);
        if (endpoints.putIfAbsent(spec.name(), timer) != null) {
            throw new IllegalArgumentException("component '" + component.name() + "' already has a timer named '"
                    + spec.name() + "'; timer names must be unique within a component");
        }
        timer.stateChanged(); // starts at once if the component is already in an accepting state
        return timer;
    }

    /** Starts the scheduled timer behind a timer endpoint. */
    ScheduledTimer startTimer(TimerSpec spec) {
        Object key = spec.key() != null ? spec.key() : BackplaneComponent.COMPONENT_KEY;
        ScheduledTimer.Mode mode = switch (spec.kind()) {
            case ONCE -> ScheduledTimer.Mode.ONCE;
            case FIXED_RATE -> ScheduledTimer.Mode.FIXED_RATE;
            case FIXED_DELAY -> ScheduledTimer.Mode.FIXED_DELAY;
            case COMPUTED_DELAY -> ScheduledTimer.Mode.COMPUTED_DELAY;
        };
        ScheduledTimer timer = new ScheduledTimer(component, key, spec.priority(), spec.action(), mode,
                spec.period().toNanos(), spec.nextDelay());
        sequence.timerStarted(timer);
        Duration first = spec.kind() == TimerSpec.Kind.COMPUTED_DELAY ? spec.nextDelay().get() : spec.initialDelay();
        if (first == null) {
            timer.cancel();
        } else {
            timer.start(backplane.clock().nanoTime() + Math.max(0, first.toNanos()));
        }
        return timer;
    }

    /** The component's state changed: starts or stops each timer endpoint to match it. */
    void stateChanged() {
        for (TimerEndpoint timer : endpoints.values()) {
            timer.stateChanged();
        }
    }
}
