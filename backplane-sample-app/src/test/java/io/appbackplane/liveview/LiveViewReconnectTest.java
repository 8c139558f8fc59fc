package io.appbackplane.liveview;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.appbackplane.sample.Chromium;
import io.appbackplane.sample.RequiresChromium;
import io.appbackplane.spring.annotation.AppComponent;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.chrome.ChromeDriver;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The live view survives the application restarting: while it is down the page says it is
 * retrying, and once an application answers on the same port again the page shows the new
 * instance's data. A small application with the starter, started twice on one port (the order desk
 * would only make the test slower). In a package of its own, so the order desk's component scan in
 * the other tests never finds its configuration.
 */
@RequiresChromium
class LiveViewReconnectTest {

    @TempDir
    Path profile;

    ChromeDriver browser;
    ConfigurableApplicationContext app;

    @AfterEach
    void close() {
        if (browser != null) {
            browser.quit();
        }
        if (app != null) {
            app.close();
        }
    }

    @Test
    void thePageSaysItIsRetryingWhileTheAppIsDown_andShowsTheNewInstanceOnceItIsBack() {
        app = start(0);
        int port = ((WebServerApplicationContext) app).getWebServer().getPort();
        browser = Chromium.start(profile, 1200, 900);
        browser.get("http://127.0.0.1:" + port + "/actuator/backplaneview");
        String first = await("the page live with data").atMost(60, SECONDS).pollInterval(Duration.ofMillis(250))
                .until(this::instanceWithFrames, instance -> instance != null);

        app.close();
        await("the page noticing the application is gone").atMost(30, SECONDS).pollInterval(Duration.ofMillis(250))
                .until(this::status, "reconnecting"::equals);

        app = start(port);
        String second = await("the page live again with the new instance's data").atMost(60, SECONDS)
                .pollInterval(Duration.ofMillis(250)).until(this::instanceWithFrames, instance -> instance != null && !instance.equals(first));
        assertThat(second).isNotEqualTo(first);
        assertThat(status()).isEqualTo("live");
    }

    private static ConfigurableApplicationContext start(int port) {
        return new SpringApplicationBuilder(SmallApp.class).web(WebApplicationType.SERVLET).run(
                "--spring.config.name=live-view-reconnect-test", // not the order desk's application.yml
                "--server.address=127.0.0.1", "--server.port=" + port, "--spring.main.banner-mode=off",
                "--backplane.live-view.enabled=true", "--management.endpoints.web.exposure.include=backplaneview",
                "--backplane.configs.default.threads=1");
    }

    /** The instance id the page shows, once it is live and has drawn at least one second of it; null before. */
    @SuppressWarnings("unchecked")
    private String instanceWithFrames() {
        Map<String, Object> state = (Map<String, Object>) browser.executeScript("""
                const v = window.backplaneLiveView;
                const ui = v && v.backplanes.get('default');
                return { instance: v ? v.instance : null, frames: ui ? ui.frames.length : 0,
                         status: document.getElementById('status').dataset.status };""");
        boolean ready = "live".equals(state.get("status")) && ((Number) state.get("frames")).intValue() > 0;
        return ready ? (String) state.get("instance") : null;
    }

    private String status() {
        return (String) browser.executeScript("return document.getElementById('status').dataset.status;");
    }

    @Configuration(proxyBeanMethods = false)
    @EnableAutoConfiguration
    static class SmallApp {

        @Bean
        Greeter greeter() {
            return new Greeter();
        }
    }

    @AppComponent("greeter")
    static class Greeter {}
}
