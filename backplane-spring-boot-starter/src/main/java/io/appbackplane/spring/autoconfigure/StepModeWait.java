package io.appbackplane.spring.autoconfigure;

import io.appbackplane.Backplane;
import io.appbackplane.Stepper;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Waits for a move (or a shutdown) of backplanes, some of which may be in step mode. A step-mode
 * backplane has no worker threads: its state transitions run only when someone steps it, so the
 * waiting thread runs their queued work itself (docs/scheduling.md, test support) — start-up in a test context then
 * finishes at once instead of waiting for {@code backplane.startup-timeout}. What then still waits
 * (a reply from another thread, a timer on a manual clock the test has not advanced) is waited for
 * until the deadline, stepping again whenever the wait is woken.
 */
final class StepModeWait {

    /** How long one wait lasts between two rounds of stepping while nothing can run. */
    private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

    private StepModeWait() {}

    /** The steppers of the step-mode backplanes among {@code backplanes}. */
    static List<Stepper> steppersOf(Collection<Backplane> backplanes) {
        List<Stepper> steppers = new ArrayList<>();
        for (Backplane backplane : backplanes) {
            if (!backplane.isShutdown()) {
                try {
                    steppers.add(backplane.stepper());
                } catch (IllegalStateException runsItsOwnWorkers) {
                    // not in step mode: its workers move it
                }
            }
        }
        return steppers;
    }

    /** The backplane's stepper, or {@code null} when it runs its own workers. */
    static Stepper stepperOf(Backplane backplane) {
        List<Stepper> steppers = steppersOf(List.of(backplane));
        return steppers.isEmpty() ? null : steppers.get(0);
    }

    /**
     * Waits as long as it takes for {@code future} (a blocking endpoint call: the caller would wait
     * as long without step mode), running {@code stepper}'s queued work on this thread meanwhile.
     */
    static <T> T awaitStepping(CompletableFuture<T> future, Stepper stepper) throws ExecutionException, InterruptedException {
        while (!future.isDone()) {
            if (stepper.runUntilIdle() == 0) {
                try {
                    return future.get(POLL_NANOS, TimeUnit.NANOSECONDS);
                } catch (TimeoutException stillWaiting) {
                    // a reply from another thread or a timer the test has not reached: step again
                }
            }
        }
        return future.get();
    }

    /**
     * Waits up to {@code timeoutNanos} for {@code future}, running the steppers' queued work on this
     * thread meanwhile.
     */
    static <T> T await(CompletableFuture<T> future, long timeoutNanos, List<Stepper> steppers)
            throws ExecutionException, TimeoutException, InterruptedException {
        if (steppers.isEmpty()) {
            return future.get(timeoutNanos, TimeUnit.NANOSECONDS);
        }
        long deadline = System.nanoTime() + timeoutNanos;
        while (!future.isDone()) {
            int ran = 0;
            for (Stepper stepper : steppers) {
                ran += stepper.runUntilIdle();
            }
            if (ran == 0 && !future.isDone()) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new TimeoutException();
                }
                try {
                    return future.get(Math.min(left, POLL_NANOS), TimeUnit.NANOSECONDS);
                } catch (TimeoutException stillWaiting) {
                    // something outside the steppers may have queued work meanwhile: step again
                }
            }
        }
        return future.get();
    }
}
