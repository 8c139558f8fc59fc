package io.appbackplane;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A clock that moves only when told to, for deterministic tests (docs/scheduling.md, test support). Timers of the
 * backplanes built on it — real ticks of the integration period, user timers, reply timeouts —
 * fire inside {@link #advance}, on the calling thread, in deadline order, each one seeing the clock
 * at its own deadline.
 *
 * <p>Thread-safe; {@code advance} calls are serialized.
 */
public final class ManualClock implements BackplaneClock {

    /**
     * Something whose timers this clock drives (a backplane registers one when built on this
     * clock). Implementations are called under the clock's lock.
     */
    public interface TimerSource {
        /** The earliest pending deadline, or {@link Long#MAX_VALUE} when none. */
        long nextDeadline();

        /** Fires every timer due at or before {@code now}. */
        void fireDue(long now);
    }

    private final List<TimerSource> sources = new CopyOnWriteArrayList<>();
    private volatile long now;

    /** A clock reading 0 ns. */
    public ManualClock() {
        this(0);
    }

    /** A clock reading {@code startNanos}. */
    public ManualClock(long startNanos) {
        this.now = startNanos;
    }

    @Override
    public long nanoTime() {
        return now;
    }

    /**
     * Moves the clock forward by {@code duration}, firing due timers on the way.
     *
     * @throws IllegalArgumentException if {@code duration} is negative
     */
    public void advance(Duration duration) {
        Objects.requireNonNull(duration, "duration must not be null");
        advanceNanos(duration.toNanos());
    }

    /** Moves the clock forward by {@code nanos} nanoseconds, firing due timers on the way. */
    public synchronized void advanceNanos(long nanos) {
        if (nanos < 0) {
            throw new IllegalArgumentException("cannot move a clock backwards: " + nanos + " ns; allowed: 0 or more");
        }
        long target = now + nanos;
        while (true) {
            TimerSource next = null;
            long deadline = Long.MAX_VALUE;
            for (TimerSource source : sources) {
                long d = source.nextDeadline();
                if (d < deadline) {
                    deadline = d;
                    next = source;
                }
            }
            if (next == null || deadline > target) {
                break;
            }
            if (deadline > now) {
                now = deadline;
            }
            next.fireDue(now);
        }
        now = target;
    }

    /** Registers a timer source; called by backplanes built on this clock. */
    public void register(TimerSource source) {
        sources.add(Objects.requireNonNull(source, "source must not be null"));
    }

    /** Unregisters a timer source (a closed backplane). */
    public void unregister(TimerSource source) {
        sources.remove(source);
    }

    @Override
    public String toString() {
        return "ManualClock{" + now + " ns}";
    }
}
