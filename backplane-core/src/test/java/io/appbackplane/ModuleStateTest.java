package io.appbackplane;

import static io.appbackplane.ComponentState.DOWN;
import static io.appbackplane.ComponentState.INITIALIZING;
import static io.appbackplane.ComponentState.PRIMARY;
import static io.appbackplane.ComponentState.SECONDARY;
import static io.appbackplane.ComponentState.START;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Modules and states (docs/scheduling.md): components as modules, brought up and down in dependency order. */
class ModuleStateTest {

    private final ManualClock clock = new ManualClock();
    private final Backplane backplane = Backplane.builder("bp").clock(clock).stepMode().build();
    private final List<String> entered = new CopyOnWriteArrayList<>();

    @AfterEach
    void close() {
        backplane.close();
    }

    /** A component that records every state it enters as "name:STATE". */
    private ComponentSpec recording(String name, String... dependencies) {
        ComponentSpec spec = ComponentSpec.named(name).dependsOn(dependencies);
        for (ComponentState state : List.of(INITIALIZING, PRIMARY, SECONDARY, DOWN)) {
            spec = spec.onEnter(state, (ctx, from, to) -> entered.add(name + ":" + to));
        }
        return spec;
    }

    /**
     * db ← cache, db ← auth, {cache, auth} ← api (a diamond), api ← web; metrics stands alone. The
     * backplane's own component ("bp") is recorded too.
     */
    private void installDiamond() {
        backplane.install(recording("web", "api"));
        backplane.install(recording("api", "cache", "auth"));
        backplane.install(recording("cache", "db"));
        backplane.install(recording("auth", "db"));
        backplane.install(recording("db"));
        backplane.install(recording("metrics"));
    }

    private <T> T runUntilDone(CompletableFuture<T> future) {
        backplane.stepper().runUntilIdle();
        assertThat(future).isDone();
        return future.join();
    }

    private void assertEnteredBefore(String first, String then) {
        assertThat(entered).contains(first, then);
        assertThat(entered.indexOf(first)).as(first + " before " + then).isLessThan(entered.indexOf(then));
    }

    private void assertAllIn(ComponentState state) {
        assertThat(backplane.components()).allSatisfy(c -> assertThat(c.state()).as(c.name()).isEqualTo(state));
    }

    @Test
    void bringUpEntersEachStateOnlyAfterEveryDependencyReachedIt() {
        installDiamond();
        assertAllIn(START);

        runUntilDone(backplane.moveTo(PRIMARY));

        assertAllIn(PRIMARY);
        assertThat(backplane.state()).isEqualTo(PRIMARY);
        for (ComponentState state : List.of(INITIALIZING, PRIMARY)) {
            assertEnteredBefore("db:" + state, "cache:" + state);
            assertEnteredBefore("db:" + state, "auth:" + state);
            assertEnteredBefore("cache:" + state, "api:" + state);
            assertEnteredBefore("auth:" + state, "api:" + state);
            assertEnteredBefore("api:" + state, "web:" + state);
        }
        for (String name : List.of("web", "api", "cache", "auth", "db", "metrics")) {
            assertEnteredBefore(name + ":INITIALIZING", name + ":PRIMARY");
        }
        assertThat(entered).hasSize(12); // each of six components entered two states, once
    }

    @Test
    void theBackplanesOwnComponentMovesFirstUpAndLastDown() {
        backplane.install(ComponentSpec.named("app"));
        assertThat(backplane.state()).isEqualTo(START);
        runUntilDone(backplane.moveTo(PRIMARY));
        assertThat(backplane.self().state()).isEqualTo(PRIMARY);
        assertThat(backplane.components()).first().isSameAs(backplane.self());
        assertThat(backplane.self().name()).isEqualTo("bp");
        List<String> bp = new CopyOnWriteArrayList<>();

        // Ordering is visible through the states seen by a hook of the installed component.
        Backplane other = Backplane.builder("other").clock(clock).stepMode().build();
        try {
            other.install(ComponentSpec.named("app")
                    .onEnter(INITIALIZING, (ctx, from, to) -> bp.add("up, backplane in " + other.state()))
                    .onEnter(DOWN, (ctx, from, to) -> bp.add("down, backplane in " + other.state())));
            other.moveTo(PRIMARY);
            other.stepper().runUntilIdle();
            other.moveTo(DOWN);
            other.stepper().runUntilIdle();
            // The backplane's component moved up first (app's INITIALIZING waits only for its
            // INITIALIZING; its PRIMARY may come before or after app's INITIALIZING) and down last.
            assertThat(bp).hasSize(2);
            assertThat(bp.get(0)).isIn("up, backplane in INITIALIZING", "up, backplane in PRIMARY");
            assertThat(bp.get(1)).isEqualTo("down, backplane in PRIMARY");
            assertThat(other.state()).isEqualTo(DOWN);
        } finally {
            other.close();
        }
    }

    @Test
    void shutDownTakesDependentsFirst() {
        installDiamond();
        runUntilDone(backplane.moveTo(PRIMARY));
        entered.clear();

        runUntilDone(backplane.moveTo(DOWN));

        assertAllIn(DOWN);
        assertEnteredBefore("web:DOWN", "api:DOWN");
        assertEnteredBefore("api:DOWN", "cache:DOWN");
        assertEnteredBefore("api:DOWN", "auth:DOWN");
        assertEnteredBefore("cache:DOWN", "db:DOWN");
        assertEnteredBefore("auth:DOWN", "db:DOWN");
        assertThat(entered).hasSize(6);
    }

    @Test
    void rolesSwitchAtRunTimeBothWaysInDependencyOrder() {
        installDiamond();
        runUntilDone(backplane.moveTo(PRIMARY));
        entered.clear();

        runUntilDone(backplane.moveTo(SECONDARY));
        assertAllIn(SECONDARY);
        assertEnteredBefore("db:SECONDARY", "api:SECONDARY");
        assertEnteredBefore("api:SECONDARY", "web:SECONDARY");

        runUntilDone(backplane.moveTo(PRIMARY));
        assertAllIn(PRIMARY);
        assertThat(entered).filteredOn(e -> e.endsWith(":PRIMARY")).hasSize(6);
    }

    @Test
    void aFailingHookStopsTheBringUpNamingComponentAndStateAndLeavesAConsistentState() {
        backplane.install(recording("db"));
        backplane.install(ComponentSpec.named("cache").dependsOn("db").onEnter(PRIMARY, (ctx, from, to) -> {
            throw new IllegalStateException("cache warm-up failed");
        }));
        backplane.install(recording("auth", "db"));
        backplane.install(recording("api", "cache", "auth"));

        CompletableFuture<Void> move = backplane.moveTo(PRIMARY);
        backplane.stepper().runUntilIdle();

        assertThat(move).isCompletedExceptionally();
        assertThatThrownBy(move::join)
                .hasCauseInstanceOf(ComponentStateException.class)
                .cause()
                .hasMessageContaining("component 'cache' failed to enter PRIMARY")
                .hasMessageContaining("cache warm-up failed")
                .satisfies(e -> {
                    ComponentStateException failure = (ComponentStateException) e;
                    assertThat(failure.component()).isEqualTo("cache");
                    assertThat(failure.state()).isEqualTo(PRIMARY);
                });
        // What the failure does not touch is up; the failed component and what depends on it stay put.
        assertThat(state("db")).isEqualTo(PRIMARY);
        assertThat(state("auth")).isEqualTo(PRIMARY);
        assertThat(state("cache")).isEqualTo(INITIALIZING);
        assertThat(state("api")).isEqualTo(INITIALIZING);
        assertThat(entered).doesNotContain("api:PRIMARY");
        assertThat(backplane.statistics().components())
                .filteredOn(c -> c.name().equals("cache"))
                .singleElement()
                .satisfies(c -> assertThat(c.state()).isEqualTo(INITIALIZING));

        // The state is consistent enough to go down cleanly.
        runUntilDone(backplane.moveTo(DOWN));
        assertAllIn(DOWN);
    }

    private ComponentState state(String component) {
        return backplane.component(component).orElseThrow().state();
    }

    @Test
    void aDependencyCycleIsRejectedBeforeAnythingMovesNamingItsComponents() {
        backplane.install(ComponentSpec.named("a").dependsOn("b"));
        backplane.install(ComponentSpec.named("b").dependsOn("c"));
        backplane.install(ComponentSpec.named("c").dependsOn("a"));
        backplane.install(ComponentSpec.named("d"));

        assertThatThrownBy(() -> backplane.moveTo(PRIMARY))
                .isInstanceOf(ComponentGraphException.class)
                .hasMessageContaining("dependency cycle")
                .hasMessageContaining("a → b → c → a")
                .satisfies(e -> assertThat(((ComponentGraphException) e).cycle()).containsExactly("a", "b", "c", "a"));
        assertThat(backplane.stepper().runUntilIdle()).isZero();
        assertAllIn(START);
    }

    @Test
    void aMissingDependencyIsRejectedBeforeAnythingMovesNamingIt() {
        backplane.install(ComponentSpec.named("orders").dependsOn("inventory"));
        backplane.install(ComponentSpec.named("billing"));

        assertThatThrownBy(() -> backplane.moveTo(PRIMARY))
                .isInstanceOf(ComponentGraphException.class)
                .hasMessageContaining("component 'orders' depends on 'inventory', which is not installed")
                .satisfies(e -> {
                    ComponentGraphException g = (ComponentGraphException) e;
                    assertThat(g.missingDependency()).isEqualTo("inventory");
                    assertThat(g.dependent()).isEqualTo("orders");
                });
        assertAllIn(START);
    }

    @Test
    void aComponentCannotDependOnItselfOrHookStart() {
        assertThatThrownBy(() -> ComponentSpec.named("x").dependsOn("x"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("cannot depend on itself");
        assertThatThrownBy(() -> ComponentSpec.named("x").onEnter(START, (ctx, from, to) -> {}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("allowed: INITIALIZING, PRIMARY, SECONDARY, DOWN");
    }

    @Test
    void nothingLeavesDown() {
        backplane.install(ComponentSpec.named("app"));
        runUntilDone(backplane.moveTo(DOWN));
        assertThatThrownBy(() -> backplane.moveTo(PRIMARY))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("cannot move to PRIMARY")
                .hasMessageContaining("allowed: START → INITIALIZING → PRIMARY or SECONDARY");
    }

    @Test
    void transitionsRunAsActionsOnTheComponentsOwnObjectInOrderWithItsOtherWork() {
        List<String> log = new CopyOnWriteArrayList<>();
        BackplaneComponent app = backplane.install(ComponentSpec.named("app").onEnter(INITIALIZING, (ctx, from, to) -> {
            log.add("hook on " + ctx.objectKey() + " of " + ctx.component().name() + " at priority " + ctx.priority()
                    + ", " + from + " → " + to);
        }));
        app.submit(BackplaneComponent.COMPONENT_KEY, 3, ctx -> log.add("earlier work"));

        runUntilDone(backplane.moveTo(INITIALIZING));

        assertThat(log).containsExactly(
                "earlier work", // queued first on the same object: FIFO even though the transition is more urgent
                "hook on <component> of app at priority 0, START → INITIALIZING");
        assertThat(app.state()).isEqualTo(INITIALIZING);
    }

    @Test
    void transitionsAreNotThrottledAndRunWhileTheBackplaneDrains() {
        BackplaneComponent app = backplane.install(ComponentSpec.named("app").withOperationLimit(1));
        CompletableFuture<String> busy = app.submit("busy", 3, ctx -> "kept the only slot");
        CompletableFuture<Void> up = backplane.moveTo(PRIMARY); // not rejected although the component is at its limit
        assertThat(backplane.stepper().runNext().objectKey()).isSameAs(BackplaneComponent.COMPONENT_KEY);

        CompletableFuture<Backplane.ShutdownReport> shutdown = backplane.shutdown(Duration.ofSeconds(10));
        assertThatThrownBy(() -> app.submit("new", 1, ctx -> "refused"))
                .isInstanceOf(BackplaneRejectedException.class);
        CompletableFuture<Void> down = backplane.moveTo(DOWN); // accepted while draining

        backplane.stepper().runUntilIdle();
        assertThat(up).isCompletedWithValue(null);
        assertThat(down).isCompletedWithValue(null);
        assertThat(busy).isCompletedWithValue("kept the only slot");
        assertAllIn(DOWN);
        assertThat(shutdown).isCompleted();
    }

    @Test
    void withWorkerThreadsTheWholeGraphComesUpAndGoesDown() throws Exception {
        Backplane threaded = Backplane.builder("threaded").policy(BackplanePolicy.builder().threads(2).build()).build();
        try {
            for (String name : List.of("db", "cache", "auth", "api")) {
                threaded.install(ComponentSpec.named(name).dependsOn(switch (name) {
                    case "cache", "auth" -> new String[] {"db"};
                    case "api" -> new String[] {"cache", "auth"};
                    default -> new String[0];
                }));
            }
            threaded.moveTo(PRIMARY).get(10, TimeUnit.SECONDS);
            assertThat(threaded.components()).allSatisfy(c -> assertThat(c.state()).isEqualTo(PRIMARY));
            threaded.moveTo(DOWN).get(10, TimeUnit.SECONDS);
            assertThat(threaded.components()).allSatisfy(c -> assertThat(c.state()).isEqualTo(DOWN));
        } finally {
            threaded.shutdown(Duration.ofSeconds(5)).get(10, TimeUnit.SECONDS);
        }
    }
}
