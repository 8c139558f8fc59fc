package io.appbackplane.sample.pricing;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One bulk re-pricing run: {@code items} re-pricings with at most {@code inFlight} outstanding.
 * Submission happens only on the runs' driver thread; completions arrive on backplane workers and
 * touch only the atomic counters.
 */
public final class PricingRun {

    /** The run's life: RUNNING until every item finished or it was cancelled. */
    public enum Status {
        RUNNING,
        DONE,
        CANCELLED
    }

    final String id;
    final long items;
    final int inFlightLimit;
    final Instant started = Instant.now();
    /** Items handed to the backplane (driver thread only). */
    long next;
    /** When a rejection paused submission, the nanoTime until which the driver backs off. */
    volatile long backingOffUntil;
    final AtomicInteger inFlight = new AtomicInteger();
    final AtomicLong completed = new AtomicLong();
    final AtomicLong failed = new AtomicLong();
    final AtomicLong rejected = new AtomicLong();
    final AtomicBoolean pumpQueued = new AtomicBoolean();
    volatile Status status = Status.RUNNING;
    volatile Instant finished;

    PricingRun(String id, long items, int inFlightLimit) {
        this.id = id;
        this.items = items;
        this.inFlightLimit = inFlightLimit;
    }

    public String id() {
        return id;
    }

    public Status status() {
        return status;
    }

    public long completed() {
        return completed.get();
    }

    public long rejected() {
        return rejected.get();
    }

    /** An immutable view for the API. */
    public View view() {
        Instant end = finished == null ? Instant.now() : finished;
        return new View(id, status, items == Long.MAX_VALUE ? -1 : items, inFlightLimit, completed.get(), failed.get(),
                rejected.get(), inFlight.get(), Duration.between(started, end).toMillis());
    }

    /**
     * A run as the API shows it.
     *
     * @param items items to re-price, -1 for an open-ended run (the load generator's)
     * @param rejected submissions the backplane rejected (each retried after a back-off)
     */
    public record View(String id, Status status, long items, int inFlightLimit, long completed, long failed, long rejected,
            int inFlight, long elapsedMs) {}
}
