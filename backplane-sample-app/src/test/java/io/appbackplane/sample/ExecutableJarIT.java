package io.appbackplane.sample;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The jar {@code ./mvnw package} builds is executable and was processed by Spring AOT: started with
 * {@code java -Dspring.aot.enabled=true -jar} (which fails at once if the AOT-generated
 * initializer is missing) on a free port of 127.0.0.1, it serves {@code /actuator/backplane}.
 * Bounded in time; the process is killed afterwards.
 */
class ExecutableJarIT {

    private static final Duration START_TIMEOUT = Duration.ofSeconds(90);
    private static final Pattern STARTED = Pattern.compile("started on port (\\d+)");

    @Test
    void theAotProcessedJarStartsAndServesTheActuatorEndpoint() throws Exception {
        Path jar = Path.of(System.getProperty("sample.jar", "target/backplane-sample-app.jar"));
        assertThat(jar).exists();
        try (JarFile file = new JarFile(jar.toFile())) {
            assertThat(file.getManifest().getMainAttributes().getValue("Start-Class"))
                    .isEqualTo(OrderDeskApplication.class.getName());
            assertThat(file.getEntry("BOOT-INF/classes/io/appbackplane/sample/OrderDeskApplication__ApplicationContextInitializer.class"))
                    .as("the AOT-generated context initializer").isNotNull();
        }

        String java = ProcessHandle.current().info().command().orElse("java");
        Process process = new ProcessBuilder(java, "-Dspring.aot.enabled=true", "-jar", jar.toString(),
                "--server.address=127.0.0.1", "--server.port=0", "--sample.load.enabled=false",
                "--spring.main.banner-mode=off")
                .redirectErrorStream(true)
                .start();
        List<String> output = new CopyOnWriteArrayList<>();
        CompletableFuture<Integer> port = new CompletableFuture<>();
        Thread reader = new Thread(() -> readOutput(process, output, port), "sample-jar-output");
        reader.setDaemon(true);
        reader.start();
        try {
            int listening;
            try {
                listening = port.get(START_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            } catch (Exception e) {
                throw new AssertionError("the jar did not start within " + START_TIMEOUT + "; its output:\n"
                        + String.join("\n", output), e);
            }
            HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
            HttpResponse<String> response = client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + listening
                    + "/actuator/backplane")).timeout(Duration.ofSeconds(10)).GET().build(), HttpResponse.BodyHandlers.ofString());

            assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
            assertThat(response.body()).contains("\"default\"").contains("\"orders\"").contains("PRIMARY");
            assertThat(output).as("started from the AOT-generated context")
                    .anyMatch(line -> line.contains("Starting AOT-processed OrderDeskApplication"));
        } finally {
            process.destroy();
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
    }

    private static void readOutput(Process process, List<String> output, CompletableFuture<Integer> port) {
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = lines.readLine()) != null) {
                output.add(line);
                Matcher started = STARTED.matcher(line);
                if (started.find()) {
                    port.complete(Integer.parseInt(started.group(1)));
                }
            }
            port.completeExceptionally(new IllegalStateException("the process ended: exit " + process.waitFor()));
        } catch (IOException | InterruptedException e) {
            port.completeExceptionally(e);
        }
    }
}
