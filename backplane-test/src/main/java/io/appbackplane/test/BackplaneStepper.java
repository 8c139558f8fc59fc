package io.appbackplane.test;

import io.appbackplane.Backplane;
import io.appbackplane.Stepper;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

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
    /** Set by the last runNext that found only throttled work: the soonest release among the backplanes. */
    private Optional<Duration> throttledFor = Optional.empty();

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
        Optional<Duration> soonest = Optional.empty();
        for (Stepper stepper : steppers) {
            Step step = stepper.runNext();
            if (step.ran()) {
                throttledFor = Optional.empty();
                return step;
            }
            if (step.kind() == Kind.THROTTLED) {
                Optional<Duration> release = stepper.throttledFor();
                if (soonest.isEmpty() || release.isPresent() && release.get().compareTo(soonest.get()) < 0) {
                    soonest = release.isPresent() ? release : Optional.of(Duration.ZERO);
                }
            }
        }
        throttledFor = soonest;
        return soonest.isPresent() ? Step.THROTTLED : Step.IDLE;
    }

    /** The soonest release of CPU budget among the backplanes that the last {@link #runNext()} found throttled. */
    @Override
    public Optional<Duration> throttledFor() {
        return throttledFor;
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
