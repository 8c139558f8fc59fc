package io.appbackplane.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The README's plain-Java example compiles (it is {@link QuickStart}), runs, and matches the README text. */
class ReadmeExampleTest {

    @Test
    void quickStartRunsAndPrintsBothResults() throws Exception {
        PrintStream original = System.out;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        try {
            QuickStart.main(new String[0]);
        } finally {
            System.setOut(original);
        }
        assertThat(out.toString(StandardCharsets.UTF_8))
                .contains("placed order-42, paid with receipt-order-42")
                .contains("completed=2");
    }

    @Test
    void readmeShowsTheQuickStartCodeVerbatim() throws Exception {
        String source = Files.readString(Path.of("src/test/java/io/appbackplane/docs/QuickStart.java"));
        String body = source.substring(source.indexOf("import io.appbackplane.*;"));
        String readme = Files.readString(Path.of("../README.md"));
        assertThat(readme).contains(body.strip());
    }
}
