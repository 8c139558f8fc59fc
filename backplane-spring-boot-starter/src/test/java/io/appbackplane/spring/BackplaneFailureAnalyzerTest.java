package io.appbackplane.spring;

import static org.assertj.core.api.Assertions.assertThat;

import io.appbackplane.ComponentState;
import io.appbackplane.spring.annotation.AppComponent;
import io.appbackplane.spring.annotation.Endpoint;
import io.appbackplane.spring.annotation.OnState;
import io.appbackplane.spring.annotation.ScheduledEndpoint;
import io.appbackplane.spring.autoconfigure.BackplaneAutoConfiguration;
import io.appbackplane.spring.autoconfigure.BackplaneFailureAnalyzer;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.io.support.SpringFactoriesLoader;

/** Every start-up failure the backplane causes is explained, naming the property or components and what is allowed. */
class BackplaneFailureAnalyzerTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(BackplaneAutoConfiguration.class))
            .withPropertyValues("backplane.configs.default.threads=1");

    @Test
    void analyzerIsRegisteredInSpringFactories() {
        // other analyzers need constructor arguments; only ours matters here
        assertThat(SpringFactoriesLoader.forDefaultResourceLocation()
                .load(FailureAnalyzer.class, SpringFactoriesLoader.FailureHandler.handleMessage((message, failure) -> {})))
                .anyMatch(BackplaneFailureAnalyzer.class::isInstance);
    }

    @Test
    void invalidThreadsNamesThePropertyAndTheAllowedRange() {
        runner.withPropertyValues("backplane.instances.default.threads=0").run(context ->
                assertThat(analysis(context).getDescription())
                        .contains("backplane.instances.default.threads", "'0'", "1..4096"));
    }

    @Test
    void invalidThreadsInATemplateNamesTheTemplateProperty() {
        runner.withPropertyValues("backplane.configs.default.threads=5000").run(context ->
                assertThat(analysis(context).getDescription())
                        .contains("backplane.configs.default.threads", "'5000'", "1..4096"));
    }

    @Test
    void invalidPrioritiesNamesThePropertyAndTheAllowedRange() {
        runner.withPropertyValues("backplane.instances.orders.priorities=65").run(context ->
                assertThat(analysis(context).getDescription())
                        .contains("backplane.instances.orders.priorities", "'65'", "1..64"));
    }

    @Test
    void unparsableCpuLimitNamesThePropertyAndTheAllowedForms() {
        runner.withPropertyValues("backplane.instances.orders.cpu-limit=abc").run(context ->
                assertThat(analysis(context).getDescription())
                        .contains("backplane.instances.orders.cpu-limit", "'abc'", "500m", "unlimited"));
    }

    @Test
    void zeroCpuLimitNamesThePropertyAndTheAllowedForms() {
        runner.withPropertyValues("backplane.configs.default.cpu-limit=0").run(context ->
                assertThat(analysis(context).getDescription())
                        .contains("backplane.configs.default.cpu-limit", "'0'", "500m", "unlimited"));
    }

    @Test
    void nonNumericQuotaNamesTheQuotaAndTheAllowedValues() {
        runner.withPropertyValues("backplane.instances.orders.quotas=unlimited,x").run(context ->
                assertThat(analysis(context).getDescription())
                        .contains("backplane.instances.orders.quotas[1]", "'x'", "unlimited", "1.."));
    }

    @Test
    void zeroQuotaNamesTheQuotaAndTheAllowedValues() {
        runner.withPropertyValues("backplane.instances.orders.quotas=unlimited,10,0").run(context ->
                assertThat(analysis(context).getDescription())
                        .contains("backplane.instances.orders.quotas[2]", "'0'", "1.."));
    }

    @Test
    void quotasForMissingPrioritiesNameThePropertyThatSetThem() {
        runner.withPropertyValues("backplane.configs.default.priorities=2",
                        "backplane.configs.default.quotas=unlimited,10,5")
                .run(context -> assertThat(analysis(context).getDescription())
                        .contains("backplane.configs.default.quotas", "0..1"));
    }

    @Test
    void invalidIntegrationPeriodNamesThePropertyAndTheAllowedRange() {
        runner.withPropertyValues("backplane.instances.orders.integration-period=2h").run(context ->
                assertThat(analysis(context).getDescription())
                        .contains("backplane.instances.orders.integration-period", "PT1H"));
    }

    @Test
    void invalidBackplaneOperationLimitNamesThePropertyAndTheAllowedRange() {
        runner.withPropertyValues("backplane.instances.orders.operation-limit=0").run(context ->
                assertThat(analysis(context).getDescription())
                        .contains("backplane.instances.orders.operation-limit", "'0'", "1.." + Integer.MAX_VALUE));
    }

    @Test
    void invalidComponentOperationLimitNamesThePropertyAndTheAllowedRange() {
        runner.withUserConfiguration(OrdersConfig.class)
                .withPropertyValues("backplane.components.orders.operation-limit=0")
                .run(context -> assertThat(analysis(context).getDescription())
                        .contains("backplane.components.orders.operation-limit", "'0'", "1.." + Integer.MAX_VALUE));
    }

    @Test
    void invalidComponentIdleObjectRetentionNamesThePropertyAndTheAllowedRange() {
        runner.withUserConfiguration(OrdersConfig.class)
                .withPropertyValues("backplane.components.orders.idle-object-retention=2h")
                .run(context -> assertThat(analysis(context).getDescription())
                        .contains("backplane.components.orders.idle-object-retention", "'PT2H'", "allowed: 0 (released at once) or PT0.001S..PT1H"));
    }

    @Test
    void unknownBackplaneInAppComponentNamesTheComponentAndTheKnownBackplanes() {
        runner.withUserConfiguration(LostConfig.class).run(context -> {
            FailureAnalysis analysis = analysis(context);
            assertThat(analysis.getDescription()).contains("'lost'", "'nope'", "@AppComponent(backplane)", "[default]");
            assertThat(analysis.getAction()).contains("backplane.instances.nope");
        });
    }

    @Test
    void unknownBackplaneInComponentPropertyNamesThePropertyAndTheKnownBackplanes() {
        runner.withUserConfiguration(OrdersConfig.class)
                .withPropertyValues("backplane.components.orders.backplane=nope")
                .run(context -> assertThat(analysis(context).getDescription())
                        .contains("backplane.components.orders.backplane", "'nope'", "[default]"));
    }

    @Test
    void unknownBaseConfigTemplateNamesThePropertyAndTheKnownTemplates() {
        runner.withPropertyValues("backplane.configs.batch.threads=1", "backplane.instances.reports.base-config=nope")
                .run(context -> assertThat(analysis(context).getDescription())
                        .contains("backplane.instances.reports.base-config", "'nope'", "batch"));
    }

    @Test
    void dependencyCycleNamesTheComponentsOfTheCycle() {
        runner.withUserConfiguration(CycleConfig.class).run(context -> {
            FailureAnalysis analysis = analysis(context);
            assertThat(analysis.getDescription()).contains("cycle", "chicken", "egg");
            assertThat(analysis.getAction()).contains("chicken", "egg", "dependsOn");
        });
    }

    @Test
    void missingDependencyNamesTheDependentAndTheMissingComponent() {
        runner.withUserConfiguration(MissingConfig.class).run(context -> {
            FailureAnalysis analysis = analysis(context);
            assertThat(analysis.getDescription()).contains("'needy'", "'ghost'");
            assertThat(analysis.getAction()).contains("ghost", "needy");
        });
    }

    @Test
    void failingPrimaryStateHookNamesTheComponentAndTheState() {
        runner.withUserConfiguration(FailingHookConfig.class).run(context -> {
            FailureAnalysis analysis = analysis(context);
            assertThat(analysis.getDescription()).contains("'fragile'", "PRIMARY");
            assertThat(analysis.getAction()).contains("@OnState(PRIMARY)", "fragile");
            assertThat(analysis.getCause()).hasRootCauseMessage("cannot open the ledger");
        });
    }

    @Test
    void endpointPriorityOutOfRangeFailsStartUpNamingTheMethod() {
        runner.withUserConfiguration(BadPriorityConfig.class).run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).rootCause()
                    .hasMessageContaining(BadPriority.class.getName() + ".urgent")
                    .hasMessageContaining("@Endpoint(priority) = 99")
                    .hasMessageContaining("0..7");
        });
    }

    @Test
    void scheduledEndpointWithTwoSchedulesFailsStartUpNamingTheMethod() {
        runner.withUserConfiguration(TwoSchedulesConfig.class).run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).rootCause()
                    .hasMessageContaining(TwoSchedules.class.getName() + ".tick")
                    .hasMessageContaining("exactly one of @ScheduledEndpoint(fixedRate, fixedDelay, cron)");
        });
    }

    private static FailureAnalysis analysis(AssertableApplicationContext context) {
        assertThat(context).hasFailed();
        FailureAnalysis analysis = new BackplaneFailureAnalyzer().analyze(context.getStartupFailure());
        assertThat(analysis).as("analysis of %s", context.getStartupFailure()).isNotNull();
        assertThat(analysis.getAction()).isNotBlank();
        return analysis;
    }

    @Configuration(proxyBeanMethods = false)
    static class OrdersConfig {
        @Bean
        Orders orders() {
            return new Orders();
        }
    }

    @AppComponent
    static class Orders {
        @Endpoint
        CompletableFuture<String> place(String order) {
            return CompletableFuture.completedFuture(order);
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class LostConfig {
        @Bean
        Lost lost() {
            return new Lost();
        }
    }

    @AppComponent(backplane = "nope")
    static class Lost {}

    @Configuration(proxyBeanMethods = false)
    static class CycleConfig {
        @Bean
        Chicken chicken() {
            return new Chicken();
        }

        @Bean
        Egg egg() {
            return new Egg();
        }
    }

    @AppComponent(dependsOn = "egg")
    static class Chicken {}

    @AppComponent(dependsOn = "chicken")
    static class Egg {}

    @Configuration(proxyBeanMethods = false)
    static class MissingConfig {
        @Bean
        Needy needy() {
            return new Needy();
        }
    }

    @AppComponent(dependsOn = "ghost")
    static class Needy {}

    @Configuration(proxyBeanMethods = false)
    static class FailingHookConfig {
        @Bean
        Fragile fragile() {
            return new Fragile();
        }
    }

    @AppComponent
    static class Fragile {
        @OnState(ComponentState.PRIMARY)
        void up() {
            throw new IllegalStateException("cannot open the ledger");
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class BadPriorityConfig {
        @Bean
        BadPriority badPriority() {
            return new BadPriority();
        }
    }

    @AppComponent
    static class BadPriority {
        @Endpoint(priority = 99)
        CompletableFuture<String> urgent() {
            return CompletableFuture.completedFuture("never");
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class TwoSchedulesConfig {
        @Bean
        TwoSchedules twoSchedules() {
            return new TwoSchedules();
        }
    }

    @AppComponent
    static class TwoSchedules {
        @ScheduledEndpoint(fixedRate = "1s", cron = "0 * * * * *")
        void tick() {}
    }
}
