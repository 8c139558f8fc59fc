package io.appbackplane.internal.components;

/**
 * The live timers of a backplane: every {@link ScheduledTimer} registers before it starts and
 * leaves when it ends, so that shutdown can cancel those still live when it begins. Thread-safe.
 */
public interface LiveTimers {

    /** Registers a timer about to start; if shutdown has already begun, cancels it at once. */
    void timerStarted(ScheduledTimer timer);

    /** The timer is over (fired once, schedule exhausted, cancelled): forget it. */
    void timerCancelled(ScheduledTimer timer);
}
