package io.appbackplane.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The scheduler in step mode against the {@link SchedulingModel}: thousands of generated
 * {@link Scenario}s per run, each run on both, and the traces (which action starts when, on which
 * object, at which priority) must be equal. A failure prints the seed, the shrunk scenario as
 * builder code (paste it into {@link ModelCounterexamplesTest}) and both traces.
 *
 * <p>Seeds: a random base seed per run (printed on failure); {@code -Dbackplane.model.seed=N} runs
 * from a given one. The default build runs {@value #TRIES} scenarios; {@code ./mvnw -Pstress} runs
 * {@value #STRESS_TRIES}.
 */
class ModelBasedSchedulingPropertyTest {

    static final int TRIES = 3_000;
    static final int STRESS_TRIES = 100_000;

    @Test
    void stepModeSchedulerProducesTheModelsTrace() {
        check(TRIES);
    }

    @Test
    @Tag("stress")
    void stepModeSchedulerProducesTheModelsTrace_manyTries() {
        check(STRESS_TRIES);
    }

    private static void check(int tries) {
        long base = Long.getLong("backplane.model.seed", ThreadLocalRandom.current().nextLong());
        Map<SchedulingModel.Situation, Integer> reached = new EnumMap<>(SchedulingModel.Situation.class);
        int compared = 0;
        for (int i = 0; i < tries; i++) {
            long seed = base + i;
            Scenario scenario = ScenarioGenerator.generate(seed);
            SchedulingModel.Result model = SchedulingModel.run(scenario, 1);
            model.met().forEach(s -> reached.merge(s, 1, Integer::sum));
            compared++;
            if (!StepModeRun.trace(scenario).equals(model.trace())) {
                Scenario shrunk = ScenarioShrinker.shrink(scenario, ModelBasedSchedulingPropertyTest::differs);
                throw new AssertionError(report(seed, shrunk));
            }
        }
        // The generator must keep reaching every situation the rules describe, or the comparison proves little.
        System.out.printf("%d scenarios compared; how many reached each situation: %s%n", compared, reached);
        for (SchedulingModel.Situation situation : SchedulingModel.Situation.values()) {
            assertThat(reached.getOrDefault(situation, 0)).as("scenarios (of %d compared) that reached %s; reached: %s",
                    compared, situation, reached).isGreaterThanOrEqualTo(compared / 20);
        }
    }

    static boolean differs(Scenario scenario) {
        return !StepModeRun.trace(scenario).equals(SchedulingModel.trace(scenario, 1));
    }

    static String report(long seed, Scenario shrunk) {
        List<TraceEntry> scheduler = StepModeRun.trace(shrunk);
        List<TraceEntry> model = SchedulingModel.trace(shrunk, 1);
        StringBuilder sb = new StringBuilder("the scheduler (step mode) and the model disagree; seed ")
                .append(seed).append(" (rerun: -Dbackplane.model.seed=").append(seed).append("), shrunk to:\n")
                .append(shrunk).append("\n  model:\n");
        model.forEach(e -> sb.append("    ").append(e).append('\n'));
        sb.append("  scheduler:\n");
        scheduler.forEach(e -> sb.append("    ").append(e).append('\n'));
        return sb.toString();
    }

    /** Checks one scenario (for named regression tests): the scheduler's trace is the model's. */
    static void assertSameTrace(Scenario scenario) {
        assertThat(StepModeRun.trace(scenario)).as("scheduler trace of\n%s", scenario)
                .containsExactlyElementsOf(SchedulingModel.trace(scenario, 1));
    }
}
