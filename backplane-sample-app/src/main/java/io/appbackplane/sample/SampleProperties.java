package io.appbackplane.sample;

import java.net.URI;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/** The sample's own settings ({@code sample.*}): the simulated services, the load mode and the report. */
@ConfigurationProperties("sample")
public class SampleProperties {

    private final Catalogue catalogue = new Catalogue();
    private final Warehouse warehouse = new Warehouse();
    private final Payments payments = new Payments();
    private final Orders orders = new Orders();
    private final Pricing pricing = new Pricing();
    private final Load load = new Load();
    private final Report report = new Report();

    public Catalogue getCatalogue() {
        return catalogue;
    }

    public Warehouse getWarehouse() {
        return warehouse;
    }

    public Payments getPayments() {
        return payments;
    }

    public Orders getOrders() {
        return orders;
    }

    public Pricing getPricing() {
        return pricing;
    }

    public Load getLoad() {
        return load;
    }

    public Report getReport() {
        return report;
    }

    /** The items on sale. */
    public static class Catalogue {
        /** How many SKUs the warehouse lists (sku-0001 ...). */
        private int size = 1000;

        public int getSize() {
            return size;
        }

        public void setSize(int size) {
            this.size = size;
        }
    }

    /** The simulated external warehouse service. */
    public static class Warehouse {
        /** Units of every SKU in stock at start-up. */
        private int initialStock = 1_000_000;
        /** How long the warehouse takes to answer a reservation (plus up to as much again of jitter). */
        private Duration delay = Duration.ofMillis(2);

        public int getInitialStock() {
            return initialStock;
        }

        public void setInitialStock(int initialStock) {
            this.initialStock = initialStock;
        }

        public Duration getDelay() {
            return delay;
        }

        public void setDelay(Duration delay) {
            this.delay = delay;
        }
    }

    /** The simulated external payment service. */
    public static class Payments {
        /** How long a charge takes (plus up to as much again of jitter). */
        private Duration delay = Duration.ofMillis(3);
        /** Charges above this many cents are declined. */
        private long limitCents = 250_000;

        public Duration getDelay() {
            return delay;
        }

        public void setDelay(Duration delay) {
            this.delay = delay;
        }

        public long getLimitCents() {
            return limitCents;
        }

        public void setLimitCents(long limitCents) {
            this.limitCents = limitCents;
        }
    }

    /** The order state machines. */
    public static class Orders {
        /** How long an order waits for the warehouse or the payment service before it fails. */
        private Duration replyTimeout = Duration.ofSeconds(2);
        /** How many finished orders are kept for GET /orders/{id} (the oldest are forgotten). */
        private int retained = 100_000;

        public Duration getReplyTimeout() {
            return replyTimeout;
        }

        public void setReplyTimeout(Duration replyTimeout) {
            this.replyTimeout = replyTimeout;
        }

        public int getRetained() {
            return retained;
        }

        public void setRetained(int retained) {
            this.retained = retained;
        }
    }

    /** Bulk re-pricing. */
    public static class Pricing {
        /** CPU time one re-pricing action spends computing. */
        private Duration work = Duration.ofNanos(300_000);
        /** Default in-flight window of a run started with POST /pricing/runs. */
        private int inFlight = 200;
        /** How long a run pauses after the backplane rejected one of its items. */
        private Duration backoff = Duration.ofMillis(20);

        public Duration getWork() {
            return work;
        }

        public void setWork(Duration work) {
            this.work = work;
        }

        public int getInFlight() {
            return inFlight;
        }

        public void setInFlight(int inFlight) {
            this.inFlight = inFlight;
        }

        public Duration getBackoff() {
            return backoff;
        }

        public void setBackoff(Duration backoff) {
            this.backoff = backoff;
        }
    }

    /** The built-in load generator (on in the demo profile). */
    public static class Load {
        /** Whether to run it once the application is ready. */
        private boolean enabled;
        /** How long it runs; then it stops and the application keeps serving. */
        private Duration duration = Duration.ofSeconds(60);
        /** The first part of the run: urgent requests only, not recorded (connections, JIT); then the bulk flood starts. */
        private Duration warmup = Duration.ofSeconds(3);
        /** One urgent order request over HTTP this often. */
        private Duration urgentInterval = Duration.ofMillis(5);
        /** At most this many urgent requests in flight (further ticks are skipped and counted). */
        private int urgentMaxInFlight = 200;
        /** Bulk re-pricing requests kept in flight: more than pricing's operation limit, so some are rejected. */
        private int bulkInFlight = 3000;
        /**
         * Another instance to load instead of this one, such as http://127.0.0.1:8080: its urgent
         * orders go there over HTTP and its bulk re-pricing is started there with POST
         * /pricing/runs (cancelled at the end). Set, it turns load mode on, this process serves
         * nothing, and it exits when the load is over.
         */
        private URI target;

        public URI getTarget() {
            return target;
        }

        public void setTarget(URI target) {
            this.target = target;
        }

        public boolean isEnabled() {
            return enabled;
        }

        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }

        public Duration getDuration() {
            return duration;
        }

        public void setDuration(Duration duration) {
            this.duration = duration;
        }

        public Duration getWarmup() {
            return warmup;
        }

        public void setWarmup(Duration warmup) {
            this.warmup = warmup;
        }

        public Duration getUrgentInterval() {
            return urgentInterval;
        }

        public void setUrgentInterval(Duration urgentInterval) {
            this.urgentInterval = urgentInterval;
        }

        public int getUrgentMaxInFlight() {
            return urgentMaxInFlight;
        }

        public void setUrgentMaxInFlight(int urgentMaxInFlight) {
            this.urgentMaxInFlight = urgentMaxInFlight;
        }

        public int getBulkInFlight() {
            return bulkInFlight;
        }

        public void setBulkInFlight(int bulkInFlight) {
            this.bulkInFlight = bulkInFlight;
        }
    }

    /** The summary line. */
    public static class Report {
        /** How often the reporter logs its summary line (checked by a 1 s timer). */
        private Duration interval = Duration.ofSeconds(5);

        public Duration getInterval() {
            return interval;
        }

        public void setInterval(Duration interval) {
            this.interval = interval;
        }
    }
}
