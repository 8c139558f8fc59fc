package io.appbackplane;

/**
 * One component's load and counts.
 *
 * @param name the component's name
 * @param outstanding requests accepted and not finished
 * @param outstandingLimit the most it accepts at once
 * @param objects objects alive
 * @param waitingObjects objects on the wait queue
 * @param counts its requests and actions
 */
public record ComponentStatistics(
        String name, int outstanding, int outstandingLimit, int objects, int waitingObjects, ActionCounts counts) {}
