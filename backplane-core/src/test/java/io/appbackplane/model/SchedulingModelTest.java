package io.appbackplane.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The reference model itself, on cases worked out by hand from docs/scheduling.md. */
class SchedulingModelTest {

    private static List<String> starts(Scenario scenario, int workers) {
        return SchedulingModel.trace(scenario, workers).stream()
                .map(e -> e.label() + "@" + e.atNanos() / 1_000_000).toList();
    }

    @Test
    void reproducesTheWorkedExampleOfTheSchedulingGuide() {
        Scenario.Builder b = Scenario.builder(3).quota(0, Scenario.UNLIMITED_QUOTA).quota(1, 2).quota(2, 1)
                .cpu(500, 1000, 5);
        for (int i = 1; i <= 3; i++) {
            b.submit(0, "A" + i, "A", 1, 50).submit(0, "B" + i, "B", 1, 50);
        }
        for (int i = 1; i <= 4; i++) {
            b.submit(0, "R" + i, "R", 2, 50);
        }
        b.submit(100, "U1", "U", 0, 50);
        assertThat(starts(b.build(), 1)).containsExactly(
                "A1@0", "B1@50", "U1@200", "R1@250", "A2@400", "B2@450", "R2@600", "A3@650", "B3@800", "R3@850",
                "R4@1000");
    }

    @Test
    void chargesEachPeriodOnlyTheRunningTimeInsideIt() {
        // The issue's example: 0.5 core, 1 s period, one slice; a1 runs 400..1000 ms, so the new
        // period has its whole budget and b1 starts at the tick.
        Scenario scenario = Scenario.builder(2).cpu(500, 1000, 1)
                .submit(400, "a1", "k0", 1, 600)
                .submit(400, "b1", "k1", 1, 10)
                .build();
        assertThat(starts(scenario, 1)).containsExactly("a1@400", "b1@1000");
    }

    @Test
    void deliversAReplyAtTheHeadOfItsObjectAndATimeoutAsItsOwnOutcome() {
        Scenario scenario = Scenario.builder(3)
                .submit(0, "w", "k0", 2, 1, new Scenario.Reply(5, Scenario.Reply.NO_TIMEOUT, 1))
                .submit(1, "later", "k0", 2, 1)
                .submit(1, "t", "k1", 1, 1, new Scenario.Reply(Scenario.Reply.NEVER, 3, 1))
                .build();
        assertThat(starts(scenario, 1)).containsExactly("w@0", "t@1", "t/timeout@5", "w/reply@6", "later@7");
    }

    @Test
    void runsDifferentObjectsOnDifferentWorkersAndOneObjectsActionsInOrder() {
        Scenario scenario = Scenario.builder(2)
                .submit(0, "a1", "k0", 1, 10).submit(0, "a2", "k0", 1, 10).submit(0, "b1", "k1", 1, 10)
                .build();
        assertThat(starts(scenario, 2)).containsExactly("a1@0", "b1@0", "a2@10");
    }
}
