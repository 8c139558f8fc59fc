package io.appbackplane;

import java.time.Duration;

/**
 * Counts and times of requests and actions, for one priority, component or backplane.
 *
 * <p>A <em>request</em> is one submission; it finishes once, as completed or failed, after all the
 * actions it took (the first one, a reply handler, continuations). {@code submitted = rejected +
 * completed + failed + outstanding}. Queue and run times are per action.
 *
 * @param submitted requests offered (accepted or rejected)
 * @param rejected requests rejected at submission (limit reached, closed)
 * @param completed requests finished with a result
 * @param failed requests finished with a failure (thrown, timed out, cancelled, shut down)
 * @param actionsRun actions run, including reply handlers and continuations
 * @param slowActions actions that ran longer than the slow-action threshold
 * @param totalQueueTime sum over actions of the time from queued to started
 * @param maxQueueTime the longest such time
 * @param totalRunTime sum over actions of their running time
 * @param maxRunTime the longest running time
 */
public record ActionCounts(
        long submitted,
        long rejected,
        long completed,
        long failed,
        long actionsRun,
        long slowActions,
        Duration totalQueueTime,
        Duration maxQueueTime,
        Duration totalRunTime,
        Duration maxRunTime) {

    /** Requests accepted and not yet finished. */
    public long outstanding() {
        return submitted - rejected - completed - failed;
    }

    /** Mean time an action waited to start, or zero when none ran. */
    public Duration meanQueueTime() {
        return actionsRun == 0 ? Duration.ZERO : totalQueueTime.dividedBy(actionsRun);
    }

    /** Mean running time of an action, or zero when none ran. */
    public Duration meanRunTime() {
        return actionsRun == 0 ? Duration.ZERO : totalRunTime.dividedBy(actionsRun);
    }
}
