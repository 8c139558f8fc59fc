package io.appbackplane.sample.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringApplication;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;

/** {@code sample.load.target} turns a process into a load generator that serves nothing, unless a web application type is asked for. */
class LoadTargetEnvironmentTest {

    private final LoadTargetEnvironment postProcessor = new LoadTargetEnvironment();

    @Test
    void aTargetTurnsLoadModeOnAndTheWebServerOff() {
        StandardEnvironment environment = environment(Map.of("sample.load.target", "http://127.0.0.1:8080"));

        postProcessor.postProcessEnvironment(environment, new SpringApplication());

        assertThat(environment.getProperty("sample.load.enabled")).isEqualTo("true");
        assertThat(environment.getProperty("spring.main.web-application-type")).isEqualTo("none");
    }

    @Test
    void aTargetWithAnExplicitWebApplicationTypeKeepsIt_soThatItsMetersCanBeServed() {
        StandardEnvironment environment = environment(Map.of("sample.load.target", "http://127.0.0.1:8080",
                "spring.main.web-application-type", "servlet"));

        postProcessor.postProcessEnvironment(environment, new SpringApplication());

        assertThat(environment.getProperty("sample.load.enabled")).isEqualTo("true");
        assertThat(environment.getProperty("spring.main.web-application-type")).isEqualTo("servlet");
    }

    @Test
    void withoutATargetNothingChanges() {
        StandardEnvironment environment = environment(Map.of("sample.load.enabled", "false"));

        postProcessor.postProcessEnvironment(environment, new SpringApplication());

        assertThat(environment.getProperty("sample.load.enabled")).isEqualTo("false");
        assertThat(environment.containsProperty("spring.main.web-application-type")).isFalse();
    }

    private static StandardEnvironment environment(Map<String, Object> properties) {
        StandardEnvironment environment = new StandardEnvironment();
        environment.getPropertySources().addFirst(new MapPropertySource("commandLineArgs", properties));
        return environment;
    }
}
