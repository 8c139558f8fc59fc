package io.appbackplane.sample;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A process that ends at start-up is reported at once: the side-by-side runner and the cgroup test
 * wait minutes for a sample to start on a busy machine, and must not wait them out for one that
 * has already exited.
 */
class SampleProcessTest {

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS) // the wait below is 10 minutes: only its early end passes
    void waitingForALineFromAProcessThatEndedFailsAtOnceWithItsExitAndOutput() throws Exception {
        // A launcher that prints one line and exits 3 instead of running the jar.
        try (SampleProcess process = SampleProcess.start(List.of("sh", "-c", "echo starting up; exit 3", "sh"), List.of())) {
            assertThatThrownBy(() -> process.await("started on port (\\d+)", Duration.ofMinutes(10)))
                    .isInstanceOf(AssertionError.class)
                    .hasMessageContainingAll("it ended (exit 3) without one", "starting up");
        }
    }
}
