package io.appbackplane.spring.diagnostics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.appbackplane.ComponentState;
import io.appbackplane.spring.annotation.AppComponent;
import io.appbackplane.spring.annotation.OnState;
import io.appbackplane.spring.autoconfigure.BackplaneAutoConfiguration;
import io.appbackplane.spring.autoconfigure.BackplaneStartupTimeoutException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;

/**
 * What a user sees when start-up fails because of the backplane (a setting that names nothing, or
 * components that do not come up in time): real
 * applications started with {@link SpringApplicationBuilder}, whose failure report ("APPLICATION
 * FAILED TO START") Spring Boot prints through its failure analyzers — ours must be the one that
 * explains it, naming the property or the components.
 */
@ExtendWith(OutputCaptureExtension.class)
class StartupFailureReportTest {

    /** Held by the INITIALIZING hook of "customers" until the test ends. */
    static final CountDownLatch RELEASE = new CountDownLatch(1);

    @AfterEach
    void release() {
        RELEASE.countDown();
    }

    @Test
    void aStartUpTimeoutNamesEachComponentShortOfItsRoleItsStateAndWhatHoldsIt(CapturedOutput output) {
        assertThatThrownBy(() -> start(Held.class, "backplane.startup-timeout=300ms"))
                .hasRootCauseInstanceOf(java.util.concurrent.TimeoutException.class)
                .hasStackTraceContaining(BackplaneStartupTimeoutException.class.getSimpleName());

        assertThat(output).contains("APPLICATION FAILED TO START",
                "Backplane components did not reach PRIMARY within backplane.startup-timeout (PT0.3S):",
                "'customers' (backplane 'default') is in START, held by its own transition into INITIALIZING: an"
                        + " @OnState(INITIALIZING) hook",
                "'tickets' (backplane 'default') is in START, held by dependency 'customers' (in START), to enter INITIALIZING",
                "raise backplane.startup-timeout");
        assertThat(output).as("components that are up are not listed as stuck").doesNotContain("'default' (backplane");
    }

    @Test
    void aNegativeStartUpTimeoutIsRejectedWhileBindingNamingThePropertyAndWhatIsAllowed(CapturedOutput output) {
        assertThatThrownBy(() -> start(Quick.class, "backplane.startup-timeout=-5s")).isNotNull();

        assertThat(output).contains("Invalid value '-5s' for property 'backplane.startup-timeout'; allowed: a positive duration.");
    }

    @Test
    void anUnknownRoleListsTheAllowedRoles(CapturedOutput output) {
        assertThatThrownBy(() -> start(Held.class, "backplane.role=tertiary")).isNotNull();

        assertThat(output).contains("Invalid value 'tertiary' for property 'backplane.role'; allowed: primary, secondary.");
    }

    @Test
    void aSettingForAComponentThatIsNotInstalledFailsStartUpListingTheInstalledOnes(CapturedOutput output) {
        assertThatThrownBy(() -> start(Quick.class, "backplane.components.tikets.operation-limit=10")).isNotNull();

        assertThat(output).contains("Property 'backplane.components.tikets' names component 'tikets', which is not"
                + " installed (no @AppComponent bean of that name); installed components: [tickets]",
                "Correct the name to one of [tickets], or remove the property.");
    }

    @Test
    void anUnknownKeyOfAComponentFailsStartUpListingTheKnownKeys(CapturedOutput output) {
        assertThatThrownBy(() -> start(Quick.class, "backplane.components.tickets.operaton-limit=10")).isNotNull();

        assertThat(output).contains("Property 'backplane.components.tickets.operaton-limit' is not a"
                + " backplane.components.<name>.* setting; known settings: [admission-reserve, backplane, idle-object-retention, operation-limit,"
                + " queue-wait-target]");
    }

    @Test
    void anUnknownKeyOfABackplaneFailsStartUpListingTheKnownKeys(CapturedOutput output) {
        assertThatThrownBy(() -> start(Quick.class, "backplane.instances.orders.thraeds=4")).isNotNull();

        assertThat(output).contains("Property 'backplane.instances.orders.thraeds' is not a backplane.instances.<name>.*"
                + " setting; known settings: [actions-per-turn, admission-reserve, base-config, cpu-budget-slices, cpu-limit,");
    }

    private static void start(Class<?> app, String... properties) {
        new SpringApplicationBuilder(app).web(WebApplicationType.NONE)
                .properties("backplane.configs.default.threads=2", "spring.lifecycle.timeout-per-shutdown-phase=1s")
                .properties(properties)
                .run()
                .close();
    }

    /** "customers" cannot finish INITIALIZING before the test ends; "tickets" depends on it. */
    @SpringBootConfiguration(proxyBeanMethods = false)
    @ImportAutoConfiguration(BackplaneAutoConfiguration.class)
    static class Held {
        @Bean
        Customers customers() {
            return new Customers();
        }

        @Bean
        Tickets tickets() {
            return new Tickets();
        }
    }

    /** One component that comes up at once. */
    @SpringBootConfiguration(proxyBeanMethods = false)
    @ImportAutoConfiguration(BackplaneAutoConfiguration.class)
    static class Quick {
        @Bean
        Tickets tickets() {
            return new Tickets();
        }
    }

    @AppComponent
    static class Customers {
        @OnState(ComponentState.INITIALIZING)
        void loadCache() throws InterruptedException {
            RELEASE.await(30, TimeUnit.SECONDS);
        }
    }

    @AppComponent(dependsOn = "customers")
    static class Tickets {}
}
