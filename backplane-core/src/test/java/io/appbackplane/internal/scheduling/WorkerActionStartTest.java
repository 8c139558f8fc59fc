package io.appbackplane.internal.scheduling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.appbackplane.ActionCounts;
import io.appbackplane.Backplane;
import io.appbackplane.BackplaneComponent;
import io.appbackplane.BackplanePolicy;
import io.appbackplane.ComponentSpec;
import io.appbackplane.ManualClock;
import io.appbackplane.internal.DefaultBackplane;
import io.appbackplane.internal.objects.ReadyEntry;
import io.appbackplane.internal.objects.Selection;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Where an action starts ({@link RunContext#actionStart}): a worker that goes straight on from an
 * action to the next starts the next where the last one ended (its scheduling in between counts as
 * the next action's run time, and no clock is read), but never before the next one was queued;
 * after anything else (user code such as an observer, a park, and always in the step driver) the
 * start is a clock read. Driven with a worker's context and a manual clock, which moves only where
 * a test says: between two actions it stands for the worker's scheduling work. All but the last
 * test run the worker's turns on this thread; the last runs a real worker.
 */
class WorkerActionStartTest {

    private final ManualClock clock = new ManualClock();
    private DefaultBackplane backplane;
    private RunContext worker;

    @BeforeEach
    void start() {
        start(builder -> builder);
    }

    /** A step-mode backplane on the manual clock, {@code extra} added to its builder, and a worker's context. */
    private void start(UnaryOperator<Backplane.Builder> extra) {
        backplane = (DefaultBackplane) extra.apply(Backplane.builder("test")
                        .policy(BackplanePolicy.builder().priorities(2).build())
                        .clock(clock)
                        .stepMode())
                .build();
        worker = new RunContext(backplane, true);
    }

    @AfterEach
    void close() {
        backplane.close();
    }

    @Test
    void straightOnFromAnActionTheNextStartsWhereItEnded() {
        BackplaneComponent first = backplane.install(ComponentSpec.named("first"));
        BackplaneComponent second = backplane.install(ComponentSpec.named("second"));
        first.execute("a", 1, ctx -> {
            clock.advance(Duration.ofMillis(10));
            return null;
        });
        second.execute("b", 1, ctx -> null); // queued at 0, runs in no clock time of its own

        runTurnOfNext(); // "a": 0 → 10 ms
        assertThat(worker.straightOn).as("a worker goes straight on after an action").isTrue();
        clock.advance(Duration.ofMillis(3)); // the worker's scheduling between the two actions
        runTurnOfNext(); // "b" starts where "a" ended

        assertThat(first.statistics().counts().totalRunTime()).isEqualTo(Duration.ofMillis(10));
        ActionCounts b = second.statistics().counts();
        assertThat(b.totalRunTime()).as("the scheduling since the last action counts as run time").isEqualTo(Duration.ofMillis(3));
        assertThat(b.totalQueueTime()).as("queued until the last action ended").isEqualTo(Duration.ofMillis(10));
    }

    @Test
    void anActionQueuedAfterTheLastOneEndedStartsNoEarlierThanItWasQueued() {
        BackplaneComponent app = backplane.install(ComponentSpec.named("app"));
        app.execute("a", 1, ctx -> null);
        runTurnOfNext(); // ends at 0
        clock.advance(Duration.ofMillis(5));
        app.execute("c", 1, ctx -> null); // queued at 5 ms, after the last action ended
        clock.advance(Duration.ofMillis(2)); // the worker's scheduling

        runTurnOfNext();

        ActionCounts counts = app.statistics().counts();
        assertThat(counts.totalQueueTime()).as("never a negative queue time").isEqualTo(Duration.ZERO);
        assertThat(counts.totalRunTime()).as("from its queueing to its end").isEqualTo(Duration.ofMillis(2));
    }

    @Test
    void afterIdlingTheStartIsAClockRead() {
        BackplaneComponent app = backplane.install(ComponentSpec.named("app"));
        app.execute("a", 1, ctx -> null);
        runTurnOfNext(); // ends at 0
        app.execute("b", 1, ctx -> null); // queued at 0
        clock.advance(Duration.ofMillis(4)); // the worker spun or parked meanwhile ...
        worker.straightOn = false; // ... which the worker loop records so

        runTurnOfNext();

        ActionCounts counts = app.statistics().counts();
        assertThat(counts.totalQueueTime()).isEqualTo(Duration.ofMillis(4));
        assertThat(counts.totalRunTime()).isEqualTo(Duration.ZERO);
    }

    @Test
    void afterAnObserverTheNextActionStartsAtAClockRead() {
        backplane.close();
        start(builder -> builder.actionObserver((component, priority, queueNanos, runNanos) -> clock.advance(Duration.ofMillis(7))));
        BackplaneComponent first = backplane.install(ComponentSpec.named("first"));
        BackplaneComponent second = backplane.install(ComponentSpec.named("second"));
        first.execute("a", 1, ctx -> null);
        second.execute("b", 1, ctx -> null);

        runTurnOfNext(); // "a" ends at 0, then its observer takes 7 ms
        assertThat(worker.straightOn).as("user code ran after the action's end").isFalse();
        runTurnOfNext();

        assertThat(second.statistics().counts().totalRunTime()).as("the observer's time is not b's").isEqualTo(Duration.ZERO);
        assertThat(second.statistics().counts().totalQueueTime()).isEqualTo(Duration.ofMillis(7));
    }

    @Test
    void theStepDriversActionsAlwaysStartAtAClockRead() {
        RunContext stepper = new RunContext(backplane, false);
        BackplaneComponent app = backplane.install(ComponentSpec.named("app"));
        app.execute("a", 1, ctx -> null);
        app.execute("b", 1, ctx -> null);
        backplane.scheduler().runTurn(stepper, (ReadyEntry) backplane.scheduler().select());
        assertThat(stepper.straightOn).isFalse();
        clock.advance(Duration.ofMillis(6)); // a test between two steps

        backplane.scheduler().runTurn(stepper, (ReadyEntry) backplane.scheduler().select());

        assertThat(app.statistics().counts().totalRunTime()).as("the time between steps is no action's").isEqualTo(Duration.ZERO);
    }

    /**
     * The worker loop: a worker that parked (here throttled: the CPU budget is spent) starts its
     * next action at a clock read, so the wait is no action's run time.
     */
    @Test
    void aRealWorkerBackFromAThrottledParkStartsAtAClockRead() throws Exception {
        Backplane threaded = Backplane.builder("action-start-threaded")
                .policy(BackplanePolicy.builder().priorities(2).threads(1).cpuLimit(0.5).cpuBudgetSlices(1).build())
                .clock(clock)
                .build();
        try {
            BackplaneComponent app = threaded.install(ComponentSpec.named("app"));
            CountDownLatch bQueued = new CountDownLatch(1);
            CompletableFuture<Void> a = app.submit("a", 1, ctx -> {
                bQueued.await();
                clock.advance(Duration.ofMillis(500)); // the whole budget of the period (0.5 cores × 1 s)
                return null;
            });
            CompletableFuture<Void> b = app.submit("b", 1, ctx -> null); // queued at 0
            bQueued.countDown();
            a.get(10, TimeUnit.SECONDS);
            Thread worker = workerThread("action-start-threaded");
            await().atMost(Duration.ofSeconds(10)).until(() -> worker.getState() == Thread.State.TIMED_WAITING
                    && Arrays.stream(worker.getStackTrace()).anyMatch(frame -> frame.getMethodName().equals("awaitWork")));
            assertThat(b).as("throttled until the next period").isNotDone();

            clock.advance(Duration.ofMillis(500)); // the real tick at 1 s: a new budget
            b.get(10, TimeUnit.SECONDS);

            ActionCounts counts = app.statistics().counts();
            assertThat(counts.maxRunTime()).as("a's run time").isEqualTo(Duration.ofMillis(500));
            assertThat(counts.totalRunTime()).as("a's 500 ms only: the throttled wait is not b's").isEqualTo(Duration.ofMillis(500));
            assertThat(counts.maxQueueTime()).as("b waited from 0 to the tick").isEqualTo(Duration.ofSeconds(1));
        } finally {
            threaded.close();
        }
    }

    private static Thread workerThread(String backplaneName) {
        String name = "backplane-" + backplaneName + "-worker-1";
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().equals(name))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no thread named " + name));
    }

    /** Takes the next ready object as a worker's select does and runs its turn with the worker's context. */
    private void runTurnOfNext() {
        Selection selected = backplane.scheduler().select();
        assertThat(selected).as("an object was ready").isInstanceOf(ReadyEntry.class);
        backplane.scheduler().runTurn(worker, (ReadyEntry) selected);
    }
}
