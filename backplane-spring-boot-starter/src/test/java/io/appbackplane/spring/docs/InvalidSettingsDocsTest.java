package io.appbackplane.spring.docs;

import static org.assertj.core.api.Assertions.assertThat;

import io.appbackplane.spring.annotation.AppComponent;
import io.appbackplane.spring.autoconfigure.BackplaneAutoConfiguration;
import io.appbackplane.spring.autoconfigure.BackplaneFailureAnalyzer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The "Invalid values" table of docs/configuration.md is this test's table: each row's setting
 * fails start-up with a failure analysis naming the property and saying what is allowed, so the
 * table cannot promise a message the starter does not give.
 */
class InvalidSettingsDocsTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(BackplaneAutoConfiguration.class))
            .withUserConfiguration(InventoryConfig.class)
            .withPropertyValues("backplane.configs.default.threads=1", "backplane.instances.orders.threads=1");

    static Stream<Arguments> rows() throws IOException {
        List<String> lines = Files.readAllLines(Path.of("../docs/configuration.md"));
        List<Arguments> rows = new ArrayList<>();
        boolean inTable = false;
        for (String line : lines) {
            if (line.startsWith("| invalid setting |")) {
                inTable = true;
                continue;
            }
            if (inTable && !line.startsWith("|")) {
                break;
            }
            if (inTable && !line.startsWith("|---")) {
                String[] cells = line.substring(1, line.length() - 1).split("\\|");
                rows.add(Arguments.of(cells[0].strip(), cells[1].strip(), cells[2].strip()));
            }
        }
        assertThat(rows).as("rows of the Invalid values table").hasSizeGreaterThan(10);
        return rows.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void theDocumentedSettingFailsStartUpNamingThePropertyAndWhatIsAllowed(String setting, String property, String saying) {
        runner.withPropertyValues(setting).run(context -> {
            assertThat(context).hasFailed();
            FailureAnalysis analysis = new BackplaneFailureAnalyzer().analyze(context.getStartupFailure());
            assertThat(analysis).as("analysis of %s", context.getStartupFailure()).isNotNull();
            assertThat(analysis.getDescription()).contains(property, saying);
            assertThat(analysis.getAction()).isNotBlank();
        });
    }

    @Configuration(proxyBeanMethods = false)
    static class InventoryConfig {
        @Bean
        Inventory inventory() {
            return new Inventory();
        }
    }

    @AppComponent
    static class Inventory {}
}
