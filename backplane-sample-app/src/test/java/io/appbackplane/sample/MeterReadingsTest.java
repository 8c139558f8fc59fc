package io.appbackplane.sample;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.appbackplane.sample.SideBySideRun.Sample;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The side-by-side runner's readings when the measured instance stops answering its Actuator (as
 * {@code baseline-virtual} does when bulk re-pricing holds every carrier thread): the readings go on,
 * the process CPU read without the instance's help, the re-pricings marked unknown. Two small HTTP
 * servers on 127.0.0.1 stand in for the Actuator endpoints of the two processes, so that the
 * instance can be made to stop answering at a chosen reading; the CPU clock counts the readings'
 * CPU seconds.
 */
class MeterReadingsTest {

    /** The readings' interval: what a reading waits for the instance, ample for an answer over a warm connection. */
    private static final Duration EVERY = Duration.ofSeconds(1);

    private final CountDownLatch released = new CountDownLatch(1);
    private final AtomicLong repriced = new AtomicLong();
    private final AtomicInteger answersLeft = new AtomicInteger();
    private final AtomicInteger cpuReads = new AtomicInteger();
    private ExecutorService handlers;
    private HttpServer measured;
    private HttpServer loader;

    @BeforeEach
    void servers() throws IOException {
        handlers = Executors.newCachedThreadPool(); // a request left hanging must not hold up the others
        measured = server();
        measured.createContext("/actuator/metrics/", exchange -> {
            if (answersLeft.getAndDecrement() <= 0) {
                await(released); // the instance no longer answers: the request hangs until the test ends
            }
            answer(exchange, meter("sample.pricing.repriced", null, repriced.addAndGet(100)));
        });
        measured.createContext("/warm", exchange -> answer(exchange, "{}"));
        loader = server();
        loader.createContext("/actuator/metrics/sample.urgent.latency.percentile", exchange ->
                answer(exchange, meter("sample.urgent.latency.percentile", "seconds", 0.012)));
    }

    @AfterEach
    void stop() {
        released.countDown();
        measured.stop(0);
        loader.stop(0);
        handlers.shutdownNow();
    }

    @Test
    void anInstanceThatNeverAnswers_givesReadingsWithItsCpuAndTheBulkMarkedUnknown() {
        MeterReadings readings = readings(0);
        for (int i = 0; i < 3; i++) {
            readings.read();
        }
        readings.rethrow();

        List<Sample> samples = readings.samples();
        assertThat(samples).hasSize(3).allSatisfy(sample -> {
            assertThat(sample.metersAnswered()).as("meters answered: " + sample).isFalse();
            assertThat(sample.bulkPerSecond()).as("re-pricings of an unanswered reading: " + sample).isNaN();
            assertThat(sample.cpuCores()).as("CPU read without the instance: " + sample).isFinite().isPositive();
            assertThat(sample.urgentP99Ms()).as("the load process's percentile: " + sample).isEqualTo(12.0);
        });
        assertThat(readings.unanswered()).as("the reading at the start and the three after it").isEqualTo(4);
        assertThat(readings.bulkPerSecond()).as("re-pricings over the run, never answered").isNaN();
        assertThat(readings.cpuCores()).isFinite().isPositive();
    }

    @Test
    void anInstanceThatStopsAnswering_keepsTheBulkOfTheReadingsItAnswered() {
        MeterReadings readings = readings(2); // the first reading (at the start) and one more are answered
        for (int i = 0; i < 3; i++) {
            readings.read();
        }
        readings.rethrow();

        List<Sample> samples = readings.samples();
        assertThat(samples).extracting(Sample::metersAnswered).containsExactly(true, false, false);
        assertThat(samples.get(0).bulkPerSecond()).as("100 re-pricings between the two answers: " + samples.get(0)).isPositive();
        assertThat(samples.subList(1, 3)).allSatisfy(sample -> assertThat(sample.bulkPerSecond()).isNaN());
        assertThat(samples).allSatisfy(sample -> assertThat(sample.cpuCores()).isFinite().isPositive());
        assertThat(readings.unanswered()).isEqualTo(2);
        assertThat(readings.bulkPerSecond()).as("re-pricings between the first and the last answer").isPositive();
    }

    /** Readings whose instance answers {@code answers} meter requests, then none. */
    private MeterReadings readings(int answers) {
        answersLeft.set(answers);
        long recordedUntil = System.nanoTime() + Duration.ofMinutes(1).toNanos();
        // A CPU clock that advances a tenth of a second a read: the readings' rates rest on it alone.
        MeterReadings.CpuClock cpu = () -> cpuReads.incrementAndGet() / 10.0;
        Http instance = new Http(measured.getAddress().getPort(), measured.getAddress().getPort());
        assertThat(instance.get("/warm").statusCode()).as("the client's connection, made before the readings").isEqualTo(200);
        return new MeterReadings(instance, cpu, new Http(-1, loader.getAddress().getPort()), recordedUntil, EVERY);
    }

    private HttpServer server() throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(handlers);
        server.start();
        return server;
    }

    private static String meter(String name, String baseUnit, double value) {
        return "{\"name\":\"" + name + "\"," + (baseUnit == null ? "" : "\"baseUnit\":\"" + baseUnit + "\",")
                + "\"measurements\":[{\"statistic\":\"VALUE\",\"value\":" + value + "}]}";
    }

    private static void answer(HttpExchange exchange, String json) throws IOException {
        byte[] body = json.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(200, body.length);
        try (exchange) {
            exchange.getResponseBody().write(body);
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
