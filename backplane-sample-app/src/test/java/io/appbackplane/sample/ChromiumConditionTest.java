package io.appbackplane.sample;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/**
 * {@link RequiresChromium} through the real JUnit engine, on a fixture class that starts nothing:
 * skipped with a notice saying how to run it where the browser is missing, failed instead when CI is
 * on, run where both binaries are executable. The paths and the CI switch are given as configuration
 * parameters, so each outcome is seen whatever this machine has installed and whatever its CI says.
 */
class ChromiumConditionTest {

    @TempDir
    Path dir;

    @Test
    void missingBrowser_outsideCi_skipsTheClassWithANoticeSayingHowToRunIt() {
        Outcome outcome = run(Map.of(
                ChromiumCondition.BROWSER_PROPERTY, dir.resolve("no-chromium").toString(),
                ChromiumCondition.CI_PROPERTY, "false"));

        assertThat(outcome.testsRun).isEmpty();
        assertThat(outcome.failures).isEmpty();
        assertThat(outcome.skipReasons).singleElement().asString()
                .contains("no executable browser at " + dir.resolve("no-chromium"))
                .contains("apt-get install -y chromium chromium-driver")
                .contains("-D" + ChromiumCondition.BROWSER_PROPERTY);
    }

    @Test
    void missingDriver_inCi_failsTheClassInsteadOfSkipping() throws IOException {
        Outcome outcome = run(Map.of(
                ChromiumCondition.BROWSER_PROPERTY, executable("chromium").toString(),
                ChromiumCondition.DRIVER_PROPERTY, dir.resolve("no-chromedriver").toString(),
                ChromiumCondition.CI_PROPERTY, "true"));

        assertThat(outcome.testsRun).isEmpty();
        assertThat(outcome.skipReasons).isEmpty();
        assertThat(outcome.failures).singleElement().asString()
                .contains("no executable chromedriver at " + dir.resolve("no-chromedriver"))
                .contains("CI=true, so this fails instead of skipping")
                .contains("apt-get install -y chromium chromium-driver");
    }

    @Test
    void browserAndDriverPresent_runTheClass_inCiOrNot() throws IOException {
        Path browser = executable("chromium");
        Path driver = executable("chromedriver");
        for (String ci : List.of("true", "false")) {
            Outcome outcome = run(Map.of(
                    ChromiumCondition.BROWSER_PROPERTY, browser.toString(),
                    ChromiumCondition.DRIVER_PROPERTY, driver.toString(),
                    ChromiumCondition.CI_PROPERTY, ci));

            assertThat(outcome.testsRun).as("CI=" + ci).containsExactly("fixtureTest()");
            assertThat(outcome.skipReasons).isEmpty();
            assertThat(outcome.failures).isEmpty();
        }
    }

    private Path executable(String name) throws IOException {
        return Files.createFile(dir.resolve(name), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    }

    private static Outcome run(Map<String, String> parameters) {
        LauncherDiscoveryRequest request = LauncherDiscoveryRequestBuilder.request()
                .selectors(selectClass(Fixture.class))
                .configurationParameters(parameters)
                .build();
        Outcome outcome = new Outcome();
        LauncherFactory.create().execute(request, outcome);
        return outcome;
    }

    /** What the engine reported: tests that ran and passed, skip reasons, failures' messages. */
    private static final class Outcome implements TestExecutionListener {
        final List<String> testsRun = new ArrayList<>();
        final List<String> skipReasons = new ArrayList<>();
        final List<String> failures = new ArrayList<>();

        @Override
        public void executionSkipped(TestIdentifier test, String reason) {
            skipReasons.add(reason);
        }

        @Override
        public void executionFinished(TestIdentifier test, TestExecutionResult result) {
            switch (result.getStatus()) {
                case SUCCESSFUL -> {
                    if (test.isTest()) {
                        testsRun.add(test.getDisplayName());
                    }
                }
                case FAILED, ABORTED -> failures.add(result.getThrowable().map(ChromiumConditionTest::messages).orElse("no cause"));
                default -> throw new IllegalStateException("unknown status " + result.getStatus());
            }
        }
    }

    private static String messages(Throwable failure) {
        StringBuilder all = new StringBuilder();
        for (Throwable t = failure; t != null; t = t.getCause()) {
            all.append(t).append('\n');
        }
        return all.toString();
    }

    /** Run only through {@link #run}: surefire leaves nested classes alone. */
    @RequiresChromium
    static class Fixture {
        @Test
        void fixtureTest() {}
    }
}
