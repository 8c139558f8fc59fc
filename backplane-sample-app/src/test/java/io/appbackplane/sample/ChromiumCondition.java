package io.appbackplane.sample;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Decides whether a {@link RequiresChromium} test can run, before its Spring context starts: with
 * the browser and its driver executable it runs; without them it is skipped with a notice (printed
 * too, so it shows in the build's console, as Testcontainers' notice does without Docker) saying how
 * to install them; with {@code CI=true} a missing browser throws instead, which fails the test.
 *
 * <p>Configuration parameters (JUnit's, which fall back to system properties) override the
 * defaults: {@value #BROWSER_PROPERTY} and {@value #DRIVER_PROPERTY} the two paths, and {@value
 * #CI_PROPERTY} the {@code CI} environment variable. The last exists for this condition's own test,
 * which must see both outcomes whatever the machine it runs on.
 */
public final class ChromiumCondition implements ExecutionCondition {

    public static final String BROWSER_PROPERTY = "backplane.test.chromium";
    public static final String DRIVER_PROPERTY = "backplane.test.chromedriver";
    public static final String CI_PROPERTY = "backplane.test.ci";

    static final Path DEFAULT_BROWSER = Path.of("/usr/bin/chromium");
    static final Path DEFAULT_DRIVER = Path.of("/usr/bin/chromedriver");

    static final String HOW_TO_RUN = "install Debian's chromium and chromedriver with "
            + "'sudo apt-get install -y chromium chromium-driver' (what .ci/run does), or point -D"
            + BROWSER_PROPERTY + "=... and -D" + DRIVER_PROPERTY + "=... at a chromium and its chromedriver";

    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
        Path browser = browser(context::getConfigurationParameter);
        Path driver = driver(context::getConfigurationParameter);
        List<String> missing = new ArrayList<>();
        if (!Files.isExecutable(browser)) {
            missing.add("no executable browser at " + browser);
        }
        if (!Files.isExecutable(driver)) {
            missing.add("no executable chromedriver at " + driver);
        }
        if (missing.isEmpty()) {
            return ConditionEvaluationResult.enabled("chromium at " + browser + ", chromedriver at " + driver);
        }
        String what = context.getDisplayName() + " needs a real browser: " + String.join(", ", missing);
        if (ci(context)) {
            throw new IllegalStateException(what + ". CI=true, so this fails instead of skipping: " + HOW_TO_RUN);
        }
        String notice = what + ". SKIPPED; to run it, " + HOW_TO_RUN;
        System.err.println("[browser test skipped] " + notice);
        return ConditionEvaluationResult.disabled(notice);
    }

    /** The browser binary: {@value #BROWSER_PROPERTY}, else Debian's. */
    static Path browser(Lookup parameters) {
        return parameters.get(BROWSER_PROPERTY).map(Path::of).orElse(DEFAULT_BROWSER);
    }

    /** The chromedriver binary: {@value #DRIVER_PROPERTY}, else Debian's. */
    static Path driver(Lookup parameters) {
        return parameters.get(DRIVER_PROPERTY).map(Path::of).orElse(DEFAULT_DRIVER);
    }

    private static boolean ci(ExtensionContext context) {
        return context.getConfigurationParameter(CI_PROPERTY)
                .or(() -> Optional.ofNullable(System.getenv("CI")))
                .map(value -> value.trim().equalsIgnoreCase("true"))
                .orElse(false);
    }

    /** A configuration parameter by name. */
    @FunctionalInterface
    interface Lookup {
        Optional<String> get(String name);
    }
}
