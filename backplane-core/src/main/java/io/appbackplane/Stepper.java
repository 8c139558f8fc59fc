package io.appbackplane;

/**
 * Runs the queued work of a backplane built in {@linkplain Backplane.Builder#stepMode() step mode}
 * one action at a time, on the calling thread, with the scheduling decisions the worker threads
 * would make (docs/scheduling.md, test support): the same actions in the same order. One shortcut is the workers' own: a
 * worker keeps an object that is alone at its priority and starts its next turn in place instead of
 * re-queuing it, while the step driver re-queues it, so that a test sees rule 7's queue states
 * between steps. Both run the same actions in the same order: {@code WorkerShortcutEquivalenceTest}
 * checks it on generated workloads in every build. The futures of a step's requests complete at the end
 * of the step, on the calling thread, after the object's next state was decided. Not thread-safe:
 * drive it from one test thread.
 */
public interface Stepper {

    /** Runs the next action the scheduler selects, if any, and says what happened. */
    Step runNext();

    /**
     * When the last {@link #runNext()} (or the last step of {@link #runUntilIdle()}) returned
     * {@link Step#THROTTLED}: how long from now, on the backplane's clock, until more CPU budget is
     * released (the next budget slice or the next real tick), so a test can advance a {@code
     * ManualClock} by exactly that. Empty after any other outcome.
     */
    java.util.Optional<java.time.Duration> throttledFor();

    /**
     * Runs actions until none can run (idle, throttled, or only waiting objects left).
     *
     * @return how many actions ran
     * @throws IllegalStateException if more than {@code 10_000_000} actions ran (a runaway loop)
     */
    int runUntilIdle();

    /** The outcome of one {@link #runNext()}. */
    record Step(Kind kind, String component, Object objectKey, int priority) {

        /** Nothing ran because nothing was ready. */
        public static final Step IDLE = new Step(Kind.IDLE, null, null, -1);

        /** Nothing ran because the CPU budget is used up until the next release or real tick. */
        public static final Step THROTTLED = new Step(Kind.THROTTLED, null, null, -1);

        /** Whether an action ran. */
        public boolean ran() {
            return kind == Kind.RAN;
        }
    }

    /** What a step did. */
    enum Kind {
        /** An action ran. */
        RAN,
        /** Nothing was ready to run. */
        IDLE,
        /** Work was ready but the CPU budget was used up. */
        THROTTLED
    }
}
