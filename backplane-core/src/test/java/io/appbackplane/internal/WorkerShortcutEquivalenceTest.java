package io.appbackplane.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.appbackplane.Backplane;
import io.appbackplane.BackplaneComponent;
import io.appbackplane.BackplanePolicy;
import io.appbackplane.ComponentSpec;
import io.appbackplane.ManualClock;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Issue 13, "one path": a worker keeps an object that is alone at its priority instead of
 * re-queuing it after each turn (the shortcut in {@link RunContext#mayContinue}); the step driver
 * keeps to the plain rule 7. This runs generated workloads both ways on the same scheduler code and
 * requires the same order of actions: once as a worker runs turns ({@link Scheduler#select} then
 * {@link Scheduler#runTurn}), once with the {@link io.appbackplane.Stepper}. Work arrives before the run and from inside actions (as a
 * worker meets it: every arrival is in place at the action boundary where the decision is taken).
 * Without the shortcut the orders agree; with it they do not yet (see the stress-tagged test).
 *
 * <p>Seeds: a random base per run, printed on failure; {@code -Dbackplane.shortcut.seed=N} reruns one.
 */
class WorkerShortcutEquivalenceTest {

    private static final int WORKLOADS = 1_500;
    private static final int MAX_ACTIONS = 60;

    /**
     * The worker's turn loop ({@link Scheduler#runTurn}) with the step driver's turn gate (no
     * shortcut, no prefetch) runs the step driver's order: the turn loop itself is one path.
     */
    @Test
    void aWorkersTurnLoop_withoutTheShortcut_runsTheStepDriversOrder() {
        long shortcutTurns = compare(false);
        assertThat(shortcutTurns).as("turns past the actions per turn").isZero();
    }

    /**
     * With a worker's turn gate (the shortcut and prefetching) the order differs today: FAILS.
     * Counterexamples found on 2026-11-23 (rerun with {@code -Dbackplane.shortcut.seed=N}):
     * -2315984133904079995 and -8285301026555150959, both times the step driver running a less
     * urgent action of the object it held before a more urgent one of another object, or the
     * other way round; the same seeds agree without the shortcut (test above). With prefetching
     * switched off and the shortcut on, seed -2315984133904079995 still differs (checked by hand):
     * the shortcut itself, not the prefetch, changes the order. Kept out of the
     * default build until the shortcut is fixed or removed (issue 13, "one path").
     */
    @Test
    @Tag("stress")
    void aWorkerThatKeepsAnObjectAloneAtItsPriority_runsTheSameOrderAsThePlainRule() {
        long shortcutTurns = compare(true);
        // Turns that went past the actions per turn only because the object was alone at its priority.
        assertThat(shortcutTurns).as("turns in which the shortcut fired").isGreaterThan(WORKLOADS / 2);
    }

    private static long compare(boolean workerGate) {
        long base = Long.getLong("backplane.shortcut.seed", ThreadLocalRandom.current().nextLong());
        long shortcutTurns = 0;
        for (int i = 0; i < WORKLOADS; i++) {
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
            RunContext worker = new RunContext(backplane, workerGate);
            Scheduler scheduler = backplane.scheduler();
            DefaultBackplane.CURRENT.set(backplane); // as a worker thread has it (WorkerPool)
            try {
                for (ReadyEntry entry = scheduler.select(); entry != ReadyEntry.NONE; entry = scheduler.select()) {
                    assertThat(entry).as("no CPU limit: never throttled").isNotSameAs(ReadyEntry.THROTTLED);
                    scheduler.runTurn(worker, entry);
                    if (worker.turnActions > policy.actionsPerTurn()) {
                        shortcutTurns++;
                    }
                }
                return trace;
            } finally {
                DefaultBackplane.CURRENT.remove();
                backplane.close();
            }
        }
    }
}
