package io.appbackplane.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.appbackplane.Backplane;
import io.appbackplane.BackplaneComponent;
import io.appbackplane.BackplanePolicy;
import io.appbackplane.BackplaneRejectedException;
import io.appbackplane.ComponentSpec;
import io.appbackplane.ComponentState;
import io.appbackplane.CpuLimit;
import io.appbackplane.spring.actuate.BackplaneActuatorAutoConfiguration;
import io.appbackplane.spring.actuate.BackplaneActuatorEndpoint;
import io.appbackplane.spring.actuate.BackplaneHealthIndicator;
import io.appbackplane.spring.annotation.AppComponent;
import io.appbackplane.spring.annotation.Endpoint;
import io.appbackplane.spring.annotation.ObjectKey;
import io.appbackplane.spring.annotation.OnState;
import io.appbackplane.spring.autoconfigure.BackplaneAutoConfiguration;
import io.appbackplane.spring.autoconfigure.BackplaneProperties;
import io.appbackplane.spring.autoconfigure.BackplaneRegistry;
import io.appbackplane.spring.metrics.BackplaneMetrics;
import io.appbackplane.spring.metrics.BackplaneMetricsAutoConfiguration;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Defaults, {@code backplane.*} binding, back-off to user beans and optional integrations. */
class BackplaneAutoConfigurationTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(BackplaneAutoConfiguration.class,
                    BackplaneActuatorAutoConfiguration.class, BackplaneMetricsAutoConfiguration.class))
            .withPropertyValues("management.endpoints.web.exposure.include=backplane");

    @Test
    void defaultBackplaneExistsWithTheCoreDefaultPolicy() {
        runner.run(context -> {
            assertThat(context).hasNotFailed().hasSingleBean(BackplaneRegistry.class);
            BackplaneRegistry registry = context.getBean(BackplaneRegistry.class);
            assertThat(registry.all()).containsOnlyKeys("default");
            Backplane backplane = registry.get("default");
            BackplanePolicy policy = backplane.policy();
            assertThat(policy).isEqualTo(BackplanePolicy.defaults());
            assertThat(policy.priorities()).isEqualTo(8);
            assertThat(policy.quotas()).containsExactly(BackplanePolicy.UNLIMITED_QUOTA, 100, 50, 25, 12, 12, 12, 12);
            assertThat(policy.cpuLimit().isUnlimited()).isTrue();
            assertThat(policy.integrationPeriod()).isEqualTo(Duration.ofSeconds(1));
            assertThat(policy.threads()).isEqualTo(Math.max(1, Runtime.getRuntime().availableProcessors()));
            assertThat(policy.slowActionThreshold()).isEqualTo(Duration.ofMillis(100));
            assertThat(policy.actionsPerTurn()).isEqualTo(1);
            assertThat(backplane.state()).isEqualTo(ComponentState.PRIMARY);
        });
    }

    @Test
    void defaultTemplateAppliesToEveryBackplaneAndInstanceValuesOverrideIt() {
        runner.withPropertyValues(
                        "backplane.configs.default.threads=2",
                        "backplane.configs.default.priorities=4",
                        "backplane.configs.default.quotas=unlimited,40,20",
                        "backplane.configs.default.cpu-limit=500m",
                        "backplane.configs.default.integration-period=200ms",
                        "backplane.configs.default.slow-action-threshold=1s",
                        "backplane.configs.default.cpu-budget-slices=5",
                        "backplane.configs.default.actions-per-turn=3",
                        "backplane.configs.default.operation-limit=5000",
                        "backplane.instances.bulk.threads=1",
                        "backplane.instances.bulk.cpu-limit=0.25",
                        "backplane.instances.bulk.quotas=unlimited,10,5")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    BackplaneRegistry registry = context.getBean(BackplaneRegistry.class);
                    assertThat(registry.all()).containsOnlyKeys("default", "bulk");
                    assertThat(List.copyOf(registry.all().keySet())).first().isEqualTo("default");

                    BackplanePolicy defaults = registry.get("default").policy();
                    assertThat(defaults.threads()).isEqualTo(2);
                    assertThat(defaults.priorities()).isEqualTo(4);
                    assertThat(defaults.quotas()).containsExactly(BackplanePolicy.UNLIMITED_QUOTA, 40, 20, 25);
                    assertThat(defaults.cpuLimit()).isEqualTo(CpuLimit.ofMillicores(500));
                    assertThat(defaults.integrationPeriod()).isEqualTo(Duration.ofMillis(200));
                    assertThat(defaults.slowActionThreshold()).isEqualTo(Duration.ofSeconds(1));
                    assertThat(defaults.cpuBudgetSlices()).isEqualTo(5);
                    assertThat(defaults.actionsPerTurn()).isEqualTo(3);
                    assertThat(defaults.operationLimit()).isEqualTo(5000);

                    BackplanePolicy bulk = registry.get("bulk").policy();
                    assertThat(bulk.threads()).as("instance over template").isEqualTo(1);
                    assertThat(bulk.cpuLimit()).as("instance over template").isEqualTo(CpuLimit.ofCores(0.25));
                    assertThat(bulk.quotas()).as("instance over template over defaults")
                            .containsExactly(BackplanePolicy.UNLIMITED_QUOTA, 10, 5, 25);
                    assertThat(bulk.priorities()).as("from the template").isEqualTo(4);
                    assertThat(bulk.integrationPeriod()).as("from the template").isEqualTo(Duration.ofMillis(200));
                    assertThat(bulk.operationLimit()).as("from the template").isEqualTo(5000);
                });
    }

    @Test
    void baseConfigSelectsTheTemplateAnInstanceStartsFrom() {
        runner.withPropertyValues(
                        "backplane.configs.default.threads=2",
                        "backplane.configs.batch.threads=1",
                        "backplane.configs.batch.priorities=3",
                        "backplane.configs.batch.cpu-limit=2",
                        "backplane.instances.reports.base-config=batch",
                        "backplane.instances.reports.priorities=2",
                        "backplane.instances.orders.threads=3")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    BackplaneRegistry registry = context.getBean(BackplaneRegistry.class);
                    assertThat(registry.all()).containsOnlyKeys("default", "reports", "orders");

                    BackplanePolicy reports = registry.get("reports").policy();
                    assertThat(reports.threads()).isEqualTo(1);
                    assertThat(reports.priorities()).isEqualTo(2);
                    assertThat(reports.cpuLimit()).isEqualTo(CpuLimit.ofCores(2));

                    BackplanePolicy orders = registry.get("orders").policy();
                    assertThat(orders.threads()).isEqualTo(3);
                    assertThat(orders.priorities()).as("default template, then core default").isEqualTo(8);
                    assertThat(orders.cpuLimit().isUnlimited()).isTrue();

                    assertThat(registry.get("default").policy().threads()).isEqualTo(2);
                    assertThat(registry.get("default").policy().priorities()).isEqualTo(8);
                });
    }

    @Test
    void componentSettingsChooseTheBackplaneAndTheOperationLimit() {
        runner.withUserConfiguration(Components.class)
                .withPropertyValues(
                        "backplane.instances.bulk.threads=1",
                        "backplane.instances.batch.threads=1",
                        "backplane.components.orders.backplane=bulk",
                        "backplane.components.orders.operation-limit=7")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    BackplaneRegistry registry = context.getBean(BackplaneRegistry.class);
                    assertThat(registry.get("default").component("orders")).isEmpty();
                    assertThat(registry.get("bulk").component("orders")).get()
                            .satisfies(c -> assertThat(c.operationLimit()).isEqualTo(7))
                            .satisfies(c -> assertThat(c.state()).isEqualTo(ComponentState.PRIMARY));
                    assertThat(registry.get("batch").component("reports")).as("@AppComponent(backplane)").get()
                            .satisfies(c -> assertThat(c.operationLimit()).isEqualTo(100_000));
                    assertThat(context.getBean(Orders.class).where("o-1").get(5, TimeUnit.SECONDS))
                            .startsWith("backplane-bulk-worker-");
                    assertThat(context.getBean(Reports.class).where().get(5, TimeUnit.SECONDS))
                            .startsWith("backplane-batch-worker-");
                });
    }

    @Test
    void admissionReserveBindsForTemplatesInstancesAndComponents() {
        runner.withUserConfiguration(Components.class)
                .withPropertyValues(
                        "backplane.configs.default.admission-reserve=0.3",
                        "backplane.instances.bulk.threads=1",
                        "backplane.instances.bulk.admission-reserve=0",
                        "backplane.instances.batch.threads=1",
                        "backplane.components.orders.backplane=bulk",
                        "backplane.components.orders.operation-limit=70",
                        "backplane.components.orders.admission-reserve=0.5")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    BackplaneRegistry registry = context.getBean(BackplaneRegistry.class);
                    assertThat(registry.get("default").policy().admissionReserve()).as("from the template").isEqualTo(0.3);
                    assertThat(registry.get("bulk").policy().admissionReserve()).as("the instance's own").isZero();
                    assertThat(registry.get("bulk").component("orders")).get().satisfies(c -> {
                        assertThat(c.admissionReserve()).as("the component's own").isEqualTo(0.5);
                        assertThat(c.admissionThreshold(0)).isEqualTo(70);
                        assertThat(c.admissionThreshold(7)).isEqualTo(35);
                    });
                    assertThat(registry.get("batch").component("reports")).get()
                            .satisfies(c -> assertThat(c.admissionReserve()).as("its backplane's").isEqualTo(0.3));
                });
    }

    @Test
    void idleObjectRetentionBindsPerComponent_zeroReleasesAtOnce_anHourKeepsTheObject() {
        runner.withUserConfiguration(Components.class)
                .withPropertyValues(
                        "backplane.instances.batch.threads=1",
                        "backplane.components.orders.idle-object-retention=0",
                        "backplane.components.reports.idle-object-retention=1h")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    BackplaneRegistry registry = context.getBean(BackplaneRegistry.class);
                    BackplaneComponent orders = registry.get("default").component("orders").orElseThrow();
                    BackplaneComponent reports = registry.get("batch").component("reports").orElseThrow();
                    int ordersBefore = orders.objectCount();
                    int reportsBefore = reports.objectCount();
                    orders.submit("order-1", 1, ctx -> "done").get(10, TimeUnit.SECONDS);
                    reports.submit("report-1", 1, ctx -> "done").get(10, TimeUnit.SECONDS);
                    // Released before its request's future completes (the worker lets go of the object first).
                    assertThat(orders.objectCount()).isEqualTo(ordersBefore);
                    // Kept for longer than two default retentions (which would have released it by then).
                    await().during(ComponentSpec.DEFAULT_IDLE_OBJECT_RETENTION.multipliedBy(3)).atMost(Duration.ofSeconds(10))
                            .until(() -> reports.objectCount() == reportsBefore + 1);
                });
    }

    @Test
    void secondaryRoleBringsComponentsToSecondary() {
        runner.withUserConfiguration(Components.class)
                .withPropertyValues("backplane.role=secondary", "backplane.instances.bulk.threads=1",
                        "backplane.instances.batch.threads=1")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    BackplaneRegistry registry = context.getBean(BackplaneRegistry.class);
                    registry.all().values().forEach(backplane -> assertThat(backplane.components())
                            .allSatisfy(c -> assertThat(c.state()).as(c.name()).isEqualTo(ComponentState.SECONDARY)));
                    Orders orders = context.getBean(Orders.class);
                    assertThat(orders.entered()).containsExactly(ComponentState.SECONDARY);
                    assertThatThrownBy(() -> orders.where("o-1"))
                            .isInstanceOfSatisfying(BackplaneRejectedException.class,
                                    e -> assertThat(e.reason()).isEqualTo(BackplaneRejectedException.Reason.STATE));
                });
    }

    @Test
    void registryBacksOffWhenUserProvidedRegistryIsPresent() {
        runner.withUserConfiguration(UserRegistry.class).run(context -> {
            assertThat(context).hasNotFailed().hasSingleBean(BackplaneRegistry.class);
            BackplaneRegistry registry = context.getBean(BackplaneRegistry.class);
            assertThat(registry).isSameAs(context.getBean("myRegistry"));
            assertThat(registry.all()).containsOnlyKeys("default", "mine");
            assertThat(registry.get("mine").policy().threads()).isEqualTo(1);
            assertThat(registry.get("mine").state()).as("the lifecycle drives the user's registry")
                    .isEqualTo(ComponentState.PRIMARY);
        });
    }

    @Test
    void actuatorEndpointHealthIndicatorAndMetersArePresentWithActuatorAndMicrometer() {
        runner.run(context -> {
            assertThat(context).hasNotFailed()
                    .hasSingleBean(BackplaneActuatorEndpoint.class)
                    .hasSingleBean(BackplaneHealthIndicator.class)
                    .hasSingleBean(BackplaneMetrics.class);
        });
    }

    @Test
    void coreWorksWithoutActuatorAndMicrometerAndTheirBeansAreAbsent() {
        runner.withClassLoader(new FilteredClassLoader(org.springframework.boot.actuate.endpoint.annotation.Endpoint.class,
                        HealthIndicator.class, MeterBinder.class))
                .withUserConfiguration(Components.class)
                .withPropertyValues("backplane.instances.bulk.threads=1", "backplane.instances.batch.threads=1")
                .run(context -> {
                    assertThat(context).hasNotFailed()
                            .hasSingleBean(BackplaneRegistry.class)
                            .doesNotHaveBean(BackplaneActuatorEndpoint.class)
                            .doesNotHaveBean(BackplaneHealthIndicator.class)
                            .doesNotHaveBean(BackplaneMetrics.class);
                    assertThat(context.getBean(Orders.class).where("o-1").get(5, TimeUnit.SECONDS))
                            .startsWith("backplane-default-worker-");
                });
    }

    @Configuration(proxyBeanMethods = false)
    static class Components {
        @Bean
        Orders orders() {
            return new Orders();
        }

        @Bean
        Reports reports() {
            return new Reports();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class UserRegistry {
        @Bean
        BackplaneRegistry myRegistry() {
            BackplaneProperties properties = new BackplaneProperties();
            BackplaneProperties.Instance mine = new BackplaneProperties.Instance();
            mine.setThreads(1);
            properties.setInstances(Map.of("mine", mine));
            return new BackplaneRegistry(properties, List.of());
        }
    }

    @AppComponent
    static class Orders {
        private final List<ComponentState> entered = new CopyOnWriteArrayList<>();

        List<ComponentState> entered() {
            return entered;
        }

        @OnState({ComponentState.PRIMARY, ComponentState.SECONDARY})
        void entering(ComponentState from, ComponentState to) {
            entered.add(to);
        }

        @Endpoint
        CompletableFuture<String> where(@ObjectKey String orderId) {
            return CompletableFuture.completedFuture(Thread.currentThread().getName());
        }
    }

    @AppComponent(backplane = "batch")
    static class Reports {
        @Endpoint
        CompletableFuture<String> where() {
            return CompletableFuture.completedFuture(Thread.currentThread().getName());
        }
    }
}
