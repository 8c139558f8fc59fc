package io.appbackplane.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.appbackplane.Backplane;
import io.appbackplane.BackplaneRejectedException;
import io.appbackplane.BackplaneShutdownException;
import io.appbackplane.ComponentState;
import io.appbackplane.spring.annotation.AppComponent;
import io.appbackplane.spring.annotation.Endpoint;
import io.appbackplane.spring.annotation.ObjectKey;
import io.appbackplane.spring.annotation.OnState;
import io.appbackplane.spring.autoconfigure.BackplaneAutoConfiguration;
import io.appbackplane.spring.autoconfigure.BackplaneRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Components come up with the context in dependency order and go down with it, leaving nothing pending. */
class LifecycleTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(BackplaneAutoConfiguration.class))
            .withUserConfiguration(App.class)
            .withPropertyValues("backplane.configs.default.threads=2", "spring.lifecycle.timeout-per-shutdown-phase=2s");

    @Test
    void componentsComeUpInDependencyOrderAndGoDownInReverseOrder() {
        runner.run(context -> {
            assertThat(context).hasNotFailed();
            List<String> transitions = context.getBean(Transitions.class).log;
            assertThat(transitions).containsSubsequence("inventory PRIMARY", "orders PRIMARY");
            context.close();
            assertThat(transitions).containsSubsequence("orders DOWN", "inventory DOWN");
        });
    }

    @Test
    void shutdownWithInFlightWorkLeavesNoPendingFutureAndStopsEveryWorker() {
        Set<Thread> before = backplaneThreads();
        runner.run(context -> {
            assertThat(context).hasNotFailed();
            Backplane backplane = context.getBean(BackplaneRegistry.class).get("default");
            Orders orders = context.getBean(Orders.class);
            assertThat(backplaneThreads()).as("the context's workers run").hasSizeGreaterThan(before.size());

            CountDownLatch neverOpened = new CountDownLatch(1);
            List<CompletableFuture<String>> neverAnswered = new ArrayList<>();
            List<CompletableFuture<String>> inFlight = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                neverAnswered.add(orders.neverAnswered("waiting-" + i));
            }
            for (int i = 0; i < 20; i++) {
                inFlight.add(orders.blocking("busy-" + (i % 4), neverOpened));
            }
            for (int i = 0; i < 200; i++) {
                inFlight.add(orders.quick("quick-" + (i % 10)));
            }
            inFlight.addAll(neverAnswered);
            await().atMost(Duration.ofSeconds(10)).until(() -> orders.blockingStarted() >= 2);

            context.close();

            assertThat(inFlight).as("no future is left pending").allMatch(CompletableFuture::isDone);
            assertThat(neverAnswered).as("replies that never came fail at the drain timeout")
                    .allSatisfy(f -> assertThat(failure(f)).isInstanceOf(BackplaneShutdownException.class));
            assertThat(inFlight).filteredOn(CompletableFuture::isCompletedExceptionally)
                    .allSatisfy(f -> assertThat(failure(f))
                            .isInstanceOfAny(BackplaneShutdownException.class, BackplaneRejectedException.class));
            assertThat(backplane.components()).allSatisfy(c -> assertThat(c.state()).as(c.name()).isEqualTo(ComponentState.DOWN));
            assertThat(backplane.isShutdown()).isTrue();
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(backplaneThreads())
                    .as("the context's workers and timer thread are gone").isSubsetOf(before));
        });
    }

    @Test
    void callsAfterTheContextClosedAreRejected() {
        runner.run(context -> {
            Orders orders = context.getBean(Orders.class);
            assertThat(orders.quick("before").get(10, TimeUnit.SECONDS)).isEqualTo("before");
            context.close();
            assertThatThrownBy(() -> orders.quick("after")).isInstanceOfSatisfying(BackplaneRejectedException.class,
                    e -> assertThat(e.reason()).isIn(BackplaneRejectedException.Reason.STATE, BackplaneRejectedException.Reason.CLOSED));
        });
    }

    private static Throwable failure(CompletableFuture<?> future) {
        return future.handle((value, failure) -> failure instanceof CompletionException c ? c.getCause() : failure).join();
    }

    private static Set<Thread> backplaneThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.isAlive() && t.getName().startsWith("backplane-"))
                .collect(Collectors.toSet());
    }

    @Configuration(proxyBeanMethods = false)
    static class App {
        @Bean
        Transitions transitions() {
            return new Transitions();
        }

        @Bean
        Inventory inventory(Transitions transitions) {
            return new Inventory(transitions);
        }

        @Bean
        Orders orders(Transitions transitions) {
            return new Orders(transitions);
        }
    }

    /** The state transitions of both components, in the order they ran. */
    static class Transitions {
        final List<String> log = new CopyOnWriteArrayList<>();
    }

    @AppComponent
    static class Inventory {
        private final Transitions transitions;

        Inventory(Transitions transitions) {
            this.transitions = transitions;
        }

        @OnState({ComponentState.PRIMARY, ComponentState.DOWN})
        void entered(ComponentState from, ComponentState to) {
            transitions.log.add("inventory " + to);
        }
    }

    @AppComponent(dependsOn = "inventory")
    static class Orders {
        final AtomicInteger blockingStarted = new AtomicInteger();

        int blockingStarted() {
            return blockingStarted.get();
        }
        private final Transitions transitions;

        Orders(Transitions transitions) {
            this.transitions = transitions;
        }

        @OnState({ComponentState.PRIMARY, ComponentState.DOWN})
        void entered(ComponentState from, ComponentState to) {
            transitions.log.add("orders " + to);
        }

        @Endpoint
        CompletableFuture<String> neverAnswered(@ObjectKey String id) {
            return new CompletableFuture<>();
        }

        @Endpoint
        CompletableFuture<String> blocking(@ObjectKey String id, CountDownLatch gate) throws InterruptedException {
            blockingStarted.incrementAndGet();
            gate.await(300, TimeUnit.MILLISECONDS); // still running when the context closes; finishes on its own
            return CompletableFuture.completedFuture(id);
        }

        @Endpoint
        CompletableFuture<String> quick(@ObjectKey String id) {
            return CompletableFuture.completedFuture(id);
        }
    }
}
