package io.appbackplane.internal;

import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.StressOptions;

/**
 * The scenario shape shared by the Lincheck tests: 2 threads of 3 operations, 2 before and 1 after,
 * {@code 10 × scale} scenarios; only the invocations per scenario differ per structure.
 *
 * <p>The default build runs a quick pass of every structure: {@link #QUICK_SCENARIOS} scenarios
 * ({@link #quick}), each explored as deeply as in the full run, so that the test command stays
 * short; each test class's {@code longRun} ({@code @Tag("stress")}, run by {@code ./mvnw -Pstress
 * verify}) runs {@code 10 × 10} scenarios and more threads. A test that shows a known bug is caught
 * ({@code _isCaught}) keeps its own budget: it ends at the first failing scenario.
 */
public final class LincheckScenarios {

    private LincheckScenarios() {}

    /** Scenarios of the default build's quick pass. */
    public static final int QUICK_SCENARIOS = 2;

    public static StressOptions stress(int scale, int invocationsPerScenario) {
        return new StressOptions()
                .iterations(10 * scale)
                .invocationsPerIteration(invocationsPerScenario)
                .threads(2)
                .actorsPerThread(3)
                .actorsBefore(2)
                .actorsAfter(1);
    }

    public static ModelCheckingOptions modelChecking(int scale, int invocationsPerScenario) {
        return new ModelCheckingOptions()
                .iterations(10 * scale)
                .invocationsPerIteration(invocationsPerScenario)
                .threads(2)
                .actorsPerThread(3)
                .actorsBefore(2)
                .actorsAfter(1);
    }

    /** {@code options} cut to the quick pass's {@link #QUICK_SCENARIOS} scenarios. */
    public static StressOptions quick(StressOptions options) {
        return options.iterations(QUICK_SCENARIOS);
    }

    /** {@code options} cut to the quick pass's {@link #QUICK_SCENARIOS} scenarios. */
    public static ModelCheckingOptions quick(ModelCheckingOptions options) {
        return options.iterations(QUICK_SCENARIOS);
    }

    /** {@link #modelChecking} with {@link #QUICK_SCENARIOS} scenarios. */
    public static ModelCheckingOptions quickModelChecking(int invocationsPerScenario) {
        return quick(modelChecking(1, invocationsPerScenario));
    }
}
