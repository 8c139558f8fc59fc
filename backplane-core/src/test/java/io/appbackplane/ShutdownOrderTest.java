package io.appbackplane;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.appbackplane.Backplane.ShutdownReport;
import io.appbackplane.BackplaneRejectedException.Reason;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The order of a shutdown (docs/scheduling.md, shutdown): stop admitting work from outside;
 * drain accepted work including the follow-up work its actions submit; run DOWN hooks, dependents
 * first; fail what remains. Rejections after shutdown began are not retryable.
 */
class ShutdownOrderTest {

    private final ManualClock clock = new ManualClock();
    private final List<String> log = new CopyOnWriteArrayList<>();
    private Backplane backplane;

    @AfterEach
    void close() {
        if (backplane != null) {
            backplane.close();
        }
    }

    private void startStepMode() {
        backplane = Backplane.builder("shop").clock(clock).stepMode().build();
    }

    private StateHook logs(String name) {
        return (ctx, from, to) -> log.add(name + " " + to);
    }

    @Test
    void multiHopFollowUpWorkOfTheBackplanesOwnActionsDrainsWhileOutsideWorkIsRejected() {
        startStepMode();
        BackplaneComponent orders = backplane.install(ComponentSpec.named("orders"));
        BackplaneComponent billing = backplane.install(ComponentSpec.named("billing"));
        BackplaneComponent mail = backplane.install(ComponentSpec.named("mail"));
        // orders → billing → mail: each hop is submitted by the action of the one before, during the drain
        CompletableFuture<String> placed = orders.submit("o-1", 1, ctx -> {
            log.add("order");
            billing.submit("o-1", 2, c2 -> {
                log.add("bill");
                mail.submit("o-1", 3, c3 -> log.add("mail"));
                return "billed";
            });
            return "placed";
        });

        CompletableFuture<ShutdownReport> shutdown = backplane.shutdown(Duration.ofSeconds(10));
        Throwable outside = catchThrowable(() -> orders.submit("o-2", 1, ctx -> "from outside"));
        backplane.stepper().runUntilIdle();

        assertThat(outside).isInstanceOfSatisfying(BackplaneRejectedException.class, e -> {
            assertThat(e.reason()).isEqualTo(Reason.CLOSED);
            assertThat(e.isRetryable()).isFalse();
        }).hasMessageContainingAll("'shop'", "shutting down", "outside");
        assertThat(placed).isCompletedWithValue("placed");
        assertThat(log).containsExactly("order", "bill", "mail");
        assertThat(shutdown).isCompletedWithValue(new ShutdownReport(3, 0));
        assertThat(backplane.statistics().totals().failed()).isZero();
    }

    @Test
    void downHooksRunAfterTheDrainDependentsFirstAndTheReportWaitsForThem() {
        startStepMode();
        BackplaneComponent db = backplane.install(ComponentSpec.named("db").onEnter(ComponentState.DOWN, logs("db")));
        BackplaneComponent api = backplane.install(ComponentSpec.named("api").dependsOn("db")
                .onEnter(ComponentState.DOWN, logs("api")));
        CompletableFuture<Void> up = backplane.moveTo(ComponentState.PRIMARY);
        backplane.stepper().runUntilIdle();
        assertThat(up).isCompleted();
        api.submit("a", 3, ctx -> log.add("queued api work"));
        db.submit("d", 3, ctx -> log.add("queued db work"));

        CompletableFuture<ShutdownReport> shutdown = backplane.shutdown(Duration.ofSeconds(10));
        assertThat(db.state()).as("nothing goes DOWN before the drain").isEqualTo(ComponentState.PRIMARY);
        backplane.stepper().runUntilIdle();

        assertThat(log).containsExactly("queued api work", "queued db work", "api DOWN", "db DOWN");
        assertThat(backplane.components()).allSatisfy(c -> assertThat(c.state()).isEqualTo(ComponentState.DOWN));
        assertThat(shutdown).isCompletedWithValue(new ShutdownReport(2, 0));
    }

    @Test
    void atTheDrainTimeoutWhatDidNotDrainFailsThenTheDownHooksStillRun() {
        startStepMode();
        BackplaneComponent app = backplane.install(ComponentSpec.named("app").onEnter(ComponentState.DOWN, logs("app")));
        backplane.moveTo(ComponentState.PRIMARY);
        backplane.stepper().runUntilIdle();
        CompletableFuture<String> waiting = app.submit("w", 5, ctx -> ctx.awaitReply(new CompletableFuture<String>(),
                (c, value, failure) -> value));
        CompletableFuture<String> late = app.submit("slow", 5, ctx -> "never ran");
        backplane.stepper().runNext(); // "w" waits for a reply that never comes; "slow" stays queued

        CompletableFuture<ShutdownReport> shutdown = backplane.shutdown(Duration.ofSeconds(10), Duration.ofSeconds(10));
        clock.advance(Duration.ofSeconds(10)); // the drain timeout

        assertThat(failureOf(late)).isInstanceOf(BackplaneShutdownException.class);
        assertThat(failureOf(waiting)).isInstanceOf(BackplaneShutdownException.class);
        assertThat(log).as("the hooks wait for their step, not behind the failed work").isEmpty();
        assertThat(shutdown).isNotDone();
        backplane.stepper().runUntilIdle();
        assertThat(log).containsExactly("app DOWN");
        assertThat(shutdown).isCompletedWithValue(new ShutdownReport(0, 2));
    }

    @Test
    void atTheDownTimeoutHooksThatDidNotRunFailAndTheBackplaneStops() {
        startStepMode();
        backplane.install(ComponentSpec.named("app").onEnter(ComponentState.DOWN, logs("app")));
        backplane.moveTo(ComponentState.PRIMARY);
        backplane.stepper().runUntilIdle();

        CompletableFuture<ShutdownReport> shutdown = backplane.shutdown(Duration.ofSeconds(1), Duration.ofSeconds(2));
        assertThat(shutdown).as("drained at once; the DOWN transitions wait for steps").isNotDone();
        clock.advance(Duration.ofSeconds(2));

        assertThat(shutdown).isCompleted();
        assertThat(log).isEmpty();
        assertThat(backplane.stepper().runUntilIdle()).isZero();
    }

    @Test
    void rejectionsAfterShutdownBeganAreNotRetryableWhateverTheirReason() {
        startStepMode();
        BackplaneComponent app = backplane.install(ComponentSpec.named("app").withOperationLimit(1)
                .withAdmissionReserve(0));
        ActionEndpoint<String, String> echo = app.endpoint(EndpointSpec.named("echo", (ctx, request) -> request));
        backplane.moveTo(ComponentState.PRIMARY);
        backplane.stepper().runUntilIdle();
        Throwable stateBeforeShutdown = catchThrowable(() -> app.endpoint(EndpointSpec.<String, String>named("secondary",
                (ctx, request) -> request).acceptingIn(ComponentState.SECONDARY)).call("x"));
        assertThat(stateBeforeShutdown).isInstanceOfSatisfying(BackplaneRejectedException.class,
                e -> assertThat(e.isRetryable()).as("before shutdown: retry when the state is right").isTrue());
        CompletableFuture<Throwable> limitDuringDrain = new CompletableFuture<>();
        app.submit("holder", 1, ctx -> {
            limitDuringDrain.complete(catchThrowable(() -> app.submit("follow-up", 1, c -> "over the limit")));
            return "held the only slot";
        });

        backplane.shutdown(Duration.ofSeconds(10));
        Throwable outside = catchThrowable(() -> echo.call("from outside"));
        backplane.stepper().runUntilIdle(); // drains, then the components go DOWN
        Throwable stateAfterDown = catchThrowable(() -> echo.call("after DOWN"));

        assertThat(outside).isInstanceOfSatisfying(BackplaneRejectedException.class, e -> {
            assertThat(e.reason()).isEqualTo(Reason.CLOSED);
            assertThat(e.isRetryable()).isFalse();
        });
        assertThat(limitDuringDrain.join()).isInstanceOfSatisfying(BackplaneRejectedException.class, e -> {
            assertThat(e.reason()).isEqualTo(Reason.COMPONENT_LIMIT);
            assertThat(e.isRetryable()).isFalse();
        });
        assertThat(stateAfterDown).isInstanceOfSatisfying(BackplaneRejectedException.class, e -> {
            assertThat(e.reason()).isIn(Reason.STATE, Reason.CLOSED);
            assertThat(e.isRetryable()).isFalse();
        });
    }

    @Test
    void aStateRejectionIsRetryableBeforeShutdownAndNotOnceShutdownBegan() {
        startStepMode();
        BackplaneComponent db = backplane.install(ComponentSpec.named("db"));
        ActionEndpoint<String, String> query = db.endpoint(EndpointSpec.named("query", (ctx, request) -> request));
        backplane.moveTo(ComponentState.DOWN); // DOWN by a move of its own, not a shutdown
        backplane.stepper().runUntilIdle();
        Throwable beforeShutdown = catchThrowable(() -> query.call("y"));
        assertThat(beforeShutdown).isInstanceOfSatisfying(BackplaneRejectedException.class, e -> {
            assertThat(e.reason()).isEqualTo(Reason.STATE);
            assertThat(e.isRetryable()).as("not shutting down: it may be brought up again elsewhere").isTrue();
        });

        backplane.shutdown(Duration.ofSeconds(10));
        Throwable during = catchThrowable(() -> query.call("z"));

        assertThat(during).isInstanceOfSatisfying(BackplaneRejectedException.class, e -> {
            assertThat(e.reason()).isEqualTo(Reason.STATE);
            assertThat(e.isRetryable()).isFalse();
        }).hasMessageContaining("shutting down");
    }

    @Test
    void closeFromOneOfItsOwnActionsFailsAtOnceWithAClearMessage() throws Exception {
        backplane = Backplane.builder("closing").policy(BackplanePolicy.builder().threads(1).build()).build();
        BackplaneComponent app = backplane.install(ComponentSpec.named("app"));

        CompletableFuture<Object> closedFromInside = app.submit("a", 1, ctx -> {
            ctx.backplane().close();
            return "closed";
        });

        ExecutionException failed = org.junit.jupiter.api.Assertions.assertThrows(ExecutionException.class,
                () -> closedFromInside.get(10, TimeUnit.SECONDS)); // at once: waiting, close() would wait for the drain, which waits for this action
        assertThat(failed.getCause()).isInstanceOf(IllegalStateException.class)
                .hasMessageContainingAll("close()", "'closing'", "own actions", "shutdown(drainTimeout)");
        assertThat(backplane.isShutdown()).isFalse();
        assertThat(app.submit("b", 1, ctx -> "still running").get(10, TimeUnit.SECONDS)).isEqualTo("still running");
    }

    @Test
    void withWorkerThreadsMultiHopWorkDrainsAndTheDownHooksRunAfterIt() throws Exception {
        backplane = Backplane.builder("threaded").policy(BackplanePolicy.builder().threads(2).build()).build();
        BackplaneComponent downstream = backplane.install(ComponentSpec.named("downstream")
                .onEnter(ComponentState.DOWN, logs("downstream")));
        BackplaneComponent upstream = backplane.install(ComponentSpec.named("upstream").dependsOn("downstream")
                .onEnter(ComponentState.DOWN, logs("upstream")));
        backplane.moveTo(ComponentState.PRIMARY).get(10, TimeUnit.SECONDS);
        CompletableFuture<String> gate = new CompletableFuture<>();
        CompletableFuture<String> hops = new CompletableFuture<>();
        for (int i = 0; i < 50; i++) {
            int n = i;
            upstream.submit("u" + n, 2, ctx -> ctx.awaitReply(gate, (c, value, failure) -> {
                // the reply arrives during the drain; its handler submits the next hop
                downstream.submit("d" + n, 3, c2 -> {
                    log.add("hop " + n);
                    if (n == 49) {
                        hops.complete("done");
                    }
                    return null;
                });
                return value;
            }));
        }

        CompletableFuture<ShutdownReport> shutdown = backplane.shutdown(Duration.ofSeconds(30));
        gate.complete("go");
        ShutdownReport report = shutdown.get(60, TimeUnit.SECONDS);

        assertThat(hops).isCompletedWithValue("done");
        assertThat(report).isEqualTo(new ShutdownReport(100, 0));
        assertThat(log.stream().filter(s -> s.startsWith("hop"))).hasSize(50);
        assertThat(log.subList(50, log.size())).containsExactly("upstream DOWN", "downstream DOWN");
    }

    private static Throwable failureOf(CompletableFuture<?> future) {
        assertThat(future).isDone();
        Throwable failure = future.handle((value, t) -> t).join();
        return failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
    }
}
