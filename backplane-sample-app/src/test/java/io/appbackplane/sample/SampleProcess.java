package io.appbackplane.sample;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The sample jar ({@code target/backplane-sample-app.jar}, or {@code -Dsample.jar}) run as a process
 * of its own, its output collected line by line so that a test can wait for a line. A wait for a
 * line ends as soon as the process's output ends without it (a process that exits at start-up is
 * reported at once, not after the wait's timeout). Closing it ends the process (SIGTERM, then
 * SIGKILL after 30 s).
 */
final class SampleProcess implements AutoCloseable {

    static final Path JAR = Path.of(System.getProperty("sample.jar", "target/backplane-sample-app.jar"));

    private final Process process;
    private final List<String> output = new CopyOnWriteArrayList<>();
    private final List<Waiter> waiters = new CopyOnWriteArrayList<>();
    /** Set once the output has ended; every waiter registered by then has been completed. */
    private volatile boolean ended;

    private record Waiter(Pattern pattern, CompletableFuture<Matcher> found) {}

    private SampleProcess(Process process) {
        this.process = process;
        Thread reader = new Thread(this::read, "sample-process-output-" + process.pid());
        reader.setDaemon(true);
        reader.start();
    }

    /** Starts {@code java -jar} the sample jar with {@code args}. */
    static SampleProcess start(List<String> args) throws IOException {
        return start(List.of(), args);
    }

    /** Starts {@code java -jar} the sample jar with {@code args}, the command after {@code prefix} (such as a launcher). */
    static SampleProcess start(List<String> prefix, List<String> args) throws IOException {
        List<String> command = new ArrayList<>(prefix);
        command.add(ProcessHandle.current().info().command().orElse("java"));
        command.add("-jar");
        command.add(JAR.toString());
        command.add("--spring.main.banner-mode=off");
        command.addAll(args);
        return new SampleProcess(new ProcessBuilder(command).redirectErrorStream(true).start());
    }

    long pid() {
        return process.pid();
    }

    /** Waits for an output line (seen before or after this call) matching {@code regex}; returns its match. */
    Matcher await(String regex, Duration timeout) throws Exception {
        Pattern pattern = Pattern.compile(regex);
        CompletableFuture<Matcher> found = new CompletableFuture<>();
        Waiter waiter = new Waiter(pattern, found);
        waiters.add(waiter);
        for (String line : output) {
            offer(waiter, line);
        }
        if (ended) { // the reader may have finished before the waiter was added
            found.completeExceptionally(new IllegalStateException("the output ended"));
        }
        try {
            return found.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new AssertionError("no line matching '" + regex + "' within " + timeout + " from process " + pid()
                    + (process.isAlive() ? "" : " (it ended: exit " + process.exitValue() + ")") + "; its output:\n" + text(), e);
        } catch (ExecutionException e) {
            throw new AssertionError("no line matching '" + regex + "' from process " + pid() + ": it ended"
                    + exitStatus() + " without one; its output:\n" + text(), e);
        }
    }

    /** The port an embedded web server reported ({@code Tomcat started on port N}). */
    int awaitPort(Duration timeout) throws Exception {
        return Integer.parseInt(await("started on port (\\d+)", timeout).group(1));
    }

    /** The lines the process wrote so far, in order. */
    List<String> lines() {
        return List.copyOf(output);
    }

    /** Everything the process wrote so far. */
    String text() {
        return String.join("\n", output);
    }

    /** Waits for the process to exit by itself. */
    boolean waitFor(Duration timeout) throws InterruptedException {
        return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    private void read() {
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = lines.readLine()) != null) {
                output.add(line);
                for (Waiter waiter : waiters) {
                    offer(waiter, line);
                }
            }
        } catch (IOException e) {
            output.add("(reading the output failed: " + e + ")");
        } finally {
            ended = true;
            for (Waiter waiter : waiters) {
                waiter.found().completeExceptionally(new IllegalStateException("the output ended"));
            }
        }
    }

    /** " (exit N)" once the process has exited, or "" if its output ended first. */
    private String exitStatus() throws InterruptedException {
        return process.waitFor(10, TimeUnit.SECONDS) ? " (exit " + process.exitValue() + ")" : "";
    }

    private static void offer(Waiter waiter, String line) {
        Matcher matcher = waiter.pattern().matcher(line);
        if (!waiter.found().isDone() && matcher.find()) {
            waiter.found().complete(matcher);
        }
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
