package io.appbackplane.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.appbackplane.Backplane;
import io.appbackplane.ComponentState;
import io.appbackplane.spring.annotation.AppComponent;
import io.appbackplane.spring.annotation.OnState;
import io.appbackplane.spring.autoconfigure.BackplaneAutoConfiguration;
import io.appbackplane.spring.autoconfigure.BackplaneFailureAnalyzer;
import io.appbackplane.spring.autoconfigure.BackplaneRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * A start-up that fails (a state hook throws, or components do not come up in time) still takes
 * what came up DOWN — running its DOWN hooks, dependents first — and shuts the backplanes down
 * before the original failure fails the context. Spring never calls stop() on a lifecycle whose
 * start() failed, so nothing else would.
 */
class FailedStartTest {

    private final Transitions transitions = new Transitions();

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(BackplaneAutoConfiguration.class))
            .withBean(Transitions.class, () -> transitions)
            .withPropertyValues("backplane.configs.default.threads=2", "spring.lifecycle.timeout-per-shutdown-phase=10s");

    @Test
    void aFailingPrimaryHookTakesWhatCameUpDownAndShutsTheBackplaneDownBeforeStartUpFails() {
        Set<Thread> before = backplaneThreads();
        runner.withUserConfiguration(FailingPrimaryConfig.class).run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).as("the original failure").hasRootCauseMessage("cannot open the ledger");
            FailureAnalysis analysis = new BackplaneFailureAnalyzer().analyze(context.getStartupFailure());
            assertThat(analysis).isNotNull();
            assertThat(analysis.getDescription()).contains("'fragile'", "PRIMARY");

            assertThat(transitions.log).as("dependents first").containsSubsequence("base PRIMARY", "fragile DOWN", "base DOWN");
            assertThat(transitions.log).containsSubsequence("fragile INITIALIZING", "fragile DOWN");
            assertThat(transitions.log).filteredOn(t -> t.endsWith("DOWN")).hasSize(2);
            Backplane backplane = transitions.registry.get("default");
            assertThat(backplane.components()).allSatisfy(c -> assertThat(c.state()).as(c.name()).isEqualTo(ComponentState.DOWN));
            assertThat(backplane.isShutdown()).isTrue();
        });
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(backplaneThreads())
                .as("the failed context's workers are gone").isSubsetOf(before));
    }

    @Test
    void aComponentWhoseInitializingHookFailedStaysOutOfItsDownHookWhileWhatCameUpRunsIt() {
        runner.withUserConfiguration(FailingInitializingConfig.class).run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).hasRootCauseMessage("no disk");

            assertThat(transitions.log).containsSubsequence("base PRIMARY", "base DOWN");
            assertThat(transitions.log).as("stillborn never left START").doesNotContain("stillborn DOWN");
            Backplane backplane = transitions.registry.get("default");
            assertThat(backplane.components()).allSatisfy(c -> assertThat(c.state()).as(c.name()).isEqualTo(ComponentState.DOWN));
            assertThat(backplane.isShutdown()).isTrue();
        });
    }

    @Test
    void aStartUpTimeoutTakesEveryBackplaneDownOnceItsMoveSettled() {
        // "slow" cannot come up until base's DOWN hook releases it: only the clean-up after the
        // start-up timeout gets either backplane DOWN. Start-up waits for that clean-up no longer
        // than the start-up timeout; it goes on in the background after that.
        runner.withUserConfiguration(TimeoutConfig.class)
                .withPropertyValues("backplane.startup-timeout=200ms", "backplane.instances.slow.threads=1")
                .run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(context.getStartupFailure())
                            .hasStackTraceContaining("did not reach PRIMARY within backplane.startup-timeout");

                    await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
                        assertThat(transitions.log).containsSubsequence("base PRIMARY", "base DOWN", "sluggish PRIMARY", "sluggish DOWN");
                        for (String name : List.of("default", "slow")) {
                            Backplane backplane = transitions.registry.get(name);
                            assertThat(backplane.components()).allSatisfy(c -> assertThat(c.state()).as(c.name()).isEqualTo(ComponentState.DOWN));
                            assertThat(backplane.isShutdown()).as(name).isTrue();
                        }
                    });
                });
    }

    private static Set<Thread> backplaneThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.isAlive() && t.getName().startsWith("backplane-"))
                .collect(Collectors.toSet());
    }

    /** The state hooks that ran, in order, and the registry they ran in. */
    static class Transitions {
        final List<String> log = new CopyOnWriteArrayList<>();
        final CountDownLatch baseDown = new CountDownLatch(1);
        volatile BackplaneRegistry registry;
    }

    @Configuration(proxyBeanMethods = false)
    static class FailingPrimaryConfig {
        @Bean
        Base base(Transitions transitions, BackplaneRegistry registry) {
            return new Base(transitions, registry);
        }

        @Bean
        Fragile fragile(Transitions transitions) {
            return new Fragile(transitions);
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class FailingInitializingConfig {
        @Bean
        Base base(Transitions transitions, BackplaneRegistry registry) {
            return new Base(transitions, registry);
        }

        @Bean
        Stillborn stillborn(Transitions transitions) {
            return new Stillborn(transitions);
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class TimeoutConfig {
        @Bean
        Base base(Transitions transitions, BackplaneRegistry registry) {
            return new Base(transitions, registry);
        }

        @Bean
        Sluggish sluggish(Transitions transitions) {
            return new Sluggish(transitions);
        }
    }

    @AppComponent
    static class Base {
        private final Transitions transitions;

        Base(Transitions transitions, BackplaneRegistry registry) {
            this.transitions = transitions;
            transitions.registry = registry;
        }

        @OnState({ComponentState.PRIMARY, ComponentState.DOWN})
        void entered(ComponentState from, ComponentState to) {
            transitions.log.add("base " + to);
            if (to == ComponentState.DOWN) {
                transitions.baseDown.countDown();
            }
        }
    }

    @AppComponent(dependsOn = "base")
    static class Fragile {
        private final Transitions transitions;

        Fragile(Transitions transitions) {
            this.transitions = transitions;
        }

        @OnState({ComponentState.INITIALIZING, ComponentState.DOWN})
        void entered(ComponentState from, ComponentState to) {
            transitions.log.add("fragile " + to);
        }

        @OnState(ComponentState.PRIMARY)
        void up() {
            throw new IllegalStateException("cannot open the ledger");
        }
    }

    @AppComponent(dependsOn = "base")
    static class Stillborn {
        private final Transitions transitions;

        Stillborn(Transitions transitions) {
            this.transitions = transitions;
        }

        @OnState(ComponentState.INITIALIZING)
        void initialize() {
            throw new IllegalStateException("no disk");
        }

        @OnState(ComponentState.DOWN)
        void down() {
            transitions.log.add("stillborn DOWN");
        }
    }

    /** On its own backplane; comes up only once base went DOWN (its PRIMARY hook waits for that). */
    @AppComponent(backplane = "slow")
    static class Sluggish {
        private final Transitions transitions;

        Sluggish(Transitions transitions) {
            this.transitions = transitions;
        }

        @OnState({ComponentState.PRIMARY, ComponentState.DOWN})
        void entered(ComponentState from, ComponentState to) throws InterruptedException {
            if (to == ComponentState.PRIMARY && !transitions.baseDown.await(20, TimeUnit.SECONDS)) {
                throw new IllegalStateException("base never went DOWN");
            }
            transitions.log.add("sluggish " + to);
        }
    }
}
