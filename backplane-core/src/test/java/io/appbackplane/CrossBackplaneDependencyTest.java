package io.appbackplane;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Modules and states (docs/scheduling.md): dependencies may cross linked backplanes of one application. Step mode on one
 * manual clock; the dependent's backplane is always stepped first, so only the cross-backplane wait
 * keeps it from moving before its dependency.
 */
class CrossBackplaneDependencyTest {

    private final ManualClock clock = new ManualClock();
    private final Backplane urgent = Backplane.builder("default").clock(clock).stepMode().build();
    private final Backplane bulk = Backplane.builder("bulk").clock(clock).stepMode().build();
    private final List<String> log = new CopyOnWriteArrayList<>();

    @AfterEach
    void close() {
        bulk.close();
        urgent.close();
    }

    @Test
    void aComponentEntersEachStateAfterItsDependencyInAnotherBackplaneAndGoesDownBeforeIt() {
        Backplane.link(List.of(urgent, bulk));
        urgent.install(logging(ComponentSpec.named("customers")));
        bulk.install(logging(ComponentSpec.named("reports").dependsOn("customers")));

        moveBoth(ComponentState.PRIMARY);
        assertThat(log).hasSize(4).containsSubsequence("customers INITIALIZING", "reports INITIALIZING")
                .containsSubsequence("customers PRIMARY", "reports PRIMARY");

        log.clear();
        moveBoth(ComponentState.DOWN);
        assertThat(log).containsExactly("reports DOWN", "customers DOWN");
    }

    @Test
    void aFailedDependencyFailsTheDependentsMoveInsteadOfLeavingItWaiting() {
        Backplane.link(List.of(urgent, bulk));
        urgent.install(ComponentSpec.named("customers").onEnter(ComponentState.INITIALIZING, (ctx, from, to) -> {
            throw new IllegalStateException("no database");
        }));
        bulk.install(logging(ComponentSpec.named("reports").dependsOn("customers")));

        CompletableFuture<Void> bulkUp = bulk.moveTo(ComponentState.PRIMARY);
        CompletableFuture<Void> urgentUp = urgent.moveTo(ComponentState.PRIMARY);
        stepBoth(bulkUp, urgentUp);

        assertThat(bulkUp).isCompletedExceptionally();
        assertThat(urgentUp).isCompletedExceptionally();
        assertThat(log).isEmpty();
        assertThat(bulk.component("reports").orElseThrow().state()).isEqualTo(ComponentState.START);
    }

    @Test
    void withoutALinkADependencyInAnotherBackplaneIsMissing() {
        urgent.install(ComponentSpec.named("customers"));
        bulk.install(ComponentSpec.named("reports").dependsOn("customers"));

        assertThatThrownBy(() -> bulk.moveTo(ComponentState.PRIMARY)).isInstanceOf(ComponentGraphException.class)
                .hasMessageContaining("reports").hasMessageContaining("customers");
    }

    @Test
    void aNameInNoLinkedBackplaneIsMissingAndNamed() {
        Backplane.link(List.of(urgent, bulk));
        bulk.install(ComponentSpec.named("reports").dependsOn("custmers"));

        assertThatThrownBy(() -> bulk.moveTo(ComponentState.PRIMARY)).isInstanceOf(ComponentGraphException.class)
                .satisfies(e -> assertThat(((ComponentGraphException) e).missingDependency()).isEqualTo("custmers"))
                .satisfies(e -> assertThat(((ComponentGraphException) e).dependent()).isEqualTo("reports"));
    }

    @Test
    void aCycleThroughTwoBackplanesFailsBothMovesBeforeAnythingMovesNamingItsComponents() {
        Backplane.link(List.of(urgent, bulk));
        urgent.install(logging(ComponentSpec.named("customers").dependsOn("reports")));
        bulk.install(logging(ComponentSpec.named("reports").dependsOn("customers")));

        for (Backplane backplane : List.of(urgent, bulk)) {
            assertThatThrownBy(() -> backplane.moveTo(ComponentState.PRIMARY)).isInstanceOf(ComponentGraphException.class)
                    .satisfies(e -> assertThat(((ComponentGraphException) e).cycle()).contains("customers", "reports"));
        }
        assertThat(log).isEmpty();
    }

    private ComponentSpec logging(ComponentSpec spec) {
        String name = spec.name();
        ComponentSpec logged = spec;
        for (ComponentState state : List.of(ComponentState.INITIALIZING, ComponentState.PRIMARY, ComponentState.DOWN)) {
            logged = logged.onEnter(state, (ctx, from, to) -> log.add(name + " " + to));
        }
        return logged;
    }

    /** Moves both backplanes, stepping the dependent's (bulk) first each round. */
    private void moveBoth(ComponentState target) {
        CompletableFuture<Void> bulkMove = bulk.moveTo(target);
        CompletableFuture<Void> urgentMove = urgent.moveTo(target);
        stepBoth(bulkMove, urgentMove);
        assertThat(bulkMove).isCompletedWithValue(null);
        assertThat(urgentMove).isCompletedWithValue(null);
    }

    private void stepBoth(CompletableFuture<?>... moves) {
        for (int round = 0; round < 100 && !CompletableFuture.allOf(moves).isDone(); round++) {
            bulk.stepper().runUntilIdle();
            urgent.stepper().runUntilIdle();
        }
    }
}
