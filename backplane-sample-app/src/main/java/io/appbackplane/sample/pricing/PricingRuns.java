package io.appbackplane.sample.pricing;

import io.appbackplane.BackplaneRejectedException;
import io.appbackplane.sample.SampleProperties;
import io.appbackplane.sample.warehouse.Item;
import io.appbackplane.sample.warehouse.WarehouseService;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.Base64;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.stereotype.Service;

/**
 * Drives bulk re-pricing runs with bounded in-flight work: a run keeps at most its window of
 * re-pricings outstanding; when the backplane rejects one (pricing at its operation limit), the
 * run backs off for a moment and retries — back pressure instead of an unbounded queue. The
 * re-pricings go to the mode's {@link Repricer} (the backplane, or the baseline's executor).
 *
 * <p>Submission happens only on one driver thread; a completion just schedules the driver.
 */
@Service
public class PricingRuns implements DisposableBean {

    private static final Logger log = LoggerFactory.getLogger(PricingRuns.class);
    private static final int KEPT_RUNS = 100;

    private final Repricer pricing;
    private final List<Item> catalogue;
    private final long backoffNanos;
    private final int defaultInFlight;
    private final SecureRandom random = new SecureRandom();
    private final Map<String, PricingRun> runs = Collections.synchronizedMap(new LinkedHashMap<>(16, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, PricingRun> eldest) {
            return size() > KEPT_RUNS && eldest.getValue().status() != PricingRun.Status.RUNNING;
        }
    });
    private final ScheduledExecutorService driver = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread thread = new Thread(r, "pricing-runs");
        thread.setDaemon(true);
        return thread;
    });

    public PricingRuns(Repricer pricing, WarehouseService warehouse, SampleProperties properties) {
        this.pricing = pricing;
        this.catalogue = warehouse.catalogue();
        this.backoffNanos = properties.getPricing().getBackoff().toNanos();
        this.defaultInFlight = properties.getPricing().getInFlight();
    }

    /** The window used when the caller names none. */
    public int defaultInFlight() {
        return defaultInFlight;
    }

    /** Starts re-pricing {@code items} SKUs (cycling through the catalogue); {@code Long.MAX_VALUE} runs until cancelled. */
    public PricingRun start(long items, int inFlight) {
        PricingRun run = new PricingRun(newId(), items, inFlight);
        runs.put(run.id(), run);
        schedulePump(run);
        return run;
    }

    /**
     * A run id that cannot be guessed from any other: 128 bits from a {@link SecureRandom}, in
     * URL-safe base64. Knowing a run's id is what lets a caller read or cancel it.
     */
    private String newId() {
        byte[] bits = new byte[16];
        random.nextBytes(bits);
        return "run-" + Base64.getUrlEncoder().withoutPadding().encodeToString(bits);
    }

    public Optional<PricingRun> find(String id) {
        return Optional.ofNullable(runs.get(id));
    }

    /** Stops submitting; what is in flight still finishes. */
    public void cancel(PricingRun run) {
        if (run.status == PricingRun.Status.RUNNING) {
            run.status = PricingRun.Status.CANCELLED;
            run.finished = Instant.now();
        }
    }

    private void schedulePump(PricingRun run) {
        if (run.pumpQueued.compareAndSet(false, true)) {
            driver.execute(() -> {
                run.pumpQueued.set(false);
                pump(run);
            });
        }
    }

    /** Fills the run's window; driver thread only. */
    private void pump(PricingRun run) {
        if (run.status != PricingRun.Status.RUNNING || System.nanoTime() < run.backingOffUntil) {
            return;
        }
        while (run.next < run.items && run.inFlight.get() < run.inFlightLimit && run.status == PricingRun.Status.RUNNING) {
            String sku = catalogue.get((int) (run.next % catalogue.size())).sku();
            CompletableFuture<Price> priced;
            try {
                priced = pricing.reprice(sku);
            } catch (BackplaneRejectedException full) {
                run.rejected.incrementAndGet();
                run.backingOffUntil = System.nanoTime() + backoffNanos;
                driver.schedule(() -> pump(run), backoffNanos, TimeUnit.NANOSECONDS);
                return;
            }
            run.next++;
            run.inFlight.incrementAndGet();
            priced.whenComplete((price, failure) -> finished(run, failure));
        }
    }

    private void finished(PricingRun run, Throwable failure) {
        run.inFlight.decrementAndGet();
        if (failure == null) {
            run.completed.incrementAndGet();
        } else {
            run.failed.incrementAndGet();
            log.debug("pricing {}: an item failed: {}", run.id(), failure.toString());
        }
        if (run.completed.get() + run.failed.get() >= run.items && run.status == PricingRun.Status.RUNNING) {
            run.status = PricingRun.Status.DONE;
            run.finished = Instant.now();
            log.info("pricing {}: done, {} re-priced, {} failed, {} rejections", run.id(), run.completed(), run.failed.get(),
                    run.rejected());
        } else {
            schedulePump(run);
        }
    }

    @Override
    public void destroy() {
        runs.values().forEach(this::cancel);
        driver.shutdownNow();
    }
}
