package io.appbackplane.sample;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A small HTTP/1.1 client for the tests, against the app on 127.0.0.1; every exchange has a bounded
 * timeout. Paths under {@code /actuator} go to the management port (the sample serves Actuator on a
 * port of its own), every other path to the application port.
 */
final class Http {

    static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final HttpClient client = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(TIMEOUT)
            .build();
    private final int port;
    private final int managementPort;

    /** A client for the application's own API only. */
    Http(int port) {
        this(port, -1);
    }

    Http(int port, int managementPort) {
        this.port = port;
        this.managementPort = managementPort;
    }

    HttpResponse<String> get(String path) {
        return join(getAsync(path));
    }

    CompletableFuture<HttpResponse<String>> getAsync(String path) {
        return client.sendAsync(request(path).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    HttpResponse<String> post(String path, String json) {
        return join(postAsync(path, json));
    }

    CompletableFuture<HttpResponse<String>> postAsync(String path, String json) {
        return client.sendAsync(request(path).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)).build(), HttpResponse.BodyHandlers.ofString());
    }

    /** {@code POST /orders} body for {@code quantity} of {@code item}. */
    static String order(String item, int quantity) {
        return "{\"item\":\"" + item + "\",\"quantity\":" + quantity + "}";
    }

    static JsonNode json(HttpResponse<String> response) {
        return JSON.readTree(response.body());
    }

    HttpResponse<String> delete(String path) {
        return join(client.sendAsync(request(path).DELETE().build(), HttpResponse.BodyHandlers.ofString()));
    }

    /** Sends {@code request} as built by the caller (any method, headers and body) to the port its path belongs to. */
    HttpResponse<String> send(String method, String path, java.util.Map<String, String> headers, String body) {
        HttpRequest.Builder request = request(path).method(method,
                body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        headers.forEach(request::header);
        return join(client.sendAsync(request.build(), HttpResponse.BodyHandlers.ofString()));
    }

    private HttpRequest.Builder request(String path) {
        boolean management = path.equals("/actuator") || path.startsWith("/actuator/") || path.startsWith("/actuator?");
        if (management && managementPort < 0) {
            throw new IllegalStateException("this client was made without the management port; " + path + " is served there");
        }
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + (management ? managementPort : port) + path)).timeout(TIMEOUT);
    }

    private static HttpResponse<String> join(CompletableFuture<HttpResponse<String>> response) {
        try {
            return response.get(TIMEOUT.toSeconds() + 5, java.util.concurrent.TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (java.util.concurrent.ExecutionException e) {
            throw e.getCause() instanceof IOException io ? new UncheckedIOException(io) : new IllegalStateException(e.getCause());
        } catch (java.util.concurrent.TimeoutException e) {
            throw new IllegalStateException("no answer within " + TIMEOUT, e);
        }
    }
}
