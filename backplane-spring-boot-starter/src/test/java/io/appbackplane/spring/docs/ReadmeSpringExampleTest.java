package io.appbackplane.spring.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The README's Spring snippet is the marked region of {@code docs/readme/Orders.java}, imports
 * included, so it compiles as shown.
 */
class ReadmeSpringExampleTest {

    @Test
    void theReadmeShowsTheCompiledSpringExampleVerbatim() throws IOException {
        String source = Files.readString(Path.of("src/test/java/io/appbackplane/spring/docs/readme/Orders.java"));
        Matcher region = Pattern.compile("// README.md:spring-orders BEGIN\n(.*?)// README.md:spring-orders END",
                Pattern.DOTALL).matcher(source);
        assertThat(region.find()).isTrue();
        String readme = Files.readString(Path.of("../README.md"));
        Matcher block = Pattern.compile("## In a Spring Boot application.*?```java\n(.*?)```", Pattern.DOTALL).matcher(readme);
        assertThat(block.find()).as("a java block under 'In a Spring Boot application'").isTrue();
        assertThat(DocSnippets.normalize(block.group(1))).isEqualTo(DocSnippets.normalize(region.group(1)));
    }
}
