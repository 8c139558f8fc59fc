package io.appbackplane;

/**
 * The time source of a backplane: action timing, the CPU budget, the integration period, timers
 * and reply timeouts all read it. The {@linkplain #system() system clock} is the default; tests
 * use a {@link ManualClock} so time-based behaviour is deterministic.
 */
public interface BackplaneClock {

    /** A monotonic time in nanoseconds, with the meaning of {@link System#nanoTime()}. */
    long nanoTime();

    /** The system's monotonic clock. */
    static BackplaneClock system() {
        return SystemClock.INSTANCE;
    }

    /** The system clock as a singleton (a nested type keeps it off the public API). */
    enum SystemClock implements BackplaneClock {
        INSTANCE;

        @Override
        public long nanoTime() {
            return System.nanoTime();
        }
    }
}
