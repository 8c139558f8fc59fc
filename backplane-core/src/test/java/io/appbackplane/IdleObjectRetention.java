package io.appbackplane;

import java.time.Duration;

/** Test help for rule 16's idle-object retention ({@link ComponentSpec#withIdleObjectRetention}). */
public final class IdleObjectRetention {

    /**
     * Long enough for every object idle now to be released, with the default retention: its idle
     * sweep marks it within one retention and releases it one retention later.
     */
    public static final Duration PASSED = ComponentSpec.DEFAULT_IDLE_OBJECT_RETENTION.multipliedBy(2);

    private IdleObjectRetention() {}

    /** Moves {@code clock} past the default retention twice: the idle objects of now are released on the way. */
    public static void pass(ManualClock clock) {
        clock.advance(PASSED);
    }
}
