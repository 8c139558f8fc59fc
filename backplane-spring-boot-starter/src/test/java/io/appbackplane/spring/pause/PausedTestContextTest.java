package io.appbackplane.spring.pause;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import io.appbackplane.ComponentState;
import io.appbackplane.spring.annotation.AppComponent;
import io.appbackplane.spring.annotation.Endpoint;
import io.appbackplane.spring.annotation.ObjectKey;
import io.appbackplane.spring.autoconfigure.BackplaneAutoConfiguration;
import io.appbackplane.spring.autoconfigure.BackplaneRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Import;

/**
 * Spring Framework 7 pauses a cached test context when a suite switches to another configuration
 * and restarts it when a later class needs it again ({@code spring.test.context.cache.pause},
 * {@code ON_CONTEXT_SWITCH} by default). Three test classes run in the order A, B, A through the
 * real JUnit launcher, in this JVM, so they share Spring's context cache as a suite does: the third
 * gets A's context back, restarted, with its components still up and serving.
 */
class PausedTestContextTest {

    @Test
    void aContextPausedBySwitchingToAnotherComesBackServing() {
        List<String> failures = new ArrayList<>();
        for (Class<?> fixture : List.of(UsesConfigurationA.class, UsesConfigurationB.class, UsesConfigurationAAgain.class)) {
            failures.addAll(run(fixture));
        }
        assertThat(failures).isEmpty();
        assertThat(UsesConfigurationA.registry).as("A's context came back from the cache")
                .isSameAs(UsesConfigurationAAgain.registry).isNotNull();
    }

    private static List<String> run(Class<?> testClass) {
        List<String> failures = new ArrayList<>();
        List<String> passed = new ArrayList<>();
        LauncherFactory.create().execute(LauncherDiscoveryRequestBuilder.request().selectors(selectClass(testClass)).build(),
                new TestExecutionListener() {
                    @Override
                    public void executionFinished(TestIdentifier test, TestExecutionResult result) {
                        if (result.getStatus() != TestExecutionResult.Status.SUCCESSFUL) {
                            failures.add(testClass.getSimpleName() + " " + test.getDisplayName() + ": "
                                    + result.getThrowable().map(PausedTestContextTest::causes).orElse("no cause"));
                        } else if (test.isTest()) {
                            passed.add(test.getDisplayName());
                        }
                    }
                });
        if (failures.isEmpty() && passed.isEmpty()) {
            failures.add(testClass.getSimpleName() + ": no test ran");
        }
        return failures;
    }

    private static String causes(Throwable failure) {
        StringBuilder all = new StringBuilder();
        for (Throwable t = failure; t != null; t = t.getCause()) {
            all.append(t).append(" <- ");
        }
        return all.toString();
    }

    @AppComponent("greeter")
    public static class Greeter {
        @Endpoint
        public CompletableFuture<String> greet(@ObjectKey String name) {
            return CompletableFuture.completedFuture("hello " + name);
        }
    }

    @SpringBootConfiguration(proxyBeanMethods = false)
    @ImportAutoConfiguration(BackplaneAutoConfiguration.class)
    @Import(Greeter.class)
    static class ConfigurationA {}

    @SpringBootConfiguration(proxyBeanMethods = false)
    @ImportAutoConfiguration(BackplaneAutoConfiguration.class)
    @Import(Greeter.class)
    static class ConfigurationB {}

    /** The fixtures: run only through {@link #run} (surefire leaves nested classes alone). */
    abstract static class GreetsThroughTheBackplane {
        @Autowired
        Greeter greeter;

        @Autowired
        BackplaneRegistry backplanes;

        @Test
        void greets() throws Exception {
            assertThat(backplanes.get("default").components()).allSatisfy(c -> assertThat(c.state()).isEqualTo(ComponentState.PRIMARY));
            assertThat(greeter.greet("ada").get(10, TimeUnit.SECONDS)).isEqualTo("hello ada");
        }
    }

    @SpringBootTest(classes = ConfigurationA.class)
    static class UsesConfigurationA extends GreetsThroughTheBackplane {
        static BackplaneRegistry registry;

        @Test
        void remembersItsContext() {
            registry = backplanes;
        }
    }

    @SpringBootTest(classes = ConfigurationB.class)
    static class UsesConfigurationB extends GreetsThroughTheBackplane {}

    @SpringBootTest(classes = ConfigurationA.class)
    static class UsesConfigurationAAgain extends GreetsThroughTheBackplane {
        static BackplaneRegistry registry;

        @Test
        void remembersItsContext() {
            registry = backplanes;
        }
    }
}
