package io.appbackplane;

import java.time.Duration;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;
import java.util.function.Supplier;

/**
 * A timer endpoint (scheduling rule 13 and docs/scheduling.md's modules and states): an action queued on a schedule — once, at a fixed
 * rate, with a fixed delay, or after a delay computed each time (a cron expression, say) — to one
 * object of a component, only while the component is in one of the timer's accepting states
 * (default PRIMARY). Register it with {@link BackplaneComponent#timer}. Immutable.
 */
public final class TimerSpec {

    /** How the firings are spaced. */
    public enum Kind {
        /** Once, after a delay. */
        ONCE,
        /** Every period from the first firing; a firing due while the previous one is unfinished is skipped. */
        FIXED_RATE,
        /** A delay after each firing finishes. */
        FIXED_DELAY,
        /** After each firing finishes, the delay its supplier gives then. */
        COMPUTED_DELAY
    }

    private final String name;
    private final Kind kind;
    private final Duration initialDelay;
    private final Duration period;
    private final Supplier<Duration> nextDelay;
    private final Action<?> action;
    private final Object key;
    private final int priority;
    private final Set<ComponentState> acceptingStates;

    private TimerSpec(String name, Kind kind, Duration initialDelay, Duration period, Supplier<Duration> nextDelay,
            Action<?> action, Object key, int priority, Set<ComponentState> acceptingStates) {
        this.name = name;
        this.kind = kind;
        this.initialDelay = initialDelay;
        this.period = period;
        this.nextDelay = nextDelay;
        this.action = action;
        this.key = key;
        this.priority = priority;
        this.acceptingStates = acceptingStates;
    }

    /** Fires once, {@code delay} after the component enters an accepting state. */
    public static TimerSpec once(String name, Duration delay, Action<?> action) {
        return create(name, Kind.ONCE, nonNegative("delay", delay), Duration.ZERO, null, action);
    }

    /** Fires every {@code period}, first after {@code initialDelay}. */
    public static TimerSpec fixedRate(String name, Duration initialDelay, Duration period, Action<?> action) {
        return create(name, Kind.FIXED_RATE, nonNegative("initial delay", initialDelay), positive("period", period), null, action);
    }

    /** Fires first after {@code initialDelay}, then {@code delay} after each firing finishes. */
    public static TimerSpec fixedDelay(String name, Duration initialDelay, Duration delay, Action<?> action) {
        return create(name, Kind.FIXED_DELAY, nonNegative("initial delay", initialDelay), positive("delay", delay), null, action);
    }

    /**
     * Fires after {@code nextDelay.get()}, and again after each firing finishes; the supplier is
     * asked each time — when the timer starts (in the state transition) and then on the worker that
     * finished the firing — and must return a non-negative duration, or null to stop the timer.
     */
    public static TimerSpec computedDelay(String name, Supplier<Duration> nextDelay, Action<?> action) {
        Objects.requireNonNull(nextDelay, "nextDelay must not be null");
        return create(name, Kind.COMPUTED_DELAY, Duration.ZERO, Duration.ZERO, nextDelay, action);
    }

    private static TimerSpec create(String name, Kind kind, Duration initialDelay, Duration period,
            Supplier<Duration> nextDelay, Action<?> action) {
        Objects.requireNonNull(name, "timer name must not be null");
        if (name.isBlank()) {
            throw new IllegalArgumentException("timer name is blank; allowed: a non-blank name");
        }
        Objects.requireNonNull(action, "timer action must not be null");
        return new TimerSpec(name, kind, initialDelay, period, nextDelay, action, null, 1, EnumSet.of(ComponentState.PRIMARY));
    }

    /** Queues the firings to the object for {@code key} (default: the component's own object). */
    public TimerSpec onObject(Object key) {
        Objects.requireNonNull(key, "object key must not be null");
        return new TimerSpec(name, kind, initialDelay, period, nextDelay, action, key, priority, acceptingStates);
    }

    /** The firings' priority (default 1; checked against the policy when registered). */
    public TimerSpec withPriority(int priority) {
        if (priority < 0) {
            throw new IllegalArgumentException("priority " + priority + " of timer '" + name + "' is invalid; allowed: 0 or more");
        }
        return new TimerSpec(name, kind, initialDelay, period, nextDelay, action, key, priority, acceptingStates);
    }

    /** The component states in which the timer runs (at least one). */
    public TimerSpec acceptingIn(ComponentState first, ComponentState... more) {
        Objects.requireNonNull(first, "state must not be null");
        return new TimerSpec(name, kind, initialDelay, period, nextDelay, action, key, priority, EnumSet.of(first, more));
    }

    public String name() {
        return name;
    }

    public Kind kind() {
        return kind;
    }

    public Duration initialDelay() {
        return initialDelay;
    }

    /** The period (fixed rate) or delay (fixed delay); zero otherwise. */
    public Duration period() {
        return period;
    }

    public Supplier<Duration> nextDelay() {
        return nextDelay;
    }

    public Action<?> action() {
        return action;
    }

    /** The object's key, or null for the component's own object. */
    public Object key() {
        return key;
    }

    public int priority() {
        return priority;
    }

    public Set<ComponentState> acceptingStates() {
        return EnumSet.copyOf(acceptingStates);
    }

    private static Duration nonNegative(String what, Duration d) {
        Objects.requireNonNull(d, what + " must not be null");
        if (d.isNegative()) {
            throw new IllegalArgumentException("timer " + what + " " + d + " is invalid; allowed: zero or positive");
        }
        return d;
    }

    private static Duration positive(String what, Duration d) {
        Objects.requireNonNull(d, what + " must not be null");
        if (d.isZero() || d.isNegative()) {
            throw new IllegalArgumentException("timer " + what + " " + d + " is invalid; allowed: a positive duration");
        }
        return d;
    }

    @Override
    public String toString() {
        return "TimerSpec{" + name + ", " + kind + ", accepting " + acceptingStates + "}";
    }
}
