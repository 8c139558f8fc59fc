package io.appbackplane.sample;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The jar {@code ./mvnw package} builds is executable and was processed by Spring AOT, and each
 * {@code java -jar} command of the README starts it: run as written (with the README's JVM
 * options, {@code -Dspring.aot.enabled=true} among them for the AOT-processed start, which fails at
 * once if the AOT-generated initializer is missing) on free ports of 127.0.0.1, it serves {@code
 * /actuator/backplane} on its management port. Bounded in time; the process is killed afterwards.
 */
class ExecutableJarIT {

    private static final Duration START_TIMEOUT = Duration.ofSeconds(90);
    private static final Pattern STARTED = Pattern.compile("started on port (\\d+)");
    private static final Pattern FENCED_BASH = Pattern.compile("```bash\\n(.*?)```", Pattern.DOTALL);
    private static final String README_JAR = "backplane-sample-app/target/backplane-sample-app-0.1.0-SNAPSHOT.jar";

    @Test
    void theJarIsExecutableAndAotProcessed() throws IOException {
        Path jar = jar();
        assertThat(jar).exists();
        assertThat(README_JAR).as("the README names the jar the build makes").endsWith(jar.getFileName().toString());
        try (JarFile file = new JarFile(jar.toFile())) {
            assertThat(file.getManifest().getMainAttributes().getValue("Start-Class"))
                    .isEqualTo(OrderDeskApplication.class.getName());
            assertThat(file.getEntry("BOOT-INF/classes/io/appbackplane/sample/OrderDeskApplication__ApplicationContextInitializer.class"))
                    .as("the AOT-generated context initializer").isNotNull();
        }
    }

    static List<String> readmeJavaCommands() throws IOException {
        List<String> commands = new ArrayList<>();
        Matcher block = FENCED_BASH.matcher(Files.readString(Path.of("../README.md")));
        while (block.find()) {
            for (String line : block.group(1).split("\\n")) {
                if (line.startsWith("java ")) {
                    commands.add(line.replaceFirst("\\s+#.*$", "").strip());
                }
            }
        }
        assertThat(commands).as("the README's java -jar commands").hasSizeGreaterThanOrEqualTo(2);
        return commands;
    }

    @ParameterizedTest
    @MethodSource("readmeJavaCommands")
    void theReadmesJavaCommandStartsTheJarAndServesTheActuatorEndpoint(String command) throws Exception {
        List<String> words = List.of(command.split("\\s+"));
        int jarOption = words.indexOf("-jar");
        assertThat(jarOption).as(command).isPositive();
        assertThat(words.get(jarOption + 1)).as(command).isEqualTo(README_JAR);
        assertThat(words).as(command + ": this test passes only JVM options before -jar").hasSize(jarOption + 2);
        boolean aot = words.contains("-Dspring.aot.enabled=true");

        int managementPort = freePort();
        List<String> launch = new ArrayList<>();
        launch.add(ProcessHandle.current().info().command().orElse("java"));
        launch.addAll(words.subList(1, jarOption)); // the README's JVM options
        launch.addAll(List.of("-jar", jar().toString(), "--server.address=127.0.0.1", "--server.port=0",
                "--management.server.port=" + managementPort, "--sample.load.enabled=false", "--spring.main.banner-mode=off"));
        Process process = new ProcessBuilder(launch).redirectErrorStream(true).start();
        List<String> output = new CopyOnWriteArrayList<>();
        CompletableFuture<Integer> port = new CompletableFuture<>();
        Thread reader = new Thread(() -> readOutput(process, output, port, managementPort), "sample-jar-output");
        reader.setDaemon(true);
        reader.start();
        try {
            try {
                port.get(START_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            } catch (Exception e) {
                throw new AssertionError("the jar did not start within " + START_TIMEOUT + "; its output:\n"
                        + String.join("\n", output), e);
            }
            HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
            HttpResponse<String> response = client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + managementPort
                    + "/actuator/backplane")).timeout(Duration.ofSeconds(10)).GET().build(), HttpResponse.BodyHandlers.ofString());

            assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
            assertThat(response.body()).contains("\"default\"").contains("\"orders\"").contains("PRIMARY");
            if (aot) {
                assertThat(output).as("started from the AOT-generated context")
                        .anyMatch(line -> line.contains("Starting AOT-processed OrderDeskApplication"));
            } else {
                assertThat(output).as("started without AOT").noneMatch(line -> line.contains("AOT-processed"))
                        .anyMatch(line -> line.contains("Starting OrderDeskApplication"));
            }
        } finally {
            process.destroy();
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
    }

    private static Path jar() {
        return Path.of(System.getProperty("sample.jar", "target/backplane-sample-app.jar"));
    }

    /** A port free on 127.0.0.1 a moment ago (the management port must be named: it is fixed in application.yml). */
    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    /**
     * Completes {@code port} with the application's port once both servers started: the
     * application's and the management one (which may start after it).
     */
    private static void readOutput(Process process, List<String> output, CompletableFuture<Integer> port, int managementPort) {
        int application = -1;
        boolean management = false;
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = lines.readLine()) != null) {
                output.add(line);
                Matcher started = STARTED.matcher(line);
                if (started.find()) {
                    int listening = Integer.parseInt(started.group(1));
                    if (listening == managementPort) {
                        management = true;
                    } else {
                        application = listening;
                    }
                    if (management && application > 0) {
                        port.complete(application);
                    }
                }
            }
            port.completeExceptionally(new IllegalStateException("the process ended: exit " + process.waitFor()));
        } catch (IOException | InterruptedException e) {
            port.completeExceptionally(e);
        }
    }
}
