package io.appbackplane.spring;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A tiny HTTP/1.1 client for web tests against a server on 127.0.0.1: every request has a bounded
 * timeout, so a hung server fails the test instead of hanging the build.
 */
public final class LocalHttp {

    /** Upper bound for connecting and for any one exchange. */
    public static final Duration TIMEOUT = Duration.ofSeconds(10);

    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** Exception or error class names, stack frames, Java package names. */
    private static final Pattern JAVA_INTERNALS = Pattern.compile(
            "\\w+(Exception|Error)\\b|\\bat [\\w$.]+\\(|\\b(java|javax|jakarta|tools\\.jackson|org\\.springframework|io\\.appbackplane)\\.\\w");

    private final HttpClient client = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(TIMEOUT)
            .build();
    private final int port;

    public LocalHttp(int port) {
        this.port = port;
    }

    /** {@code GET path}, waiting at most {@link #TIMEOUT}. */
    public HttpResponse<String> get(String path) {
        return send(request(path).GET().build());
    }

    /** {@code GET path}, answered later (for a request that should stay in flight). */
    public CompletableFuture<HttpResponse<String>> getAsync(String path) {
        return client.sendAsync(request(path).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    /** {@code POST path} with a JSON body. */
    public HttpResponse<String> postJson(String path, String json) {
        return send(request(path).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)).build());
    }

    /**
     * Whether {@code body} shows Java internals: an exception or error class name, a stack frame,
     * or a Java package name. HTTP answers must explain themselves without them.
     */
    public static boolean revealsJavaInternals(String body) {
        return JAVA_INTERNALS.matcher(body).find();
    }

    /** Parses a response body as JSON. */
    public static JsonNode json(HttpResponse<String> response) {
        return JSON.readTree(response.body());
    }

    private HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).timeout(TIMEOUT);
    }

    private HttpResponse<String> send(HttpRequest request) {
        try {
            return client.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted: " + request, e);
        } catch (IOException e) {
            throw new IllegalStateException(request + " failed", e);
        }
    }
}
