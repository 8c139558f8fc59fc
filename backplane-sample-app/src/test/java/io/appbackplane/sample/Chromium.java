package io.appbackplane.sample;

import static org.assertj.core.api.Assertions.fail;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.logging.Level;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;

/**
 * Headless Debian chromium driven through Debian's chromedriver: both paths are set explicitly, so
 * Selenium never runs Selenium Manager (which would download a driver or a browser). Classes that use
 * it are annotated {@link RequiresChromium}, which skips them (or, with {@code CI=true}, fails them)
 * before they start anything when the browser is missing; the paths are that condition's
 * ({@code -Dbackplane.test.chromium}, {@code -Dbackplane.test.chromedriver}).
 */
public final class Chromium {

    private Chromium() {}

    /** A fresh headless browser with its own profile in {@code profile}, browser console logging on. */
    public static ChromeDriver start(Path profile, int width, int height) {
        ChromiumCondition.Lookup properties = name -> Optional.ofNullable(System.getProperty(name));
        Path browser = ChromiumCondition.browser(properties);
        Path driver = ChromiumCondition.driver(properties);
        if (!Files.isExecutable(browser) || !Files.isExecutable(driver)) {
            // reached only by a class that forgot @RequiresChromium
            fail("no chromium at " + browser + " or chromedriver at " + driver + "; annotate the test class @RequiresChromium, which skips it"
                    + " (fails it with CI=true) with a notice: " + ChromiumCondition.HOW_TO_RUN);
        }
        ChromeOptions options = new ChromeOptions();
        options.setBinary(browser.toFile());
        options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", "--user-data-dir=" + profile.toAbsolutePath(),
                "--window-size=" + width + "," + height);
        LoggingPreferences logs = new LoggingPreferences();
        logs.enable(LogType.BROWSER, Level.ALL);
        options.setCapability("goog:loggingPrefs", logs);
        options.setPageLoadTimeout(Duration.ofSeconds(30));
        options.setScriptTimeout(Duration.ofSeconds(10));
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(driver.toFile())
                .usingAnyFreePort()
                .withTimeout(Duration.ofSeconds(30))
                .build();
        return new ChromeDriver(service, options);
    }
}
