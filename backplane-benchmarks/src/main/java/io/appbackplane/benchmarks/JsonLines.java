package io.appbackplane.benchmarks;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The files forks append one JSON line to for the report (W3's latencies, W1/W2's modes): each fork
 * adds its line at its end, so that several runs, and every fork of one, can share a file.
 */
final class JsonLines {

    private JsonLines() {}

    /** Appends {@code line} (ending in a line break) to {@code file}, creating it if absent. */
    static void append(String file, String line, String what) {
        Path path = Path.of(file);
        try {
            Files.writeString(path, line, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot append " + what + " to " + path.toAbsolutePath(), e);
        }
    }
}
