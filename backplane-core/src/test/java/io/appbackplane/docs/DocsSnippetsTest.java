package io.appbackplane.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Every {@code java} block of docs/*.md is, verbatim modulo leading indentation, a marked region
 * of some module's test sources (so it compiles, and a test runs it), on the page its marker
 * names; and every marked region of this module's test sources is shown on its page. The starter's
 * DocsSnippetsTest checks the starter's regions (and YAML blocks) the same way.
 */
class DocsSnippetsTest {

    private static final Path OWN_SOURCES = Path.of("src/test/java");

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
        assertThat(DocSnippets.blocks("java")).as("the docs show Java code").isNotEmpty();
    }

    @Test
    void everyMarkedRegionOfThisModuleIsShownOnItsPage() {
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
        assertThat(regions).as("this module owns snippets").isNotEmpty();
    }

    @Test
    void normalizingIgnoresOnlyCommonIndentationAndBlankEdges() {
        assertThat(DocSnippets.normalize("\n    a\n      b  \n\n    c\n\n")).isEqualTo("a\n  b\n\nc");
        assertThat(DocSnippets.normalize("a\n b")).isNotEqualTo(DocSnippets.normalize("a\nb"));
    }
}
