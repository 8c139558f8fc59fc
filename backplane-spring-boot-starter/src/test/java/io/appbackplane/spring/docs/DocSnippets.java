package io.appbackplane.spring.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Reads the fenced code blocks of docs/*.md and the marked regions of test sources
 * ({@code // docs:<page>:<id> BEGIN} ... {@code // docs:<page>:<id> END}), and compares them
 * modulo leading indentation. A copy of backplane-core's test class DocSnippets (test classes are not shared
 * between modules).
 */
final class DocSnippets {

    /** The docs directory, relative to a module directory (where tests run). */
    static final Path DOCS = Path.of("../docs");

    /** The test sources of every module that owns snippets. */
    static final List<Path> TEST_SOURCES = List.of(
            Path.of("../backplane-core/src/test/java"), Path.of("../backplane-spring-boot-starter/src/test/java"),
            Path.of("../backplane-test/src/test/java"),
            Path.of("../backplane-kafka/src/test/java"));

    private static final Pattern MARKER = Pattern.compile("^\\s*// docs:([\\w-]+):([\\w-]+) (BEGIN|END)\\s*$");

    /** A fenced block: its page (file name without .md), first line number, language and text. */
    record Block(String page, int line, String language, String text, String before, String nextBlock) {
        String where() {
            return "docs/" + page + ".md:" + line;
        }
    }

    /** A marked region of a test source: page, id, file and text. */
    record Region(String page, String id, Path file, String text) {
        String where() {
            return file + " (docs:" + page + ":" + id + ")";
        }
    }

    private DocSnippets() {}

    /** Every fenced block in docs/*.md, in page and line order. */
    static List<Block> blocks() {
        List<Block> blocks = new ArrayList<>();
        try (Stream<Path> pages = Files.list(DOCS)) {
            for (Path page : pages.filter(p -> p.toString().endsWith(".md")).sorted().toList()) {
                blocks.addAll(blocks(page));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return blocks;
    }

    /** Every fenced block of {@code language} in docs/*.md. */
    static List<Block> blocks(String language) {
        return blocks().stream().filter(b -> b.language().equals(language)).toList();
    }

    private static List<Block> blocks(Path page) throws IOException {
        String name = page.getFileName().toString().replaceFirst("\\.md$", "");
        List<String> lines = Files.readAllLines(page);
        List<Block> found = new ArrayList<>();
        List<int[]> spans = new ArrayList<>();
        List<String> languages = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (line.startsWith("```") && line.length() > 3) {
                int end = i + 1;
                while (end < lines.size() && !lines.get(end).strip().equals("```")) {
                    end++;
                }
                if (end == lines.size()) {
                    throw new IllegalStateException("unclosed code block at docs/" + name + ".md:" + (i + 1));
                }
                spans.add(new int[] {i, end});
                languages.add(line.substring(3).strip());
                i = end;
            } else if (line.equals("```")) {
                int end = i + 1;
                while (end < lines.size() && !lines.get(end).strip().equals("```")) {
                    end++;
                }
                spans.add(new int[] {i, end});
                languages.add("");
                i = end;
            }
        }
        for (int k = 0; k < spans.size(); k++) {
            int[] span = spans.get(k);
            String before = "";
            for (int j = span[0] - 1; j >= 0; j--) {
                if (!lines.get(j).isBlank()) {
                    before = lines.get(j).strip();
                    break;
                }
            }
            String next = k + 1 < spans.size() ? String.join("\n", lines.subList(spans.get(k + 1)[0] + 1, spans.get(k + 1)[1])) : "";
            found.add(new Block(name, span[0] + 1, languages.get(k),
                    String.join("\n", lines.subList(span[0] + 1, span[1])), before, next));
        }
        return found;
    }

    /** Every marked region under {@code root}. */
    static List<Region> regions(Path root) {
        List<Region> regions = new ArrayList<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path file : files.filter(p -> p.toString().endsWith(".java")).sorted().toList()) {
                regions.addAll(regions(file, Files.readAllLines(file)));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return regions;
    }

    /** Every marked region of every module. */
    static List<Region> allRegions() {
        List<Region> all = new ArrayList<>();
        TEST_SOURCES.forEach(root -> all.addAll(regions(root)));
        return all;
    }

    private static List<Region> regions(Path file, List<String> lines) {
        List<Region> regions = new ArrayList<>();
        Map<String, Integer> open = new LinkedHashMap<>();
        for (int i = 0; i < lines.size(); i++) {
            Matcher m = MARKER.matcher(lines.get(i));
            if (!m.matches()) {
                continue;
            }
            String key = m.group(1) + ":" + m.group(2);
            if (m.group(3).equals("BEGIN")) {
                if (open.putIfAbsent(key, i) != null) {
                    throw new IllegalStateException(file + ":" + (i + 1) + ": docs:" + key + " BEGIN twice");
                }
            } else {
                Integer begin = open.remove(key);
                if (begin == null) {
                    throw new IllegalStateException(file + ":" + (i + 1) + ": docs:" + key + " END without BEGIN");
                }
                regions.add(new Region(m.group(1), m.group(2), file, String.join("\n", lines.subList(begin + 1, i))));
            }
        }
        if (!open.isEmpty()) {
            throw new IllegalStateException(file + ": docs:" + open.keySet() + " BEGIN without END");
        }
        return regions;
    }

    /** Trailing spaces and blank edge lines removed, and the common leading indentation. */
    static String normalize(String text) {
        List<String> lines = new ArrayList<>(text.lines().map(String::stripTrailing).toList());
        while (!lines.isEmpty() && lines.get(0).isEmpty()) {
            lines.remove(0);
        }
        while (!lines.isEmpty() && lines.get(lines.size() - 1).isEmpty()) {
            lines.remove(lines.size() - 1);
        }
        int indent = lines.stream().filter(l -> !l.isEmpty())
                .mapToInt(l -> l.length() - l.stripLeading().length()).min().orElse(0);
        return String.join("\n", lines.stream().map(l -> l.isEmpty() ? l : l.substring(indent)).toList());
    }
}
