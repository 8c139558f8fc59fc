package io.appbackplane.sample;

import static org.assertj.core.api.Assertions.fail;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.logging.Level;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;

/**
 * Headless Debian chromium driven through Debian's chromedriver: both paths are set explicitly, so
 * Selenium never runs Selenium Manager (which would download a driver or a browser). Missing
 * packages fail the test with the command that installs them, rather than skipping it: {@code
 * .ci/run} installs them, so a skip would hide a broken CI machine.
 */
public final class Chromium {

    public static final Path BROWSER = Path.of("/usr/bin/chromium");
    public static final Path DRIVER = Path.of("/usr/bin/chromedriver");

    private Chromium() {}

    /** A fresh headless browser with its own profile in {@code profile}, browser console logging on. */
    public static ChromeDriver start(Path profile, int width, int height) {
        if (!Files.isExecutable(BROWSER) || !Files.isExecutable(DRIVER)) {
            fail("the live view's browser test needs Debian's chromium and chromedriver at " + BROWSER + " and " + DRIVER
                    + "; install them with: sudo apt-get install -y chromium chromium-driver (.ci/run does this)");
        }
        ChromeOptions options = new ChromeOptions();
        options.setBinary(BROWSER.toFile());
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
                .usingDriverExecutable(new File(DRIVER.toString()))
                .usingAnyFreePort()
                .withTimeout(Duration.ofSeconds(30))
                .build();
        return new ChromeDriver(service, options);
    }
}
