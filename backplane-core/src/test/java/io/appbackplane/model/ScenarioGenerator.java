package io.appbackplane.model;

import java.util.Random;

/**
 * Generates random {@link Scenario}s from a seed (the same seed, the same scenario): 2-8
 * priorities, explicit and default quotas, 1-8 objects, CPU limits with short periods so throttling
 * happens, action costs, replies with and without timeouts, arrivals while actions run, and
 * cancellations.
 *
 * <p>CPU limits are 250, 500 or 750 millicores with periods of whole milliseconds and 1, 2, 4, 5, 8
 * or 10 slices: every budget and slice is then a whole number of nanoseconds, so neither side
 * rounds (the {@link SchedulingModel}'s modelling choice 3).
 */
public final class ScenarioGenerator {

    private static final int[] SMALL_QUOTAS = {1, 1, 2, 3, 5, Scenario.UNLIMITED_QUOTA};
    private static final int[] MILLICORES = {250, 500, 750};
    private static final int[] PERIODS_MS = {5, 10, 20, 40, 80};
    private static final int[] SLICES = {1, 2, 4, 5, 8, 10};
    private static final int[] HORIZONS_MS = {0, 10, 40, 150, 400};

    private ScenarioGenerator() {}

    /** The scenario of {@code seed}. */
    public static Scenario generate(long seed) {
        Random random = new Random(seed);
        int priorities = 2 + random.nextInt(7);
        Scenario.Builder b = Scenario.builder(priorities);
        for (int p = 0; p < priorities; p++) {
            if (random.nextInt(3) != 0) {
                b.quota(p, SMALL_QUOTAS[random.nextInt(SMALL_QUOTAS.length)]);
            }
        }
        if (random.nextInt(5) < 3) {
            b.cpu(MILLICORES[random.nextInt(MILLICORES.length)], PERIODS_MS[random.nextInt(PERIODS_MS.length)],
                    SLICES[random.nextInt(SLICES.length)]);
        } else {
            b.period(random.nextBoolean() ? 1000 : PERIODS_MS[random.nextInt(PERIODS_MS.length)]);
        }
        b.actionsPerTurn(random.nextInt(5) < 3 ? 1 : 2 + random.nextInt(2));
        int objects = 1 + random.nextInt(8);
        int events = 1 + random.nextInt(30);
        int horizon = HORIZONS_MS[random.nextInt(HORIZONS_MS.length)];
        int submitted = 0;
        for (int i = 0; i < events; i++) {
            int at = horizon == 0 ? 0 : random.nextInt(horizon + 1);
            String key = "k" + random.nextInt(objects);
            if (random.nextInt(12) == 0) {
                b.cancel(at, key);
                continue;
            }
            int priority = random.nextInt(priorities);
            int cost = random.nextInt(6) == 0 ? 0 : 1 + random.nextInt(random.nextBoolean() ? 3 : 12);
            Scenario.Reply reply = null;
            if (random.nextInt(5) == 0) {
                int timeout = random.nextBoolean() ? Scenario.Reply.NO_TIMEOUT : 1 + random.nextInt(20);
                int arrives = timeout != Scenario.Reply.NO_TIMEOUT && random.nextInt(4) == 0
                        ? Scenario.Reply.NEVER : random.nextInt(25);
                reply = new Scenario.Reply(arrives, timeout, random.nextInt(4));
            }
            b.submit(at, "a" + (++submitted), key, priority, cost, reply);
        }
        return b.build();
    }
}
