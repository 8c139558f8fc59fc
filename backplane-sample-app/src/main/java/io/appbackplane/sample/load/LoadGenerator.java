package io.appbackplane.sample.load;

import io.appbackplane.sample.SampleProperties;
import io.appbackplane.sample.pricing.PricingRun;
import io.appbackplane.sample.pricing.PricingRuns;
import io.appbackplane.sample.warehouse.Item;
import io.appbackplane.sample.warehouse.WarehouseService;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.HdrHistogram.Histogram;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;
import org.springframework.core.env.Environment;
import org.springframework.stereotype.Component;

/**
 * The demo's load mode ({@code sample.load.enabled}, on in the {@code demo} profile): for {@code
 * sample.load.duration} after start-up it
 * <ul>
 *   <li>floods bulk re-pricing — an open-ended {@link PricingRun} that keeps more re-pricings in
 *       flight than pricing's operation limit allows, so the backplane rejects the excess and the
 *       run backs off; and</li>
 *   <li>sends an urgent order every {@code sample.load.urgent-interval} through the real HTTP API on
 *       127.0.0.1 with the JDK HttpClient, recording each latency in {@link LoadStats}.</li>
 * </ul>
 * Then it stops by itself; the application keeps serving.
 *
 * <p>With {@code sample.load.target} set it loads that instance instead: urgent orders go to its
 * {@code /orders}, and the bulk flood is a re-pricing run started there with {@code POST
 * /pricing/runs} and cancelled with {@code DELETE} at the end, so that everything the measured
 * instance spends is its own work, and the load's cost is in another process.
 */
@Component
public class LoadGenerator implements DisposableBean {

    private static final Logger log = LoggerFactory.getLogger(LoadGenerator.class);
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(5);
    /** Items of a bulk run started on a target: more than any run re-prices before it is cancelled. */
    private static final long REMOTE_BULK_ITEMS = 100_000_000;
    private static final Pattern COMPLETED = Pattern.compile("\"completed\":(\\d+)");

    private final SampleProperties.Load settings;
    private final PricingRuns pricingRuns;
    private final List<Item> catalogue;
    private final LoadStats stats;
    private final Environment environment;
    private final AtomicInteger urgentInFlight = new AtomicInteger();
    private final CountDownLatch finished = new CountDownLatch(1);
    private final ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread thread = new Thread(r, "load-generator");
        thread.setDaemon(true);
        return thread;
    });
    private volatile HttpClient http;
    private volatile PricingRun bulk;
    /** The bulk run started on the target, e.g. {@code http://127.0.0.1:8080/pricing/runs/r1}; null before it. */
    private volatile URI remoteBulk;
    private volatile long endsAtNanos;
    private volatile boolean recording;

    public LoadGenerator(SampleProperties properties, PricingRuns pricingRuns, WarehouseService warehouse, LoadStats stats,
            Environment environment) {
        this.settings = properties.getLoad();
        this.pricingRuns = pricingRuns;
        this.catalogue = warehouse.catalogue();
        this.stats = stats;
        this.environment = environment;
    }

    @EventListener(ApplicationReadyEvent.class)
    void startIfEnabled() {
        if (!settings.isEnabled()) {
            finished.countDown();
            return;
        }
        int port = environment.getProperty("local.server.port", Integer.class, 8080);
        URI target = settings.getTarget();
        URI orders = target == null ? URI.create("http://127.0.0.1:" + port + "/orders") : target.resolve("/orders");
        http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(REQUEST_TIMEOUT).build();
        endsAtNanos = System.nanoTime() + settings.getDuration().toNanos();
        long every = settings.getUrgentInterval().toNanos();
        long warmup = Math.min(settings.getWarmup().toNanos(), settings.getDuration().toNanos());
        ticker.scheduleAtFixedRate(() -> sendUrgent(orders), 0, every, TimeUnit.NANOSECONDS);
        ticker.schedule(this::startFlood, warmup, TimeUnit.NANOSECONDS);
        ticker.schedule(this::stop, settings.getDuration().toNanos(), TimeUnit.NANOSECONDS);
        log.info("load: for {}s, an urgent order every {}ms to {}; after a {}ms warm-up (not recorded) also bulk re-pricing"
                        + " with {} in flight", settings.getDuration().toSeconds(), settings.getUrgentInterval().toMillis(), orders,
                TimeUnit.NANOSECONDS.toMillis(warmup), settings.getBulkInFlight());
    }

    /** Ends the warm-up: from now on urgent latencies are recorded, and bulk re-pricing floods the backplane. */
    private void startFlood() {
        if (finished.getCount() == 0) {
            return; // the run already ended (a warm-up as long as the run)
        }
        recording = true;
        URI target = settings.getTarget();
        if (target != null) {
            startRemoteFlood(target);
            return;
        }
        bulk = pricingRuns.start(Long.MAX_VALUE, settings.getBulkInFlight());
        log.info("load: warm-up done; bulk re-pricing {} started", bulk.id());
    }

    private void startRemoteFlood(URI target) {
        URI runs = target.resolve("/pricing/runs?items=" + REMOTE_BULK_ITEMS + "&inFlight=" + settings.getBulkInFlight());
        try {
            HttpResponse<String> response = http.send(HttpRequest.newBuilder(runs).timeout(REQUEST_TIMEOUT)
                    .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
            String location = response.headers().firstValue("Location").orElse(null);
            if (response.statusCode() != 202 || location == null) {
                log.error("load: {} answered {} to starting a bulk re-pricing run: {}", runs, response.statusCode(), response.body());
                return;
            }
            remoteBulk = target.resolve(location);
            log.info("load: warm-up done; bulk re-pricing {} started", remoteBulk);
        } catch (IOException e) {
            log.error("load: could not start a bulk re-pricing run at {}", runs, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Cancels the bulk run on the target; returns how many items it re-priced, -1 if unknown. */
    private long cancelRemoteFlood() {
        URI run = remoteBulk;
        if (run == null) {
            return 0;
        }
        try {
            HttpResponse<String> response = http.send(HttpRequest.newBuilder(run).timeout(REQUEST_TIMEOUT).DELETE().build(),
                    HttpResponse.BodyHandlers.ofString());
            Matcher completed = COMPLETED.matcher(response.body());
            return completed.find() ? Long.parseLong(completed.group(1)) : -1;
        } catch (IOException e) {
            log.error("load: could not cancel the bulk re-pricing run {}", run, e);
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    private void sendUrgent(URI orders) {
        if (urgentInFlight.get() >= settings.getUrgentMaxInFlight()) {
            if (recording) {
                stats.skipped();
            }
            return;
        }
        Item item = catalogue.get(ThreadLocalRandom.current().nextInt(catalogue.size()));
        int quantity = 1 + ThreadLocalRandom.current().nextInt(3);
        HttpRequest request = HttpRequest.newBuilder(orders)
                .timeout(REQUEST_TIMEOUT)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"item\":\"" + item.sku() + "\",\"quantity\":" + quantity + "}"))
                .build();
        urgentInFlight.incrementAndGet();
        long sent = System.nanoTime();
        http.sendAsync(request, HttpResponse.BodyHandlers.discarding()).whenComplete((response, failure) -> {
            long nanos = System.nanoTime() - sent;
            urgentInFlight.decrementAndGet();
            if (!recording) {
                return; // warm-up: connections, JIT
            }
            if (failure != null) {
                stats.failed();
            } else if (response.statusCode() / 100 == 2) {
                stats.answered(nanos);
            } else if (response.statusCode() == 503) {
                stats.rejected();
            } else {
                stats.failed();
            }
        });
    }

    private void stop() {
        ticker.shutdown();
        recording = false;
        PricingRun run = bulk;
        if (run != null) {
            pricingRuns.cancel(run);
        }
        long bulkDone = run != null ? run.completed() : cancelRemoteFlood();
        Histogram whole = stats.wholeRun();
        whole.add(stats.interval());
        log.info(String.format(Locale.ROOT, "load: finished after %ds: %d urgent orders answered, p50=%.1fms p99=%.1fms max=%.1fms,"
                        + " %d answered 503, %d failed; bulk re-priced %d, %d rejections. The app keeps serving.",
                settings.getDuration().toSeconds(), stats.answeredCount(), whole.getValueAtPercentile(50) / 1000.0,
                whole.getValueAtPercentile(99) / 1000.0, whole.getMaxValue() / 1000.0, stats.rejectedCount(), stats.failedCount(),
                bulkDone, run == null ? 0 : run.rejected()));
        finished.countDown();
    }

    /** Whether load mode is running now. */
    public boolean isRunning() {
        return finished.getCount() > 0 && settings.isEnabled();
    }

    /** Seconds of load left, 0 when not running. */
    public long secondsLeft() {
        return isRunning() ? Math.max(0, TimeUnit.NANOSECONDS.toSeconds(endsAtNanos - System.nanoTime())) : 0;
    }

    /** Waits until load mode has finished (or was never on). */
    public boolean awaitFinished(Duration timeout) throws InterruptedException {
        return finished.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    @Override
    public void destroy() {
        ticker.shutdownNow();
    }
}
