package io.appbackplane.internal.objects;

/**
 * Decides, for {@link WorkObject#afterAction}, whether the turn of the worker holding an object
 * goes on. Called under the object's monitor, by the thread holding the object (a worker's or the
 * step driver's {@link RunContext}).
 */
public interface TurnGate {

    /** Whether the turn may go on at the object's current (most urgent outstanding) priority. */
    boolean mayContinue(int effectivePriority);

    /**
     * Whether a continuing {@link WorkObject#afterAction} also takes the next action off the queue
     * for {@link WorkObject#takePrefetched}: a worker runs it at once; the step driver, whose next
     * step decides again first ({@code Scheduler.redecideTurn}), leaves it queued.
     */
    default boolean prefetchesNext() {
        return false;
    }
}
