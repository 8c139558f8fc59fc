package io.appbackplane.internal.objects;

/** Why {@link Scheduler#select} took no object (see {@link Selection}). */
public enum NothingTaken implements Selection {
    /** No object is READY at a priority with quota left: the worker spins, then parks. */
    NOTHING_READY,
    /**
     * Objects are READY but the CPU budget is used up (rule 5): the worker parks until more budget
     * is released, the step driver reports THROTTLED.
     */
    THROTTLED
}
