package io.appbackplane.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.appbackplane.BackplaneRejectedException;
import io.appbackplane.spring.annotation.AppComponent;
import io.appbackplane.spring.annotation.Endpoint;
import io.appbackplane.spring.annotation.ObjectKey;
import io.appbackplane.spring.autoconfigure.BackplaneAutoConfiguration;
import io.appbackplane.spring.metrics.BackplaneMeters;
import io.appbackplane.spring.metrics.BackplaneMetrics;
import io.appbackplane.spring.metrics.BackplaneMetricsAutoConfiguration;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.lang.ref.WeakReference;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * {@code backplane.*} meters, read from a plain {@link SimpleMeterRegistry} bean that Spring Boot's
 * metrics auto-configuration binds the starter's {@code MeterBinder} to.
 */
class MetricsTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(MetricsAutoConfiguration.class, CompositeMeterRegistryAutoConfiguration.class,
                    BackplaneAutoConfiguration.class, BackplaneMetricsAutoConfiguration.class))
            .withUserConfiguration(App.class)
            .withPropertyValues("backplane.configs.default.threads=1", "backplane.configs.default.cpu-limit=2",
                    "backplane.components.shop.operation-limit=5",
                    // every priority may fill the whole limit, so the shop's five requests at priority 1 fit
                    "backplane.components.shop.admission-reserve=0");

    @Test
    void everyDocumentedMeterIsRegisteredWithItsTags() {
        runner.run(context -> {
            assertThat(context).hasNotFailed().hasSingleBean(BackplaneMetrics.class);
            MeterRegistry meters = context.getBean(MeterRegistry.class);
            for (String name : meterNames()) {
                assertThat(meters.find(name).tag("backplane", "default").meters()).as(name).isNotEmpty();
            }
            assertThat(tagKeys(meters, BackplaneMeters.REQUESTS)).containsExactlyInAnyOrder("backplane", "component", "outcome");
            assertThat(tagKeys(meters, BackplaneMeters.ENDPOINT_REQUESTS))
                    .containsExactlyInAnyOrder("backplane", "component", "endpoint", "outcome");
            assertThat(tagKeys(meters, BackplaneMeters.ACTION_RUN)).containsExactlyInAnyOrder("backplane", "component");
            assertThat(tagKeys(meters, BackplaneMeters.READY_DEPTH)).containsExactlyInAnyOrder("backplane", "priority");
            assertThat(tagKeys(meters, BackplaneMeters.THREADS)).containsExactlyInAnyOrder("backplane", "state");
            assertThat(meters.find(BackplaneMeters.READY_DEPTH).gauges()).hasSize(8);
            assertThat(meters.find(BackplaneMeters.REQUESTS).tag("component", "shop").counters()).isEmpty();
            assertThat(meters.find(BackplaneMeters.REQUESTS).tag("component", "shop").functionCounters())
                    .extracting(c -> c.getId().getTag("outcome"))
                    .containsExactlyInAnyOrder("completed", "failed", "rejected");
            assertThat(meters.get(BackplaneMeters.CPU_LIMIT).gauge().value()).isEqualTo(2.0);
            assertThat(meters.get(BackplaneMeters.OPERATION_LIMIT).tag("component", "shop").gauge().value()).isEqualTo(5.0);
            assertThat(meters.get(BackplaneMeters.THREADS).tag("state", "total").gauge().value()).isEqualTo(1.0);
        });
    }

    @Test
    void requestAndActionMetersFollowCompletedFailedAndRejectedRequests() {
        runner.run(context -> {
            MeterRegistry meters = context.getBean(MeterRegistry.class);
            Shop shop = context.getBean(Shop.class);
            double completedBefore = requests(meters, "completed");
            double runsBefore = meters.get(BackplaneMeters.ACTION_RUN).tag("component", "shop").functionTimer().count();

            for (int i = 0; i < 5; i++) {
                assertThat(shop.buy("item-" + i).get(WAIT.toSeconds(), TimeUnit.SECONDS)).isEqualTo("item-" + i);
            }
            for (int i = 0; i < 2; i++) {
                CompletableFuture<String> broken = shop.broken();
                assertThatThrownBy(() -> broken.get(WAIT.toSeconds(), TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class);
            }
            for (int i = 0; i < 5; i++) {
                shop.held("held-" + i);
            }
            assertThatThrownBy(() -> shop.buy("one too many")).isInstanceOfSatisfying(BackplaneRejectedException.class,
                    e -> assertThat(e.reason()).isEqualTo(BackplaneRejectedException.Reason.COMPONENT_LIMIT));

            await().atMost(WAIT).untilAsserted(() -> {
                assertThat(requests(meters, "completed")).isEqualTo(completedBefore + 5);
                assertThat(requests(meters, "failed")).isEqualTo(2);
                assertThat(requests(meters, "rejected")).isEqualTo(1);
                assertThat(meters.get(BackplaneMeters.PRIORITY_REQUESTS).tags("priority", "1", "outcome", "rejected")
                        .functionCounter().count()).isEqualTo(1);
                assertThat(endpointRequests(meters, "buy", "completed")).isEqualTo(5);
                assertThat(endpointRequests(meters, "buy", "rejected")).isEqualTo(1);
                assertThat(endpointRequests(meters, "broken", "failed")).isEqualTo(2);
                assertThat(meters.get(BackplaneMeters.ACTION_RUN).tag("component", "shop").functionTimer().count())
                        .isGreaterThanOrEqualTo(runsBefore + 12);
                assertThat(meters.get(BackplaneMeters.ENDPOINT_RUN).tags("component", "shop", "endpoint", "buy")
                        .functionTimer().count()).isEqualTo(5);
                assertThat(meters.get(BackplaneMeters.OUTSTANDING).tag("component", "shop").gauge().value()).isEqualTo(5);
                assertThat(meters.get(BackplaneMeters.WAITING).gauge().value()).isEqualTo(5);
            });

            shop.pending().values().forEach(reply -> reply.complete("done"));
            await().atMost(WAIT).untilAsserted(() -> {
                assertThat(requests(meters, "completed")).isEqualTo(completedBefore + 10);
                assertThat(meters.get(BackplaneMeters.OUTSTANDING).tag("component", "shop").gauge().value()).isZero();
                assertThat(meters.get(BackplaneMeters.WAITING).gauge().value()).isZero();
            });
        });
    }

    @Test
    void readyDepthAndThreadGaugesFollowABusyBackplane() {
        runner.run(context -> {
            MeterRegistry meters = context.getBean(MeterRegistry.class);
            Shop shop = context.getBean(Shop.class);
            double actionsBefore = meters.get(BackplaneMeters.PRIORITY_ACTIONS).tag("priority", "1").functionCounter().count();
            CountDownLatch gate = new CountDownLatch(1);
            CompletableFuture<String> blocking = shop.block(gate);
            await().atMost(WAIT).until(() -> shop.blocked().getCount() == 0);
            List<CompletableFuture<String>> queued = new ArrayList<>();
            for (String item : List.of("p", "q", "r")) {
                queued.add(shop.buy(item));
            }

            await().atMost(WAIT).untilAsserted(() -> {
                assertThat(meters.get(BackplaneMeters.READY_DEPTH).tag("priority", "1").gauge().value()).isEqualTo(3);
                assertThat(meters.get(BackplaneMeters.THREADS).tag("state", "busy").gauge().value()).isEqualTo(1);
                assertThat(meters.get(BackplaneMeters.THREADS).tag("state", "idle").gauge().value()).isZero();
            });

            gate.countDown();
            blocking.get(WAIT.toSeconds(), TimeUnit.SECONDS);
            CompletableFuture.allOf(queued.toArray(CompletableFuture[]::new)).get(WAIT.toSeconds(), TimeUnit.SECONDS);
            await().atMost(WAIT).untilAsserted(() -> {
                assertThat(meters.get(BackplaneMeters.READY_DEPTH).tag("priority", "1").gauge().value()).isZero();
                assertThat(meters.get(BackplaneMeters.THREADS).tag("state", "busy").gauge().value()).isZero();
                assertThat(meters.get(BackplaneMeters.PRIORITY_ACTIONS).tag("priority", "1").functionCounter().count())
                        .isGreaterThanOrEqualTo(actionsBefore + 4);
                assertThat(meters.get(BackplaneMeters.QUOTA_USED).tag("priority", "1").gauge().value()).isNotNaN();
            });
        });
    }

    @Test
    void metersKeepReportingAfterGarbageCollection() {
        runner.run(context -> {
            MeterRegistry meters = context.getBean(MeterRegistry.class);
            assertThat(context.getBean(Shop.class).buy("before-gc").get(WAIT.toSeconds(), TimeUnit.SECONDS)).isEqualTo("before-gc");
            WeakReference<Object> sentinel = new WeakReference<>(new Object());
            await().atMost(WAIT).until(() -> {
                System.gc();
                return sentinel.get() == null;
            });
            await().atMost(WAIT).untilAsserted(() -> {
                assertThat(meters.get(BackplaneMeters.THREADS).tag("state", "total").gauge().value()).isEqualTo(1.0);
                assertThat(endpointRequests(meters, "buy", "completed")).isEqualTo(1);
            });
        });
    }

    @Test
    void everyMeterRegistryBeanIsBound() {
        runner.withUserConfiguration(SecondRegistry.class).run(context -> {
            Map<String, SimpleMeterRegistry> registries = context.getBeansOfType(SimpleMeterRegistry.class);
            assertThat(registries).hasSize(2);
            registries.forEach((name, meters) -> assertThat(meters.find(BackplaneMeters.REQUESTS).meters()).as(name).isNotEmpty());
        });
    }

    @Test
    void metricsEnabledFalseRemovesTheMeters() {
        runner.withPropertyValues("backplane.metrics.enabled=false").run(context -> {
            assertThat(context).hasNotFailed().doesNotHaveBean(BackplaneMetrics.class);
            assertThat(context.getBean(MeterRegistry.class).getMeters())
                    .noneMatch(m -> m.getId().getName().startsWith("backplane."));
        });
    }

    private static double requests(MeterRegistry meters, String outcome) {
        return meters.get(BackplaneMeters.REQUESTS).tags("component", "shop", "outcome", outcome).functionCounter().count();
    }

    private static double endpointRequests(MeterRegistry meters, String endpoint, String outcome) {
        return meters.get(BackplaneMeters.ENDPOINT_REQUESTS).tags("component", "shop", "endpoint", endpoint, "outcome", outcome)
                .functionCounter().count();
    }

    private static List<String> tagKeys(MeterRegistry meters, String name) {
        Meter meter = meters.find(name).meters().iterator().next();
        return meter.getId().getTags().stream().map(Tag::getKey).toList();
    }

    /** Every public constant of {@link BackplaneMeters} (MeterRegistrationTest uses it too). */
    static List<String> meterNames() {
        return Arrays.stream(BackplaneMeters.class.getFields())
                .filter(f -> Modifier.isStatic(f.getModifiers()) && f.getType() == String.class)
                .map(MetricsTest::value)
                .toList();
    }

    private static String value(Field field) {
        try {
            return (String) field.get(null);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class App {
        @Bean
        SimpleMeterRegistry simpleMeterRegistry() {
            return new SimpleMeterRegistry();
        }

        @Bean
        Shop shop() {
            return new Shop();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class SecondRegistry {
        @Bean
        SimpleMeterRegistry secondMeterRegistry() {
            return new SimpleMeterRegistry();
        }
    }

    @AppComponent
    static class Shop {
        final Map<String, CompletableFuture<String>> pending = new ConcurrentHashMap<>();
        final CountDownLatch blocked = new CountDownLatch(1);

        Map<String, CompletableFuture<String>> pending() {
            return pending;
        }

        CountDownLatch blocked() {
            return blocked;
        }

        @Endpoint
        CompletableFuture<String> buy(@ObjectKey String item) {
            return CompletableFuture.completedFuture(item);
        }

        @Endpoint
        CompletableFuture<String> broken() {
            throw new IllegalStateException("out of order");
        }

        @Endpoint
        CompletableFuture<String> held(@ObjectKey String id) {
            CompletableFuture<String> reply = new CompletableFuture<>();
            pending.put(id, reply);
            return reply;
        }

        @Endpoint
        CompletableFuture<String> block(CountDownLatch gate) throws InterruptedException {
            blocked.countDown();
            assertThat(gate.await(10, TimeUnit.SECONDS)).isTrue();
            return CompletableFuture.completedFuture("unblocked");
        }
    }
}
