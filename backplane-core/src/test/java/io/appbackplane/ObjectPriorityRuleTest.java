package io.appbackplane;

import static org.assertj.core.api.Assertions.assertThat;

import io.appbackplane.Stepper.Kind;
import io.appbackplane.Stepper.Step;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Rule 7 in step mode: an object is queued at the priority of its most urgent outstanding action,
 * runs its actions in FIFO order, rejoins the tail of its ready queue (round robin), may keep a
 * worker for several actions per turn but never past a boundary at which more urgent work waits,
 * and is charged to the quota of the ready queue it was taken from.
 */
class ObjectPriorityRuleTest {

    private final ManualClock clock = new ManualClock();
    private final List<String> ran = new ArrayList<>();
    private Backplane backplane;

    @AfterEach
    void close() {
        if (backplane != null) {
            backplane.close();
        }
    }

    private BackplaneComponent start(BackplanePolicy policy) {
        backplane = Backplane.builder("test").policy(policy).clock(clock).stepMode().build();
        return backplane.install(ComponentSpec.named("app"));
    }

    private void submit(BackplaneComponent app, String label, int priority) {
        String key = label.substring(0, 1);
        app.submit(key, priority, ctx -> ran.add(label));
    }

    private List<Integer> readyDepths() {
        return backplane.statistics().priorities().stream().map(PriorityStatistics::readyDepth).toList();
    }

    private List<Integer> quotaUse() {
        return backplane.statistics().priorities().stream().map(PriorityStatistics::usedThisPeriod).toList();
    }

    private List<Long> actionsRunPerPriority() {
        return backplane.statistics().priorities().stream().map(p -> p.counts().actionsRun()).toList();
    }

    @Test
    void rule7_anObjectGainingAMoreUrgentActionMovesToThatReadyQueueButRunsItsActionsInFifoOrder() {
        BackplaneComponent app = start(BackplanePolicy.builder().priorities(3).build());
        submit(app, "A1", 2);
        submit(app, "A2", 2);
        submit(app, "B1", 2);
        submit(app, "C1", 2);
        assertThat(readyDepths()).containsExactly(0, 0, 3);

        submit(app, "A3", 1); // A now has priority-1 work: it leaves queue 2 for the tail of queue 1
        assertThat(readyDepths()).containsExactly(0, 1, 2);
        assertThat(backplane.statistics().readyObjects()).isEqualTo(3);
        submit(app, "A4", 2); // less urgent than A's current priority: A stays in queue 1
        assertThat(readyDepths()).containsExactly(0, 1, 2);

        // A is served before B and C, which were ready at priority 2 first; its older actions still
        // run first. Each step reports the priority of the action it ran.
        assertThat(backplane.stepper().runNext()).isEqualTo(new Step(Kind.RAN, "app", "A", 2));
        assertThat(readyDepths()).containsExactly(0, 1, 2); // A rejoined queue 1: A3 is still queued
        assertThat(backplane.stepper().runNext()).isEqualTo(new Step(Kind.RAN, "app", "A", 2));
        assertThat(backplane.stepper().runNext()).isEqualTo(new Step(Kind.RAN, "app", "A", 1));
        assertThat(readyDepths()).containsExactly(0, 0, 3); // back to priority 2, at the tail (after B, C)
        assertThat(backplane.stepper().runUntilIdle()).isEqualTo(3);

        assertThat(ran).containsExactly("A1", "A2", "A3", "B1", "C1", "A4");
        // Quota: A1..A3 were taken from queue 1, the rest from queue 2; counts go by the action's priority.
        assertThat(quotaUse()).containsExactly(0, 3, 3);
        assertThat(actionsRunPerPriority()).containsExactly(0L, 1L, 5L);
        assertThat(readyDepths()).containsExactly(0, 0, 0);
        assertThat(backplane.statistics().virtualTicks()).isZero();
    }

    @Test
    void rule7_aQuotaIsChargedToTheReadyQueueTheObjectWasTakenFrom() {
        BackplaneComponent app = start(
                BackplanePolicy.builder().priorities(3).quotas(BackplanePolicy.UNLIMITED_QUOTA, 5, 5).build());
        submit(app, "A1", 2);
        submit(app, "A2", 2);
        submit(app, "A3", 1);
        backplane.stepper().runNext(); // A1, a priority-2 action, taken from queue 1
        assertThat(quotaUse()).containsExactly(0, 1, 0);
        assertThat(actionsRunPerPriority()).containsExactly(0L, 0L, 1L);
        backplane.stepper().runUntilIdle();
        assertThat(ran).containsExactly("A1", "A2", "A3");
        assertThat(quotaUse()).containsExactly(0, 3, 0);
        assertThat(actionsRunPerPriority()).containsExactly(0L, 1L, 2L);
    }

    @Test
    void rule7_objectsOfOnePriorityAreServedRoundRobin() {
        BackplaneComponent app = start(BackplanePolicy.builder().priorities(3).build());
        for (String label : List.of("A1", "A2", "A3", "B1", "B2", "C1")) {
            submit(app, label, 2);
        }
        assertThat(backplane.stepper().runUntilIdle()).isEqualTo(6);
        assertThat(ran).containsExactly("A1", "B1", "C1", "A2", "B2", "A3");
    }

    @Test
    void rule7_actionsPerTurnLetsAWorkerKeepAHotObjectForSeveralActions() {
        BackplaneComponent app = start(BackplanePolicy.builder().priorities(3).actionsPerTurn(3).build());
        for (String label : List.of("A1", "A2", "A3", "A4", "A5", "B1", "B2")) {
            submit(app, label, 2);
        }
        assertThat(backplane.stepper().runUntilIdle()).isEqualTo(7);
        assertThat(ran).containsExactly("A1", "A2", "A3", "B1", "B2", "A4", "A5");
        assertThat(quotaUse()).containsExactly(0, 0, 7); // every action of a turn is charged
    }

    @Test
    void rule7_workOfTheSamePriorityArrivingDuringATurnWaitsForTheTurnToEnd() {
        BackplaneComponent app = start(BackplanePolicy.builder().priorities(3).actionsPerTurn(3).build());
        for (String label : List.of("A1", "A2", "A3", "A4")) {
            submit(app, label, 2);
        }
        backplane.stepper().runNext();
        submit(app, "B1", 2);
        backplane.stepper().runUntilIdle();
        assertThat(ran).containsExactly("A1", "A2", "A3", "B1", "A4");
    }

    @Test
    void rule7_moreUrgentWorkArrivingDuringATurnIsServedAtTheNextActionBoundary() {
        BackplaneComponent app = start(BackplanePolicy.builder().priorities(3).actionsPerTurn(3).build());
        app.submit("A", 2, ctx -> ran.add("A1"));
        app.submit("A", 2, ctx -> {
            ran.add("A2");
            app.submit("U", 0, c -> ran.add("U1")); // arrives while A2 runs, as from another thread
            return null;
        });
        for (String label : List.of("A3", "A4", "A5")) {
            submit(app, label, 2);
        }
        assertThat(backplane.stepper().runNext().objectKey()).isEqualTo("A");
        assertThat(backplane.stepper().runNext().objectKey()).isEqualTo("A");
        assertThat(backplane.stepper().runNext()).isEqualTo(new Step(Kind.RAN, "app", "U", 0));
        backplane.stepper().runUntilIdle();
        assertThat(ran).containsExactly("A1", "A2", "U1", "A3", "A4", "A5");
    }

    @Test
    void rule7_moreUrgentWorkSubmittedBetweenStepsEndsATurnAtTheNextActionBoundary() {
        BackplaneComponent app = start(BackplanePolicy.builder().priorities(3).actionsPerTurn(3).build());
        for (String label : List.of("A1", "A2", "A3", "A4", "A5")) {
            submit(app, label, 2);
        }
        assertThat(backplane.stepper().runNext().objectKey()).isEqualTo("A");
        submit(app, "U1", 0);
        assertThat(backplane.stepper().runNext()).isEqualTo(new Step(Kind.RAN, "app", "U", 0));
        backplane.stepper().runUntilIdle();
        assertThat(ran).containsExactly("A1", "U1", "A2", "A3", "A4", "A5");
    }
}
