package io.appbackplane;

import static org.assertj.core.api.Assertions.assertThat;

import io.appbackplane.BackplaneListener.SlowAction;
import io.appbackplane.Stepper.Kind;
import io.appbackplane.Stepper.Step;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Rule 14 in step mode on a manual clock: every action is timed and a slow one is reported; a long
 * action can poll the cooperative yield signal (set by more urgent READY work in any backplane of
 * the JVM) and yield to a continuation that runs at the head of its object's queue.
 *
 * <p>The yield signal is JVM-wide, so the "no more urgent work" assertions assume no other live
 * backplane in this JVM has a READY object at priority 0 while they run (every test here closes
 * its backplanes).
 */
class SlowActionAndYieldRuleTest {

    private final ManualClock clock = new ManualClock();
    private final List<String> ran = new ArrayList<>();
    private final List<SlowAction> slowActions = new CopyOnWriteArrayList<>();
    private final List<Backplane> backplanes = new ArrayList<>();

    @AfterEach
    void close() {
        backplanes.forEach(Backplane::close);
    }

    private Backplane start(String name, BackplanePolicy policy) {
        Backplane backplane = Backplane.builder(name)
                .policy(policy)
                .clock(clock)
                .stepMode()
                .listener(new BackplaneListener() {
                    @Override
                    public void onSlowAction(SlowAction slowAction) {
                        slowActions.add(slowAction);
                    }
                })
                .build();
        backplanes.add(backplane);
        return backplane;
    }

    private static BackplanePolicy threePriorities() {
        return BackplanePolicy.builder().priorities(3).slowActionThreshold(Duration.ofMillis(100)).build();
    }

    @Test
    void rule14_anActionRunningLongerThanTheThresholdIsReportedToListenersAndCounted() {
        Backplane backplane = start("test", threePriorities());
        BackplaneComponent app = backplane.install(ComponentSpec.named("app"));
        app.submit("fast", 2, ctx -> {
            clock.advance(Duration.ofMillis(100)); // exactly the threshold: not slow
            return null;
        });
        app.submit("slow", 1, ctx -> {
            clock.advance(Duration.ofMillis(150));
            return null;
        });
        app.submit("failing", 1, ctx -> {
            clock.advance(Duration.ofMillis(120));
            throw new IllegalStateException("slow and broken");
        });

        assertThat(backplane.stepper().runUntilIdle()).isEqualTo(3);

        assertThat(slowActions).containsExactly(
                new SlowAction("test", "app", "slow", 1, Duration.ofMillis(150), Duration.ofMillis(100)),
                new SlowAction("test", "app", "failing", 1, Duration.ofMillis(120), Duration.ofMillis(100)));
        BackplaneStatistics stats = backplane.statistics();
        assertThat(stats.components().get(1).counts().slowActions()).isEqualTo(2); // [0] is the backplane's own
        assertThat(stats.priorities()).extracting(p -> p.counts().slowActions()).containsExactly(0L, 2L, 0L);
        assertThat(stats.totals().slowActions()).isEqualTo(2);
        // Every action is timed, slow or not.
        assertThat(stats.totals().actionsRun()).isEqualTo(3);
        assertThat(stats.totals().totalRunTime()).isEqualTo(Duration.ofMillis(370));
        assertThat(stats.totals().maxRunTime()).isEqualTo(Duration.ofMillis(150));
        assertThat(stats.priorities().get(2).counts().maxRunTime()).isEqualTo(Duration.ofMillis(100));
        assertThat(stats.totals().failed()).isEqualTo(1);
    }

    @Test
    void rule14_aListenerThatThrowsDoesNotBreakTheAction() {
        Backplane backplane = Backplane.builder("test")
                .policy(threePriorities())
                .clock(clock)
                .stepMode()
                .listener(new BackplaneListener() {
                    @Override
                    public void onSlowAction(SlowAction slowAction) {
                        throw new IllegalStateException("listener bug");
                    }
                })
                .build();
        backplanes.add(backplane);
        CompletableFuture<String> done = backplane.install(ComponentSpec.named("app")).submit("k", 1, ctx -> {
            clock.advance(Duration.ofMillis(500));
            return "done";
        });
        assertThat(backplane.stepper().runNext().ran()).isTrue();
        assertThat(done).isCompletedWithValue("done");
        assertThat(backplane.statistics().totals().slowActions()).isEqualTo(1);
    }

    @Test
    void rule14_shouldYieldIsTrueOnlyWhileAMoreUrgentObjectIsReady() {
        Backplane backplane = start("test", threePriorities());
        BackplaneComponent app = backplane.install(ComponentSpec.named("app"));
        List<Boolean> signals = new ArrayList<>();
        app.submit("long", 1, ctx -> {
            signals.add(ctx.shouldYield()); // nothing else ready
            app.submit("peer", 1, c -> null);
            app.submit("bulk", 2, c -> null);
            signals.add(ctx.shouldYield()); // only work as or less urgent
            app.submit("urgent", 0, c -> null);
            signals.add(ctx.shouldYield()); // priority 0 is READY
            return null;
        });
        assertThat(backplane.stepper().runNext().objectKey()).isEqualTo("long");
        assertThat(backplane.stepper().runNext().objectKey()).isEqualTo("urgent");
        app.submit("long", 1, ctx -> signals.add(ctx.shouldYield())); // urgent has run
        backplane.stepper().runUntilIdle();
        assertThat(signals).containsExactly(false, false, true, false);
    }

    @Test
    void rule14_shouldYieldSeesMoreUrgentWorkReadyInAnotherBackplane() {
        Backplane mine = start("mine", threePriorities());
        Backplane other = start("other", BackplanePolicy.defaults()); // 8 priorities
        BackplaneComponent app = mine.install(ComponentSpec.named("app"));
        BackplaneComponent remote = other.install(ComponentSpec.named("remote"));
        List<Boolean> signals = new ArrayList<>();

        app.submit("long", 1, ctx -> {
            signals.add(ctx.shouldYield());
            // by relative urgency, 4 of 8 (4/7) is less urgent than 1 of 3 (1/2): no reason to yield
            remote.submit("r-less", 4, c -> null);
            signals.add(ctx.shouldYield());
            remote.submit("r-urgent", 0, c -> null); // more urgent, in another backplane
            signals.add(ctx.shouldYield());
            return null;
        });
        mine.stepper().runNext();
        assertThat(signals).containsExactly(false, false, true);

        app.submit("long", 1, ctx -> signals.add(ctx.shouldYield()));
        mine.stepper().runNext();
        assertThat(signals).containsExactly(false, false, true, true); // still READY over there

        assertThat(other.stepper().runNext()).isEqualTo(new Step(Kind.RAN, "remote", "r-urgent", 0));
        app.submit("long", 1, ctx -> signals.add(ctx.shouldYield()));
        mine.stepper().runNext();
        assertThat(signals).containsExactly(false, false, true, true, false);
    }

    @Test
    void rule14_shouldYieldIgnoresABackplaneThatWasClosed() {
        Backplane mine = start("mine", threePriorities());
        Backplane other = Backplane.builder("other").clock(clock).stepMode().build();
        other.install(ComponentSpec.named("remote")).submit("r", 0, c -> null);
        other.close(); // fails its queued work; its ready queues no longer count
        BackplaneComponent app = mine.install(ComponentSpec.named("app"));
        AtomicReference<Boolean> signal = new AtomicReference<>();
        app.submit("long", 1, ctx -> signal.getAndSet(ctx.shouldYield()));
        mine.stepper().runNext();
        assertThat(signal.get()).isFalse();
    }

    @Test
    void rule14_yieldToLetsMoreUrgentWorkRunFirstThenTheContinuationBeforeTheObjectsOtherWork() {
        Backplane backplane = start("test", threePriorities());
        BackplaneComponent app = backplane.install(ComponentSpec.named("app"));
        CompletableFuture<String> longRequest = app.submit("A", 2, ctx -> {
            ran.add("A1-part1");
            app.submit("U", 0, c -> ran.add("U1")); // urgent work arrives meanwhile
            if (ctx.shouldYield()) {
                return ctx.yieldTo(c -> {
                    ran.add("A1-part2");
                    return "finished after yielding";
                });
            }
            ran.add("A1-without-yield");
            return "finished without yielding";
        });
        CompletableFuture<Object> next = app.submit("A", 2, ctx -> ran.add("A2"));
        app.submit("B", 2, ctx -> ran.add("B1"));

        assertThat(backplane.stepper().runNext()).isEqualTo(new Step(Kind.RAN, "app", "A", 2));
        assertThat(longRequest).isNotDone(); // the request goes on in the continuation
        assertThat(backplane.stepper().runNext()).isEqualTo(new Step(Kind.RAN, "app", "U", 0));
        assertThat(backplane.stepper().runUntilIdle()).isEqualTo(3);

        // A rejoined the tail of its ready queue (after B); its continuation runs before A2.
        assertThat(ran).containsExactly("A1-part1", "U1", "B1", "A1-part2", "A2");
        assertThat(longRequest).isCompletedWithValue("finished after yielding");
        assertThat(next).isCompletedWithValue(true);
        ActionCounts counts = app.statistics().counts();
        assertThat(counts.submitted()).isEqualTo(4);
        assertThat(counts.completed()).isEqualTo(4);
        assertThat(counts.actionsRun()).isEqualTo(5); // the continuation is an action of the same request
    }

    @Test
    void rule14_aContinuationCanYieldAgainAndAFailingContinuationFailsTheRequest() {
        Backplane backplane = start("test", threePriorities());
        BackplaneComponent app = backplane.install(ComponentSpec.named("app"));
        CompletableFuture<String> request = app.submit("A", 1, ctx -> {
            ran.add("part1");
            return ctx.yieldTo(c1 -> {
                ran.add("part2");
                return c1.yieldTo(c2 -> {
                    ran.add("part3");
                    throw new IllegalStateException("part 3 failed");
                });
            });
        });
        app.submit("A", 1, ctx -> ran.add("A2"));
        assertThat(backplane.stepper().runUntilIdle()).isEqualTo(4);
        assertThat(ran).containsExactly("part1", "part2", "part3", "A2");
        assertThat(request).isCompletedExceptionally();
        assertThat(app.statistics().counts().failed()).isEqualTo(1);
        assertThat(app.statistics().counts().completed()).isEqualTo(1);
    }

    @Test
    void rule14_anActionCannotBothAwaitAReplyAndYield() {
        Backplane backplane = start("test", threePriorities());
        BackplaneComponent app = backplane.install(ComponentSpec.named("app"));
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        CompletableFuture<String> reply = new CompletableFuture<>();
        CompletableFuture<String> request = app.submit("A", 1, ctx -> {
            String result = ctx.yieldTo(c -> "continued");
            try {
                ctx.awaitReply(reply, (c, value, failure) -> value);
            } catch (IllegalStateException e) {
                thrown.set(e);
            }
            return result;
        });
        backplane.stepper().runUntilIdle();
        assertThat(thrown.get()).isInstanceOf(IllegalStateException.class).hasMessageContaining("yielded");
        assertThat(request).isCompletedWithValue("continued");
    }
}
