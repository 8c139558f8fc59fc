package io.appbackplane.spring.docs;

import static org.assertj.core.api.Assertions.assertThat;

import io.appbackplane.spring.actuate.BackplaneActuatorAutoConfiguration;
import io.appbackplane.spring.autoconfigure.BackplaneAutoConfiguration;
import io.appbackplane.spring.autoconfigure.BackplaneFailureAnalyzer;
import io.appbackplane.spring.executor.BackplaneExecutorsAutoConfiguration;
import io.appbackplane.spring.metrics.BackplaneMetricsAutoConfiguration;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.convert.ApplicationConversionService;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.env.EnumerablePropertySource;
import org.springframework.core.env.PropertySource;
import org.springframework.core.io.ByteArrayResource;

/**
 * The starter's side of "every snippet in the docs is compiled or exercised": every {@code java}
 * block of docs/*.md is a marked region of some module's test sources, every marked region of the
 * starter's test sources is shown on its page, and every {@code yaml} block of the docs starts an
 * application context with the starter's auto-configuration — or, when the line before it is
 * {@code <!-- docs:fails -->}, fails start-up with exactly the failure analysis shown in the fenced
 * block that follows it.
 */
class DocsSnippetsTest {

    static final String FAILS = "<!-- docs:fails -->";

    private static final Path OWN_SOURCES = Path.of("src/test/java");

    /** Like SpringApplication: lenient conversion (enums in any case, "2s" durations) for the environment and beans. */
    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withInitializer(context -> {
                ApplicationConversionService conversion = (ApplicationConversionService) ApplicationConversionService.getSharedInstance();
                context.getEnvironment().setConversionService(conversion);
                context.getBeanFactory().setConversionService(conversion);
            })
            .withConfiguration(AutoConfigurations.of(BackplaneAutoConfiguration.class,
                    BackplaneActuatorAutoConfiguration.class, BackplaneMetricsAutoConfiguration.class,
                    BackplaneExecutorsAutoConfiguration.class));

    @Test
    void everyJavaBlockOfTheDocsIsAMarkedRegionOfATestSource() {
        List<DocSnippets.Region> regions = DocSnippets.allRegions();
        List<String> missing = new ArrayList<>();
        for (DocSnippets.Block block : DocSnippets.blocks("java")) {
            String text = DocSnippets.normalize(block.text());
            boolean found = regions.stream()
                    .anyMatch(r -> r.page().equals(block.page()) && DocSnippets.normalize(r.text()).equals(text));
            if (!found) {
                missing.add(block.where() + ":\n" + text);
            }
        }
        assertThat(missing).as("java blocks in the docs that no test source holds between"
                + " '// docs:<page>:<id> BEGIN/END' markers (or not with this exact text)").isEmpty();
    }

    @Test
    void everyMarkedRegionOfTheStarterIsShownOnItsPage() {
        List<DocSnippets.Region> regions = DocSnippets.regions(OWN_SOURCES);
        List<DocSnippets.Block> blocks = DocSnippets.blocks("java");
        List<String> missing = new ArrayList<>();
        for (DocSnippets.Region region : regions) {
            String text = DocSnippets.normalize(region.text());
            boolean shown = blocks.stream()
                    .anyMatch(b -> b.page().equals(region.page()) && DocSnippets.normalize(b.text()).equals(text));
            if (!shown) {
                missing.add(region.where() + ":\n" + text);
            }
        }
        assertThat(missing).as("marked regions not shown verbatim in a ```java block of docs/<page>.md").isEmpty();
        assertThat(regions).as("the starter owns snippets").isNotEmpty();
    }

    @TestFactory
    Stream<DynamicTest> everyYamlBlockOfTheDocsStartsTheStarterOrFailsAsDocumented() {
        List<DocSnippets.Block> blocks = DocSnippets.blocks("yaml");
        assertThat(blocks).as("the docs show YAML").isNotEmpty();
        return blocks.stream().map(block -> DynamicTest.dynamicTest(block.where(), () -> {
            Map<String, Object> properties = properties(block);
            ApplicationContextRunner configured = runner.withInitializer(context -> context.getEnvironment()
                    .getPropertySources().addFirst(new org.springframework.core.env.MapPropertySource(block.where(), properties)));
            // the components the block configures exist in the application it is written for
            for (String name : componentNames(properties)) {
                configured = configured.withBean(name, DocComponent.class, DocComponent::new);
            }
            if (block.before().equals(FAILS)) {
                configured.run(context -> {
                    assertThat(context).as(block.where() + " should fail start-up").hasFailed();
                    FailureAnalysis analysis = new BackplaneFailureAnalyzer().analyze(context.getStartupFailure());
                    assertThat(analysis).as("a failure the starter explains: " + context.getStartupFailure()).isNotNull();
                    assertThat(analysis.getDescription()).isEqualTo(DocSnippets.normalize(block.nextBlock()));
                });
            } else {
                configured.run(context -> assertThat(context).as(block.where()).hasNotFailed());
            }
        }));
    }

    private static java.util.Set<String> componentNames(Map<String, Object> properties) {
        java.util.Set<String> names = new java.util.TreeSet<>();
        for (String key : properties.keySet()) {
            if (key.startsWith("backplane.components.")) {
                names.add(key.substring("backplane.components.".length()).split("\\.")[0]);
            }
        }
        return names;
    }

    /** A component of a name a YAML block configures (unknown component names fail start-up). */
    @io.appbackplane.spring.annotation.AppComponent
    static class DocComponent {}

    /** The properties a YAML block sets, flattened as Spring Boot reads application.yml. */
    static Map<String, Object> properties(DocSnippets.Block block) {
        try {
            List<PropertySource<?>> sources = new YamlPropertySourceLoader().load(block.where(),
                    new ByteArrayResource(block.text().getBytes(StandardCharsets.UTF_8)));
            Map<String, Object> properties = new TreeMap<>();
            for (PropertySource<?> source : sources) {
                EnumerablePropertySource<?> enumerable = (EnumerablePropertySource<?>) source;
                for (String name : enumerable.getPropertyNames()) {
                    properties.put(name, String.valueOf(enumerable.getProperty(name)));
                }
            }
            assertThat(properties).as(block.where() + " sets properties").isNotEmpty();
            return properties;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
