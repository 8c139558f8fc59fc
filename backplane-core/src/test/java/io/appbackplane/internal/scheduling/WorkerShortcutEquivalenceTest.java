package io.appbackplane.internal.scheduling;

import static org.assertj.core.api.Assertions.assertThat;

import io.appbackplane.Backplane;
import io.appbackplane.BackplaneComponent;
import io.appbackplane.BackplanePolicy;
import io.appbackplane.ComponentSpec;
import io.appbackplane.ManualClock;
import io.appbackplane.internal.DefaultBackplane;
import io.appbackplane.internal.objects.NothingTaken;
import io.appbackplane.internal.objects.ReadyEntry;
import io.appbackplane.internal.objects.Selection;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 13, "one path": a worker keeps an object that is alone at its priority instead of
 * re-queuing it after each turn (the shortcut in {@link RunContext#mayContinue}); the step driver
 * keeps to the plain rule 7. This runs generated workloads both ways on the same scheduler code and
 * requires the same order of actions: once as a worker runs turns ({@link Scheduler#select} then
 * {@link Scheduler#runTurn}), once with the {@link io.appbackplane.Stepper}. Work arrives before the run and from inside actions (as a
 * worker meets it: every arrival is in place at the action boundary where the decision is taken).
 * The orders agree with and without the shortcut; the named cases below are the counterexamples
 * that showed the shortcut counting a turn gone on in place as the old turn (fixed: it starts a
 * new turn, see {@link RunContext#mayContinue}).
 *
 * <p>Seeds: a random base per run, printed on failure; {@code -Dbackplane.shortcut.seed=N} reruns one.
 */
class WorkerShortcutEquivalenceTest {

    private static final int WORKLOADS = 1_500;
    private static final int STRESS_WORKLOADS = 30_000;
    private static final int MAX_ACTIONS = 60;

    /**
     * The worker's turn loop ({@link Scheduler#runTurn}) with the step driver's turn gate (no
     * shortcut, no prefetch) runs the step driver's order: the turn loop itself is one path.
     */
    @Test
    void aWorkersTurnLoop_withoutTheShortcut_runsTheStepDriversOrder() {
        long shortcutTurns = compare(false, WORKLOADS);
        assertThat(shortcutTurns).as("turns past the actions per turn").isZero();
    }

    /** With a worker's turn gate (the shortcut and prefetching) the order is the step driver's too. */
    @Test
    void aWorkerThatKeepsAnObjectAloneAtItsPriority_runsTheSameOrderAsThePlainRule() {
        long shortcutTurns = compare(true, WORKLOADS);
        // Turns that went past the actions per turn only because the object was alone at its priority.
        assertThat(shortcutTurns).as("turns in which the shortcut fired").isGreaterThan(WORKLOADS / 2);
    }

    @Test
    @Tag("stress")
    void aWorkerThatKeepsAnObjectAloneAtItsPriority_runsTheSameOrderAsThePlainRule_manyWorkloads() {
        assertThat(compare(true, STRESS_WORKLOADS)).isGreaterThan(STRESS_WORKLOADS / 2);
    }

    /**
     * The generated counterexamples of 2026-11-23 (policies with 4 and 3 priorities, 3 actions per
     * turn): after a turn of the actions per turn, an object alone at its priority went on in place,
     * but its next actions still counted to the old turn, so an object that became READY at that
     * priority meanwhile ended the turn one or two actions early; the step driver's new turn ran
     * them. Without the fix the worker's order differs.
     */
    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {-2315984133904079995L, -8285301026555150959L})
    void theCounterexampleSeeds_runTheSameOrderBothWays(long seed) {
        assertThat(new Run(seed).asWorker(true)).isEqualTo(new Run(seed).stepped());
    }

    /**
     * The counterexamples shrunk by hand: two actions per turn; object a has four actions, the third
     * of which makes b READY at the same priority. The plain rule: a's first turn (a1, a2) ends, a
     * rejoins its queue alone and is taken again, and its second turn (a3, a4) runs both before b.
     * A worker that goes on in place must count a3 and a4 as that second turn.
     */
    @Test
    void aTurnGoneOnInPlace_countsItsActionsPerTurnAfresh_asTheStepDriversNextTurnDoes() {
        BackplanePolicy policy = BackplanePolicy.builder().priorities(2).actionsPerTurn(2).build();
        List<String> stepped = explicitOrder(policy, false);
        assertThat(stepped).containsExactly("a1", "a2", "a3", "a4", "b1");
        assertThat(explicitOrder(policy, true)).isEqualTo(stepped);
    }

    /** Runs the explicit workload of the test above, stepped or through a worker's turns. */
    private static List<String> explicitOrder(BackplanePolicy policy, boolean asWorker) {
        DefaultBackplane backplane = (DefaultBackplane) Backplane.builder("shortcut-explicit").policy(policy)
                .clock(new ManualClock()).stepMode().build();
        BackplaneComponent app = backplane.install(ComponentSpec.named("app"));
        List<String> order = new ArrayList<>();
        for (int i = 1; i <= 4; i++) {
            String label = "a" + i;
            boolean readiesB = i == 3;
            app.submit("a", 1, ctx -> {
                order.add(label);
                if (readiesB) {
                    app.submit("b", 1, c -> order.add("b1"));
                }
                return null;
            });
        }
        if (asWorker) {
            runAsWorker(backplane, true);
        } else {
            try {
                backplane.stepper().runUntilIdle();
            } finally {
                backplane.close();
            }
        }
        return order;
    }

    /** Runs every turn as a worker does ({@link Scheduler#select} then {@link Scheduler#runTurn}); returns the shortcut turns. */
    private static long runAsWorker(DefaultBackplane backplane, boolean workerGate) {
        RunContext worker = new RunContext(backplane, workerGate);
        Scheduler scheduler = backplane.scheduler();
        long shortcutTurns = 0;
        CurrentBackplane.set(backplane); // as a worker thread has it (WorkerPool)
        try {
            for (Selection selected = scheduler.select(); selected != NothingTaken.NOTHING_READY; selected = scheduler.select()) {
                assertThat(selected).as("no CPU limit: never throttled").isInstanceOf(ReadyEntry.class);
                scheduler.runTurn(worker, (ReadyEntry) selected);
                if (worker.turnActions > backplane.policy().actionsPerTurn()) {
                    shortcutTurns++;
                }
            }
            return shortcutTurns;
        } finally {
            CurrentBackplane.set(null);
            backplane.close();
        }
    }

    private static long compare(boolean workerGate, int workloads) {
        long base = Long.getLong("backplane.shortcut.seed", ThreadLocalRandom.current().nextLong());
        long shortcutTurns = 0;
        for (int i = 0; i < workloads; i++) {
            long seed = base + i;
            Run plain = new Run(seed);
            List<String> stepped = plain.stepped();
            Run worker = new Run(seed);
            List<String> asWorker = worker.asWorker(workerGate);
            assertThat(asWorker).as("seed %d (rerun: -Dbackplane.shortcut.seed=%d), policy %s", seed, seed, plain.policy)
                    .containsExactlyElementsOf(stepped);
            shortcutTurns += worker.shortcutTurns;
        }
        return shortcutTurns;
    }

    /** One generated workload on a fresh step-mode backplane; the random stream is consumed in run order. */
    private static final class Run {
        final Random random;
        final BackplanePolicy policy;
        final DefaultBackplane backplane;
        final BackplaneComponent app;
        final int keys;
        final int priorities;
        final List<String> trace = new ArrayList<>();
        int submitted;
        long shortcutTurns;

        Run(long seed) {
            random = new Random(seed);
            priorities = 2 + random.nextInt(3);
            BackplanePolicy.Builder builder = BackplanePolicy.builder()
                    .priorities(priorities)
                    .actionsPerTurn(1 + random.nextInt(3));
            for (int p = 1; p < priorities; p++) {
                if (random.nextBoolean()) {
                    builder.quota(p, 1 + random.nextInt(4)); // small quotas: virtual ticks and quota-ended turns
                }
            }
            policy = builder.build();
            backplane = (DefaultBackplane) Backplane.builder("shortcut-" + seed).policy(policy)
                    .clock(new ManualClock()).stepMode().build();
            app = backplane.install(ComponentSpec.named("app"));
            keys = 1 + random.nextInt(4);
            int initial = 1 + random.nextInt(12);
            for (int i = 0; i < initial; i++) {
                submitRandom();
            }
        }

        private void submitRandom() {
            String key = "o" + random.nextInt(keys);
            int priority = random.nextInt(priorities);
            String label = key + "@" + priority + "#" + submitted++;
            app.submit(key, priority, ctx -> {
                trace.add(label);
                int followUps = submitted < MAX_ACTIONS ? random.nextInt(3) : 0;
                for (int f = 0; f < followUps; f++) {
                    submitRandom();
                }
                return null;
            });
        }

        List<String> stepped() {
            try {
                backplane.stepper().runUntilIdle();
                return trace;
            } finally {
                backplane.close();
            }
        }

        List<String> asWorker(boolean workerGate) {
            shortcutTurns = runAsWorker(backplane, workerGate);
            return trace;
        }
    }
}
