package io.appbackplane.internal.components;

/**
 * The admission rule's arithmetic (scheduling rule 11) for one outstanding-operation limit, done once
 * rather than per request: how many outstanding requests each priority may fill, {@code limit −
 * ceil(limit × reserve × priority / (priorities − 1))}, at least 1. Priority 0 may fill the whole
 * limit; a reserve of 0 turns the rule off.
 *
 * <p>Immutable, so any thread may read it without a lock; a new limit makes a new one. Public only
 * for {@link io.appbackplane.BackplanePolicy}, which keeps the thresholds of the backplane's total
 * limit; not an API.
 */
public final class AdmissionThresholds {

    private final int limit;
    private final int[] byPriority;

    private AdmissionThresholds(int limit, int[] byPriority) {
        this.limit = limit;
        this.byPriority = byPriority;
    }

    /**
     * The thresholds of {@code limit} with {@code reserve} (in [0, 1), checked by the caller) for
     * priorities 0..{@code priorities} − 1.
     */
    public static AdmissionThresholds of(int limit, double reserve, int priorities) {
        int[] byPriority = new int[priorities];
        for (int p = 0; p < priorities; p++) {
            byPriority[p] = threshold(limit, reserve, p, priorities);
        }
        return new AdmissionThresholds(limit, byPriority);
    }

    /** The limit these are the thresholds of. */
    public int limit() {
        return limit;
    }

    /** How many outstanding requests {@code priority} (valid: checked by the caller) may fill. */
    public int of(int priority) {
        return byPriority[priority];
    }

    /**
     * One threshold, computed in millionths of the reserve so that the result is exact (no
     * floating-point ceiling of 500.0000001).
     */
    static int threshold(int limit, double reserve, int priority, int priorities) {
        if (priority <= 0 || priorities <= 1 || reserve <= 0) {
            return limit;
        }
        long millionths = Math.round(reserve * 1_000_000);
        long numerator = (long) limit * millionths * priority;
        long denominator = 1_000_000L * (priorities - 1);
        long kept = (numerator + denominator - 1) / denominator; // ceil: any reserve keeps at least one slot
        return (int) Math.max(1, limit - kept);
    }
}
