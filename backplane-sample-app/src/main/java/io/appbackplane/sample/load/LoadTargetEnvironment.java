package io.appbackplane.sample.load;

import java.util.HashMap;
import java.util.Map;
import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * With {@code sample.load.target} set, the process is a load generator for another instance and
 * nothing else: load mode on, no web server (it serves nothing, so it takes no port and no CPU
 * from the instance it measures beyond its own requests). Unless {@code
 * spring.main.web-application-type} is set explicitly: {@code --spring.main.web-application-type=servlet
 * --server.port=-1 --management.server.port=PORT} serves only Actuator, so that the load's own
 * meters ({@code sample.urgent.latency}) can be read over HTTP while it runs.
 */
public class LoadTargetEnvironment implements EnvironmentPostProcessor {

    private static final String WEB_APPLICATION_TYPE = "spring.main.web-application-type";

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        if (environment.getProperty("sample.load.target", "").isBlank()) {
            return;
        }
        Map<String, Object> loadMode = new HashMap<>(Map.of("sample.load.enabled", "true"));
        if (!environment.containsProperty(WEB_APPLICATION_TYPE)) {
            loadMode.put(WEB_APPLICATION_TYPE, "none");
        }
        environment.getPropertySources().addFirst(new MapPropertySource("sampleLoadTarget", loadMode));
    }
}
