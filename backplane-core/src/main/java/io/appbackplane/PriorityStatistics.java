package io.appbackplane;

/**
 * One priority's ready queue and quota.
 *
 * @param priority the priority (0 the most urgent)
 * @param quota actions per (virtual) period, {@link BackplanePolicy#UNLIMITED_QUOTA} for no limit
 * @param usedThisPeriod actions charged to the quota since the last (real or virtual) tick
 * @param readyDepth objects in the ready queue
 * @param counts requests submitted at this priority and actions run at it
 * @param queueWait the queue waits (queued to started) of the actions run at it, cumulative since
 *     the backplane started: subtract an earlier snapshot's for an interval's percentiles
 */
public record PriorityStatistics(
        int priority, int quota, int usedThisPeriod, int readyDepth, ActionCounts counts, LatencyHistogram queueWait) {

    /** Whether the quota is unlimited. */
    public boolean unlimited() {
        return quota == BackplanePolicy.UNLIMITED_QUOTA;
    }
}
