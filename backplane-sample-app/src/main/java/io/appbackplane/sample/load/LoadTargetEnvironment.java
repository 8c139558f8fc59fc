package io.appbackplane.sample.load;

import java.util.Map;
import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * With {@code sample.load.target} set, the process is a load generator for another instance and
 * nothing else: load mode on, no web server (it serves nothing, so it takes no port and no CPU
 * from the instance it measures beyond its own requests).
 */
public class LoadTargetEnvironment implements EnvironmentPostProcessor {

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        if (environment.getProperty("sample.load.target", "").isBlank()) {
            return;
        }
        environment.getPropertySources().addFirst(new MapPropertySource("sampleLoadTarget", Map.of(
                "spring.main.web-application-type", "none",
                "sample.load.enabled", "true")));
    }
}
