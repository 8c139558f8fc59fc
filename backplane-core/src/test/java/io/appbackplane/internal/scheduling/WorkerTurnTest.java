package io.appbackplane.internal.scheduling;

import static org.assertj.core.api.Assertions.assertThat;

import io.appbackplane.Backplane;
import io.appbackplane.BackplaneComponent;
import io.appbackplane.BackplanePolicy;
import io.appbackplane.ComponentSpec;
import io.appbackplane.ManualClock;
import io.appbackplane.PriorityStatistics;
import io.appbackplane.internal.DefaultBackplane;
import io.appbackplane.internal.objects.AfterAction;
import io.appbackplane.internal.objects.ReadyEntry;
import io.appbackplane.internal.objects.Selection;
import io.appbackplane.internal.objects.WorkObject;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Rule 7 as a worker applies it, one action at a time on this thread with a worker's {@link
 * RunContext} (the step driver keeps to the plain rule; see {@code ObjectPriorityRuleTest}). With
 * one action per turn, a worker keeps an object that has more work when no other object is READY
 * at its priority (rejoining the tail of an empty queue and being taken again by the next select
 * would end in the same place), still charging the quota per action; another object READY at the
 * same priority, or more urgent work, ends the turn as the rule says.
 */
class WorkerTurnTest {

    private final ManualClock clock = new ManualClock();
    private final List<String> ran = new ArrayList<>();
    private DefaultBackplane backplane;
    private BackplaneComponent app;
    private RunContext worker;

    @AfterEach
    void close() {
        if (backplane != null) {
            backplane.close();
        }
    }

    private void start() {
        start(BackplanePolicy.builder().priorities(3).actionsPerTurn(1).build());
    }

    private void start(BackplanePolicy policy) {
        backplane = (DefaultBackplane) Backplane.builder("test").policy(policy).clock(clock).stepMode().build();
        app = backplane.install(ComponentSpec.named("app"));
        worker = new RunContext(backplane, true);
    }

    private void submit(String label, int priority) {
        app.submit(label.substring(0, 1), priority, ctx -> ran.add(label));
    }

    /** Takes the next object as a worker's select does, and starts its turn. */
    private WorkObject take() {
        Selection selected = backplane.scheduler().select();
        assertThat(selected).as("an object was ready").isInstanceOf(ReadyEntry.class);
        ReadyEntry entry = (ReadyEntry) selected;
        worker.turnPriority = entry.priority;
        worker.turnActions = 0;
        return entry.object;
    }

    private WorkObject.TurnEnd runOne(WorkObject object) {
        return backplane.scheduler().runTurnStep(worker, object);
    }

    /** {@link #runOne} of an action after which the object must be READY again: its new entry. */
    private ReadyEntry runOneAndRejoin(WorkObject object) {
        WorkObject.TurnEnd after = runOne(object);
        assertThat(after).as("the turn ended with the object READY again").isInstanceOf(ReadyEntry.class);
        return (ReadyEntry) after;
    }

    private List<Integer> readyDepths() {
        return backplane.statistics().priorities().stream().map(PriorityStatistics::readyDepth).toList();
    }

    private List<Integer> quotaUse() {
        return backplane.statistics().priorities().stream().map(PriorityStatistics::usedThisPeriod).toList();
    }

    @Test
    void anObjectAloneAtItsPriority_keepsTheWorker_andIsChargedPerAction() {
        start();
        submit("A1", 2);
        submit("A2", 2);
        submit("A3", 2);
        WorkObject a = take();

        assertThat(runOne(a)).isSameAs(AfterAction.CONTINUE);
        assertThat(a.queued()).as("A2 was taken off the queue with the decision (prefetched); A3 waits").isEqualTo(1);
        assertThat(runOne(a)).isSameAs(AfterAction.CONTINUE);
        assertThat(runOne(a)).isSameAs(AfterAction.LIST_IDLE); // idle: listed for the idle sweep

        assertThat(ran).containsExactly("A1", "A2", "A3");
        assertThat(quotaUse()).containsExactly(0, 0, 3);
        assertThat(readyDepths()).containsExactly(0, 0, 0);
    }

    @Test
    void anObjectAloneAtItsPriority_keepsTheWorkerAtMostTheLongestTurn() {
        start();
        for (int i = 0; i <= RunContext.LONGEST_TURN; i++) {
            submit("A" + i, 0); // priority 0: unlimited quota, so only the turn's length can end it
        }
        WorkObject a = take();

        for (int i = 1; i < RunContext.LONGEST_TURN; i++) {
            assertThat(runOne(a)).as("action %d", i).isSameAs(AfterAction.CONTINUE);
        }
        ReadyEntry after = runOneAndRejoin(a); // the longest turn's last action: a worker may retire now

        assertThat(after.object).as("A rejoined its queue").isSameAs(a);
        assertThat(ran).hasSize(RunContext.LONGEST_TURN);
        assertThat(readyDepths()).containsExactly(1, 0, 0);
    }

    @Test
    void anObjectAloneAtItsPriority_leavesWhenTheQuotaIsSpent() {
        start(BackplanePolicy.builder().priorities(3).actionsPerTurn(1)
                .quotas(BackplanePolicy.UNLIMITED_QUOTA, 2, 2).build());
        submit("A1", 2);
        submit("A2", 2);
        submit("A3", 2);
        WorkObject a = take();

        assertThat(runOne(a)).isSameAs(AfterAction.CONTINUE);
        ReadyEntry after = runOneAndRejoin(a); // priority 2's quota (2) is spent: the turn ends

        assertThat(after.object).isSameAs(a);
        assertThat(quotaUse()).containsExactly(0, 0, 2);
        assertThat(readyDepths()).containsExactly(0, 0, 1);
    }

    @Test
    void anotherObjectReadyAtThePriority_endsTheTurn_andTheObjectRejoinsTheTail() {
        start();
        submit("A1", 2);
        submit("A2", 2);
        submit("B1", 2);
        WorkObject a = take();

        ReadyEntry after = runOneAndRejoin(a);

        assertThat(after.object).as("A is READY again, behind B").isSameAs(a);
        assertThat(readyDepths()).containsExactly(0, 0, 2);
        assertThat(take().key).isEqualTo("B");
    }

    @Test
    void moreUrgentWorkArrivingDuringTheTurn_endsIt() {
        start();
        submit("A1", 2);
        submit("A2", 2);
        WorkObject a = take();
        submit("C1", 1);

        ReadyEntry after = runOneAndRejoin(a);

        assertThat(after.object).isSameAs(a);
        assertThat(readyDepths()).containsExactly(0, 1, 1);
        assertThat(take().key).isEqualTo("C");
    }

    @Test
    void theStepDriversContext_keepsToThePlainRule() {
        start();
        worker = new RunContext(backplane, false);
        submit("A1", 2);
        submit("A2", 2);
        WorkObject a = take();

        ReadyEntry after = runOneAndRejoin(a);

        assertThat(after.object).as("A rejoined its (empty) queue").isSameAs(a);
        assertThat(readyDepths()).containsExactly(0, 0, 1);
    }
}
