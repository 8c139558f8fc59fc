package io.appbackplane.test;

import static org.assertj.core.api.Assertions.assertThat;

import io.appbackplane.Backplane;
import io.appbackplane.BackplaneComponent;
import io.appbackplane.BackplanePolicy;
import io.appbackplane.BackplaneShutdownException;
import io.appbackplane.ComponentSpec;
import io.appbackplane.ManualClock;
import io.appbackplane.Stepper;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The JUnit 5 extension injects a step-mode backplane, its manual clock and its stepper, the same
 * ones into a test and its {@code @BeforeEach}, fresh ones per test, and closes each backplane after
 * its test.
 */
class BackplaneExtensionTest {

    @RegisterExtension
    static BackplaneExtension extension = BackplaneExtension.withPolicy(BackplanePolicy.builder().priorities(4).build());

    private static final List<Backplane> SEEN = new ArrayList<>();
    private static final List<CompletableFuture<?>> LEFT_WAITING = new ArrayList<>();

    private Backplane fromBeforeEach;

    @BeforeEach
    void install(Backplane backplane) {
        fromBeforeEach = backplane;
        backplane.install(ComponentSpec.named("app"));
        backplane.moveTo(io.appbackplane.ComponentState.PRIMARY);
        backplane.stepper().runUntilIdle();
    }

    @Test
    void aTestGetsTheBackplaneOfItsBeforeEachInStepModeWithThePolicy(Backplane backplane, Stepper stepper) {
        SEEN.add(backplane);
        assertThat(backplane).isSameAs(fromBeforeEach);
        assertThat(backplane.policy().priorities()).isEqualTo(4);
        BackplaneComponent app = backplane.component("app").orElseThrow();

        CompletableFuture<String> done = app.submit("k", 1, ctx -> "ran");
        assertThat(done).isNotDone();
        assertThat(stepper.runUntilIdle()).isEqualTo(1);
        assertThat(done).isCompletedWithValue("ran");
    }

    @Test
    void timersFireOnlyAsTheManualClockAdvances(Backplane backplane, ManualClock clock, Stepper stepper) {
        SEEN.add(backplane);
        AtomicInteger fired = new AtomicInteger();
        backplane.component("app").orElseThrow().schedule("k", 1, Duration.ofSeconds(5), ctx -> fired.incrementAndGet());

        clock.advance(Duration.ofSeconds(4));
        stepper.runUntilIdle();
        assertThat(fired).hasValue(0);

        clock.advance(Duration.ofSeconds(1));
        stepper.runUntilIdle();
        assertThat(fired).hasValue(1);
        LEFT_WAITING.add(backplane.component("app").orElseThrow().submit("never-stepped", 1, ctx -> "x"));
    }

    @AfterAll
    static void everyTestHadItsOwnBackplaneAndEachWasClosedAfterIt() {
        assertThat(SEEN).hasSize(2).doesNotHaveDuplicates();
        assertThat(SEEN).allSatisfy(b -> assertThat(b.isShutdown()).isTrue());
        assertThat(LEFT_WAITING).singleElement().satisfies(f -> assertThat(f).isCompletedExceptionally()
                .failsWithin(Duration.ZERO).withThrowableThat().withCauseInstanceOf(BackplaneShutdownException.class));
    }
}
