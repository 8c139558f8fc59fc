package io.appbackplane.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The repository's documentation stands alone: a user who clones it can follow every reference. No
 * file cites the team's internal contract document (which is not in the repository; the contract
 * is docs/scheduling.md with docs/architecture.md), and every relative link in README.md and docs/
 * names a file of the repository and, with a {@code #fragment}, one of its headings.
 */
class DocsStandAloneTest {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    /** Spelled in two parts so that this file does not cite it either. */
    private static final Pattern INTERNAL_CONTRACT = Pattern.compile("\\b" + "DES" + "IGN\\b");
    private static final Set<String> SKIPPED_DIRECTORIES = Set.of(".git", "target", "node_modules", ".idea");
    private static final Set<String> TEXT_EXTENSIONS =
            Set.of("java", "md", "xml", "yml", "yaml", "properties", "json", "sh", "txt", "js", "html", "css", "kts", "imports", "factories");
    private static final Pattern MARKDOWN_LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");

    @Test
    void noRepositoryFileCitesTheInternalContractDocument() throws IOException {
        List<String> citations = new ArrayList<>();
        for (Path file : textFiles()) {
            List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
            for (int i = 0; i < lines.size(); i++) {
                if (INTERNAL_CONTRACT.matcher(lines.get(i)).find()) {
                    citations.add(ROOT.relativize(file) + ":" + (i + 1) + ": " + lines.get(i).strip());
                }
            }
        }
        assertThat(citations)
                .as("cite docs/scheduling.md (the rules, modules and states, shutdown, test support) or docs/architecture.md instead")
                .isEmpty();
    }

    @Test
    void everyRelativeLinkInTheDocsNamesAFileAndHeadingOfTheRepository() throws IOException {
        List<Path> pages = new ArrayList<>(List.of(ROOT.resolve("README.md")));
        try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
        }
        List<String> broken = new ArrayList<>();
        for (Path page : pages) {
            Matcher link = MARKDOWN_LINK.matcher(Files.readString(page));
            while (link.find()) {
                String target = link.group(1);
                if (target.matches("^[a-z]+:.*")) {
                    continue; // http:, https:, mailto: are not files of the repository
                }
                int hash = target.indexOf('#');
                String file = hash < 0 ? target : target.substring(0, hash);
                Path linked = file.isEmpty() ? page : page.getParent().resolve(file).normalize();
                if (!Files.exists(linked)) {
                    broken.add(ROOT.relativize(page) + ": " + target + " (no such file)");
                } else if (hash >= 0 && linked.toString().endsWith(".md") && !headingAnchors(linked).contains(target.substring(hash + 1))) {
                    broken.add(ROOT.relativize(page) + ": " + target + " (no such heading in " + ROOT.relativize(linked) + ")");
                }
            }
        }
        assertThat(broken).isEmpty();
    }

    /** GitHub's anchors for a page's headings: lower case, punctuation dropped, spaces as hyphens. */
    private static Set<String> headingAnchors(Path page) throws IOException {
        try (Stream<String> lines = Files.lines(page)) {
            return lines.filter(line -> line.startsWith("#"))
                    .map(line -> line.replaceFirst("^#+\\s*", "").toLowerCase(Locale.ROOT))
                    .map(title -> title.replaceAll("[^\\p{L}\\p{N} _-]", "").replace(' ', '-'))
                    .collect(java.util.stream.Collectors.toSet());
        }
    }

    private static List<Path> textFiles() throws IOException {
        List<Path> files = new ArrayList<>();
        try (Stream<Path> all = Files.walk(ROOT)) {
            all.filter(p -> ROOT.relativize(p).toString().isEmpty() || !skipped(ROOT.relativize(p)))
                    .filter(Files::isRegularFile)
                    .filter(DocsStandAloneTest::isText)
                    .forEach(files::add);
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        return files;
    }

    private static boolean skipped(Path relative) {
        for (Path part : relative) {
            if (SKIPPED_DIRECTORIES.contains(part.toString())) {
                return true;
            }
        }
        return false;
    }

    private static boolean isText(Path file) {
        String name = file.getFileName().toString();
        int dot = name.lastIndexOf('.');
        return dot < 0 ? !name.startsWith(".") || name.equals(".gitignore") : TEXT_EXTENSIONS.contains(name.substring(dot + 1));
    }
}
