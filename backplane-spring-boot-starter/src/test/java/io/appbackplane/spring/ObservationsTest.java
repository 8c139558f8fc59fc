package io.appbackplane.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.appbackplane.spring.annotation.AppComponent;
import io.appbackplane.spring.annotation.Endpoint;
import io.appbackplane.spring.annotation.ObjectKey;
import io.appbackplane.spring.autoconfigure.BackplaneAutoConfiguration;
import io.appbackplane.spring.observation.BackplaneObservationAutoConfiguration;
import io.appbackplane.spring.observation.BackplaneActionContext;
import io.appbackplane.spring.observation.BackplaneActionObservationConvention;
import io.appbackplane.spring.observation.BackplaneActionQueueObservationConvention;
import io.appbackplane.spring.observation.BackplaneObservations;
import io.appbackplane.spring.observation.DefaultBackplaneActionObservationConvention;
import io.appbackplane.spring.observation.DefaultBackplaneActionQueueObservationConvention;
import io.micrometer.common.KeyValues;
import io.micrometer.observation.Observation;
import io.micrometer.observation.tck.TestObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistryAssert;
import io.appbackplane.spring.autoconfigure.BackplaneRegistry;
import io.appbackplane.BackplaneComponent;
import io.micrometer.observation.ObservationHandler;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** {@code backplane.observations.enabled}: a queue-wait and a run Observation per action. */
class ObservationsTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(BackplaneAutoConfiguration.class, BackplaneObservationAutoConfiguration.class))
            .withUserConfiguration(App.class)
            .withPropertyValues("backplane.configs.default.threads=1");

    @Test
    void offByDefault_noObservations() {
        runner.run(context -> {
            assertThat(context).hasNotFailed().doesNotHaveBean(BackplaneObservations.class);
            context.getBean(Shop.class).buy("a").get(10, TimeUnit.SECONDS);
            TestObservationRegistryAssert.assertThat(context.getBean(TestObservationRegistry.class)).doesNotHaveAnyObservation();
        });
    }

    @Test
    void on_anActionSubmittedUnderTheCallersObservation_hasAQueueAndARunObservationUnderIt() {
        runner.withPropertyValues("backplane.observations.enabled=true").run(context -> {
            assertThat(context).hasNotFailed().hasSingleBean(BackplaneObservations.class);
            TestObservationRegistry registry = context.getBean(TestObservationRegistry.class);
            Observation caller = Observation.start("http.request", registry);
            Shop shop = context.getBean(Shop.class);
            CompletableFuture<String> bought = caller.scoped(() -> shop.buy("a"));
            assertThat(bought.get(10, TimeUnit.SECONDS)).isEqualTo("a");
            caller.stop();
            // @AppComponent endpoints run at priority 1 by default
            TestObservationRegistryAssert.assertThat(registry)
                    .hasAnObservation(o -> o.hasNameEqualTo(BackplaneObservations.QUEUE)
                            .hasLowCardinalityKeyValue("backplane", "default").hasLowCardinalityKeyValue("component", "shop")
                            .hasLowCardinalityKeyValue("priority", "1")
                            .hasParentObservationEqualTo(caller))
                    .hasAnObservation(o -> o.hasNameEqualTo(BackplaneObservations.RUN)
                            .hasLowCardinalityKeyValue("backplane", "default").hasLowCardinalityKeyValue("component", "shop")
                            .hasLowCardinalityKeyValue("priority", "1")
                            .doesNotHaveError().hasParentObservationEqualTo(caller))
                    .hasObservationWithNameEqualTo(BackplaneObservations.QUEUE).that().hasBeenStarted().hasBeenStopped()
                    .backToTestObservationRegistry()
                    .hasObservationWithNameEqualTo(BackplaneObservations.RUN).that().hasBeenStarted().hasBeenStopped();
        });
    }

    @Test
    void on_aFailingAction_itsRunObservationCarriesTheError() {
        runner.withPropertyValues("backplane.observations.enabled=true").run(context -> {
            TestObservationRegistry registry = context.getBean(TestObservationRegistry.class);
            assertThatThrownBy(() -> context.getBean(Shop.class).fail("b").get(10, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class).hasRootCauseMessage("out of stock: b");
            TestObservationRegistryAssert.assertThat(registry)
                    .hasAnObservation(o -> o.hasNameEqualTo(BackplaneObservations.RUN).hasLowCardinalityKeyValue("component", "shop")
                            .assertThatError().hasMessage("out of stock: b"))
                    .hasAnObservation(o -> o.hasNameEqualTo(BackplaneObservations.QUEUE).hasLowCardinalityKeyValue("component", "shop")
                            .doesNotHaveParentObservation());
        });
    }

    @Test
    void on_anActionCancelledWhileQueued_itsQueueObservationStopsWithTheCancellation() {
        runner.withPropertyValues("backplane.observations.enabled=true").run(context -> {
            TestObservationRegistry registry = context.getBean(TestObservationRegistry.class);
            List<Observation.Context> started = new CopyOnWriteArrayList<>(); // from here on: the state transitions are done
            List<Observation.Context> stopped = new CopyOnWriteArrayList<>();
            registry.observationConfig().observationHandler(new ObservationHandler<>() {
                @Override
                public boolean supportsContext(Observation.Context c) {
                    return true;
                }

                @Override
                public void onStart(Observation.Context c) {
                    started.add(c);
                }

                @Override
                public void onStop(Observation.Context c) {
                    stopped.add(c);
                }
            });
            Shop shop = context.getBean(Shop.class);
            CompletableFuture<String> holding = shop.hold("x"); // the one worker runs it until the gate opens
            assertThat(Shop.HOLDING.await(10, TimeUnit.SECONDS)).isTrue();
            CompletableFuture<String> queued = shop.buy("x"); // queued behind it on the same object

            BackplaneComponent component = context.getBean(BackplaneRegistry.class).get("default").component("shop").orElseThrow();
            assertThat(component.cancelQueued("x")).isOne();
            Shop.GATE.countDown();
            assertThat(holding.get(10, TimeUnit.SECONDS)).isEqualTo("x");
            assertThatThrownBy(() -> queued.get(10, TimeUnit.SECONDS)).isInstanceOf(CancellationException.class);

            // two queue waits, one run (the cancelled action never ran), and every observation started is stopped
            assertThat(started).extracting(Observation.Context::getName).containsExactlyInAnyOrder(
                    BackplaneObservations.QUEUE, BackplaneObservations.RUN, BackplaneObservations.QUEUE);
            assertThat(stopped).containsExactlyInAnyOrderElementsOf(started);
            assertThat(stopped).filteredOn(c -> c.getError() != null).singleElement()
                    .satisfies(c -> assertThat(c.getError()).isInstanceOf(CancellationException.class));
        });
    }

    @Test
    void on_aRunConventionBeanOfTheApplication_replacesTheDefaultOne() {
        runner.withPropertyValues("backplane.observations.enabled=true")
                .withBean(BackplaneActionObservationConvention.class, TenantRunConvention::new)
                .run(context -> {
                    TestObservationRegistry registry = context.getBean(TestObservationRegistry.class);
                    assertThat(context.getBean(Shop.class).buy("a").get(10, TimeUnit.SECONDS)).isEqualTo("a");
                    TestObservationRegistryAssert.assertThat(registry)
                            .hasAnObservation(o -> o.hasNameEqualTo("shop.work").hasContextualNameEqualTo("work in shop")
                                    .hasLowCardinalityKeyValue("component", "shop").hasLowCardinalityKeyValue("tenant", "acme"))
                            .hasNumberOfObservationsWithNameEqualTo(BackplaneObservations.RUN, 0)
                            .hasAnObservation(o -> o.hasNameEqualTo(BackplaneObservations.QUEUE)
                                    .hasContextualNameEqualTo("queue shop").hasLowCardinalityKeyValue("priority", "1")
                                    .doesNotHaveLowCardinalityKeyValueWithKey("tenant"));
                });
    }

    @Test
    void on_aQueueConventionBeanOfTheApplication_replacesTheDefaultOne() {
        runner.withPropertyValues("backplane.observations.enabled=true")
                .withBean(BackplaneActionQueueObservationConvention.class, () -> new DefaultBackplaneActionQueueObservationConvention() {
                    @Override
                    public String getName() {
                        return "shop.wait";
                    }
                })
                .run(context -> {
                    TestObservationRegistry registry = context.getBean(TestObservationRegistry.class);
                    assertThat(context.getBean(Shop.class).buy("a").get(10, TimeUnit.SECONDS)).isEqualTo("a");
                    TestObservationRegistryAssert.assertThat(registry)
                            .hasAnObservation(o -> o.hasNameEqualTo("shop.wait").hasContextualNameEqualTo("queue shop")
                                    .hasLowCardinalityKeyValue("component", "shop"))
                            .hasNumberOfObservationsWithNameEqualTo(BackplaneObservations.QUEUE, 0)
                            .hasObservationWithNameEqualTo(BackplaneObservations.RUN);
                });
    }

    @Test
    void on_theDocumentedConventionBean_addsItsTagToTheDefaults() {
        runner.withPropertyValues("backplane.observations.enabled=true").withUserConfiguration(RegionTag.class).run(context -> {
            TestObservationRegistry registry = context.getBean(TestObservationRegistry.class);
            assertThat(context.getBean(Shop.class).buy("a").get(10, TimeUnit.SECONDS)).isEqualTo("a");
            TestObservationRegistryAssert.assertThat(registry)
                    .hasAnObservation(o -> o.hasNameEqualTo(BackplaneObservations.RUN).hasContextualNameEqualTo("run shop")
                            .hasLowCardinalityKeyValue("backplane", "default").hasLowCardinalityKeyValue("component", "shop")
                            .hasLowCardinalityKeyValue("priority", "1").hasLowCardinalityKeyValue("region", "eu-west"));
        });
    }

    @Configuration(proxyBeanMethods = false)
    static class RegionTag {
        // docs:operations:observation-convention BEGIN
        @Bean
        BackplaneActionObservationConvention backplaneRunConvention() {
            return new DefaultBackplaneActionObservationConvention() {
                @Override
                public KeyValues getLowCardinalityKeyValues(BackplaneActionContext context) {
                    return super.getLowCardinalityKeyValues(context).and("region", "eu-west");
                }
            };
        }
        // docs:operations:observation-convention END
    }

    /** An application's run convention: its own name and contextual name, the default tags plus one. */
    static class TenantRunConvention extends DefaultBackplaneActionObservationConvention {
        @Override
        public String getName() {
            return "shop.work";
        }

        @Override
        public String getContextualName(BackplaneActionContext context) {
            return "work in " + context.component();
        }

        @Override
        public KeyValues getLowCardinalityKeyValues(BackplaneActionContext context) {
            return super.getLowCardinalityKeyValues(context).and("tenant", "acme");
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class App {
        @Bean
        TestObservationRegistry testObservationRegistry() {
            return TestObservationRegistry.create();
        }

        @Bean
        Shop shop() {
            return new Shop();
        }
    }

    @AppComponent
    static class Shop {
        @Endpoint
        CompletableFuture<String> buy(@ObjectKey String item) {
            return CompletableFuture.completedFuture(item);
        }

        static final CountDownLatch HOLDING = new CountDownLatch(1); // static: the bean is a proxy
        static final CountDownLatch GATE = new CountDownLatch(1);

        @Endpoint
        CompletableFuture<String> hold(@ObjectKey String item) throws InterruptedException {
            HOLDING.countDown();
            GATE.await(10, TimeUnit.SECONDS);
            return CompletableFuture.completedFuture(item);
        }

        @Endpoint
        CompletableFuture<String> fail(@ObjectKey String item) {
            throw new IllegalStateException("out of stock: " + item);
        }
    }
}
