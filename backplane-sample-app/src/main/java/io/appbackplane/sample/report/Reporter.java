package io.appbackplane.sample.report;

import io.appbackplane.ActionCounts;
import io.appbackplane.Backplane;
import io.appbackplane.BackplaneStatistics;
import io.appbackplane.ComponentStatistics;
import io.appbackplane.LatencyHistogram;
import io.appbackplane.sample.SampleProperties;
import io.appbackplane.sample.baseline.Baseline;
import io.appbackplane.sample.load.LoadGenerator;
import io.appbackplane.sample.load.LoadStats;
import io.appbackplane.sample.orders.Orders;
import io.appbackplane.sample.pricing.Pricing;
import io.appbackplane.spring.annotation.AppComponent;
import io.appbackplane.spring.annotation.ScheduledEndpoint;
import io.appbackplane.spring.autoconfigure.BackplaneRegistry;
import java.time.Duration;
import java.util.Locale;
import org.HdrHistogram.Histogram;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.annotation.Profile;

/**
 * Logs one summary line every {@code sample.report.interval} (a timer action on the backplane, like
 * any other work): urgent latency p50/p99 as the load generator saw it over HTTP, how long urgent
 * and bulk actions waited in the backplane's ready queues (for urgent ones also the 99th percentile), bulk re-pricing
 * throughput, CPU used against the limit, and rejections. Every number comes from {@link
 * LoadStats} or the backplane's statistics, which {@code /actuator/metrics} and {@code
 * /actuator/backplane} show too.
 */
@AppComponent(value = "reporter", dependsOn = {"orders", "pricing"})
@Profile(Baseline.NOT_BASELINE)
public class Reporter {

    private static final Logger log = LoggerFactory.getLogger(Reporter.class);

    private final BackplaneRegistry backplanes;
    private final LoadStats load;
    private final LoadGenerator generator;
    private final long intervalNanos;
    /** Timer state, touched only by the timer action (one at a time on the component's object). */
    private long lastAt = System.nanoTime();
    private long lastBulkActions;
    private long lastRejected;
    private long last503s;
    private Duration lastThrottled = Duration.ZERO;
    private ActionCounts lastUrgentCounts;
    private ActionCounts lastBulkCounts;
    private LatencyHistogram lastUrgentWaits = LatencyHistogram.empty();

    public Reporter(BackplaneRegistry backplanes, LoadStats load, LoadGenerator generator, SampleProperties properties) {
        this.backplanes = backplanes;
        this.load = load;
        this.generator = generator;
        this.intervalNanos = properties.getReport().getInterval().toNanos();
    }

    /** Fires every second; logs when the report interval has passed. */
    @ScheduledEndpoint(fixedRate = "1s", initialDelay = "1s")
    public void tick() {
        if (System.nanoTime() - lastAt >= intervalNanos) {
            log.info(summary());
        }
    }

    /** What an auto CPU limit follows, e.g. " (auto: quota 1.00, rest of process 0.21, aiming at 0.95)". */
    private static String autoText(BackplaneStatistics.Auto auto) {
        return auto.quota() == null ? " (auto: no quota)" : String.format(Locale.ROOT, " (auto: quota %.2f, rest of process %.2f, aiming at %.2f)",
                auto.quota().cores(), auto.restOfProcessCores(), auto.quotaShare());
    }

    /** Computes the summary over the time since the previous one, and starts a new interval. */
    public String summary() {
        long now = System.nanoTime();
        double seconds = Math.max(1e-3, (now - lastAt) / 1e9);
        lastAt = now;

        Backplane backplane = backplaneOf("pricing");
        BackplaneStatistics stats = backplane.statistics();
        ComponentStatistics pricing = component(stats, "pricing");
        ComponentStatistics orders = component(stats, "orders");
        long bulkActions = pricing.counts().actionsRun();
        long rejected = stats.totals().rejected();
        long rejected503 = load.rejectedCount();
        Duration throttled = stats.cpu().throttledTime();
        double usedCores = stats.cpu().usedLastPeriod().toNanos() / (double) stats.policy().integrationPeriod().toNanos();
        double limitCores = stats.cpu().limitCores();
        String limit = (Double.isInfinite(limitCores) ? "unlimited" : String.format(Locale.ROOT, "%.2f", limitCores))
                + (stats.cpu().limit().isAuto() ? autoText(stats.cpu().auto()) : "");

        ActionCounts urgentCounts = stats.priorities().get(Orders.PLACE_PRIORITY).counts();
        ActionCounts bulkCounts = stats.priorities().get(Pricing.REPRICE_PRIORITY).counts();
        LatencyHistogram urgentWaits = stats.priorities().get(Orders.PLACE_PRIORITY).queueWait();
        String queueWait = String.format(Locale.ROOT, "queue wait p%d %.1fms (99th %.1fms), p%d %.0fms", Orders.PLACE_PRIORITY,
                meanQueueMs(urgentCounts, lastUrgentCounts), p99Ms(urgentWaits.minus(lastUrgentWaits)),
                Pricing.REPRICE_PRIORITY, meanQueueMs(bulkCounts, lastBulkCounts));
        lastUrgentCounts = urgentCounts;
        lastBulkCounts = bulkCounts;
        lastUrgentWaits = urgentWaits;

        Histogram urgent = load.interval();
        String latency = urgent.getTotalCount() == 0 ? "urgent p50=- p99=- (no requests)"
                : String.format(Locale.ROOT, "urgent p50=%.1fms p99=%.1fms max=%.1fms (n=%d)", urgent.getValueAtPercentile(50) / 1000.0,
                        urgent.getValueAtPercentile(99) / 1000.0, urgent.getMaxValue() / 1000.0, urgent.getTotalCount());
        String line = String.format(Locale.ROOT,
                "summary: %s | %s | bulk %.0f actions/s | cpu %.2f of %s cores, throttled %.0fms/s | rejected %d (503s to urgent %d)"
                        + " | outstanding orders=%d pricing=%d%s",
                latency, queueWait,
                (bulkActions - lastBulkActions) / seconds,
                usedCores, limit,
                throttled.minus(lastThrottled).toNanos() / 1e6 / seconds,
                rejected - lastRejected, rejected503 - last503s,
                orders.outstanding(), pricing.outstanding(),
                generator.isRunning() ? " | load on, " + generator.secondsLeft() + "s left" : "");
        lastBulkActions = bulkActions;
        lastRejected = rejected;
        last503s = rejected503;
        lastThrottled = throttled;
        return line;
    }

    /** Mean time an action at one priority waited for a worker, over the interval (ms). */
    private static double meanQueueMs(ActionCounts now, ActionCounts before) {
        long actions = now.actionsRun() - (before == null ? 0 : before.actionsRun());
        Duration waited = now.totalQueueTime().minus(before == null ? Duration.ZERO : before.totalQueueTime());
        return actions == 0 ? 0 : waited.toNanos() / 1e6 / actions;
    }

    /** The 99th percentile of an interval's queue waits (ms), 0 when nothing ran. */
    private static double p99Ms(LatencyHistogram waits) {
        Duration p99 = waits.percentile(0.99);
        return p99 == null ? 0 : p99.toNanos() / 1e6;
    }

    private Backplane backplaneOf(String component) {
        return backplanes.all().values().stream()
                .filter(b -> b.component(component).isPresent())
                .findFirst()
                .orElseThrow(() -> new IllegalStateException("no backplane has component '" + component + "'"));
    }

    private static ComponentStatistics component(BackplaneStatistics stats, String name) {
        return stats.components().stream().filter(c -> c.name().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalStateException("backplane '" + stats.name() + "' has no component '" + name + "'"));
    }
}
