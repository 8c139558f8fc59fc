package io.appbackplane.sample;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The full names of a running JVM's threads by their kernel thread id, from its thread dump
 * ({@code jcmd <pid> Thread.print}, whose header lines end in {@code nid=<id>}): the kernel keeps
 * only 15 bytes of each name, too few to tell Tomcat's request threads from its poller.
 */
final class JvmThreadNames {

    /** A thread's header line: its quoted name first, its kernel id ({@code nid}, hex up to JDK 18, decimal after) later. */
    private static final Pattern HEADER = Pattern.compile("^\"(.*)\" .*\\bnid=(0x[0-9a-fA-F]+|\\d+)\\b");

    private JvmThreadNames() {}

    /**
     * Asks process {@code pid} for its thread dump with the {@code jcmd} beside this JVM's {@code java};
     * empty (the caller falls back to the kernel's names) when that fails, with the reason on stderr.
     */
    static Map<Integer, String> of(long pid) {
        Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
        try {
            Process dump = new ProcessBuilder(jcmd.toString(), Long.toString(pid), "Thread.print").redirectErrorStream(true).start();
            byte[] out = dump.getInputStream().readAllBytes();
            if (!dump.waitFor(60, TimeUnit.SECONDS) || dump.exitValue() != 0) {
                System.err.println("JvmThreadNames: " + jcmd + " " + pid + " Thread.print failed; using the kernel's 15-byte names");
                return Map.of();
            }
            return parse(new String(out, StandardCharsets.UTF_8));
        } catch (IOException e) {
            System.err.println("JvmThreadNames: could not run " + jcmd + ": " + e + "; using the kernel's 15-byte names");
            return Map.of();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Map.of();
        }
    }

    /** The names in a thread dump's text, by kernel thread id. */
    static Map<Integer, String> parse(String dump) {
        Map<Integer, String> names = new HashMap<>();
        for (String line : dump.split("\n")) {
            Matcher header = HEADER.matcher(line);
            if (header.find()) {
                String nid = header.group(2);
                names.put(nid.startsWith("0x") ? Integer.parseInt(nid.substring(2), 16) : Integer.parseInt(nid), header.group(1));
            }
        }
        return names;
    }
}
