package io.appbackplane.test;

import io.appbackplane.Backplane;
import io.appbackplane.Stepper;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * One {@link Stepper} over several step-mode backplanes (an application's, in a Spring test): each
 * step runs the next action of the first backplane, in the given order, that has one ready, chosen
 * by that backplane's own step driver — so what a test sees is what its workers would do. Not
 * thread-safe: drive it from the test's thread.
 */
public final class BackplaneStepper implements Stepper {

    /** {@link #runUntilIdle()} gives up after this many actions (a runaway loop). */
    static final int MAX_ACTIONS = 10_000_000;

    private final List<Stepper> steppers;

    /**
     * @throws IllegalStateException naming a backplane that runs its own worker threads
     */
    public BackplaneStepper(Collection<Backplane> backplanes) {
        List<Stepper> all = new ArrayList<>();
        for (Backplane backplane : backplanes) {
            all.add(backplane.stepper());
        }
        this.steppers = List.copyOf(all);
    }

    @Override
    public Step runNext() {
        boolean throttled = false;
        for (Stepper stepper : steppers) {
            Step step = stepper.runNext();
            if (step.ran()) {
                return step;
            }
            throttled |= step.kind() == Kind.THROTTLED;
        }
        return throttled ? Step.THROTTLED : Step.IDLE;
    }

    @Override
    public int runUntilIdle() {
        int ran = 0;
        while (runNext().ran()) {
            if (++ran > MAX_ACTIONS) {
                throw new IllegalStateException("more than " + MAX_ACTIONS + " actions ran without the backplanes becoming"
                        + " idle; an action that keeps submitting work is likely");
            }
        }
        return ran;
    }
}
