package io.appbackplane.spring.metrics;

import io.appbackplane.ActionCounts;
import io.appbackplane.Backplane;
import io.appbackplane.BackplaneComponent;
import io.appbackplane.BackplaneRejectedException;
import io.appbackplane.BackplaneStatistics;
import io.appbackplane.ComponentState;
import io.appbackplane.ComponentStatistics;
import io.appbackplane.EndpointStatistics;
import io.appbackplane.PriorityStatistics;
import io.appbackplane.spring.autoconfigure.BackplaneRegistry;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;
import java.util.function.ToLongFunction;

/**
 * A {@link MeterBinder} for the {@link BackplaneMeters}. Spring Boot's metrics auto-configuration
 * binds it once every singleton — so every {@code @AppComponent} — is installed, and only where a
 * meter belongs once: to its composite registry, which passes each meter to every registry it holds
 * exactly once, or, without a composite, to each registry. Meters read the backplanes' statistics
 * snapshots (cached for a short time, so one scrape takes one snapshot per backplane), which costs
 * the action path nothing.
 */
public final class BackplaneMetrics implements MeterBinder {

    private final BackplaneRegistry registry;
    /** Micrometer's function meters hold their state object weakly: keep the caches reachable. */
    private final List<StatisticsCache> caches = new CopyOnWriteArrayList<>();
    /** The registries bound already: binding one twice would register every meter twice. */
    private final Set<MeterRegistry> bound = Collections.synchronizedSet(Collections.newSetFromMap(new IdentityHashMap<>()));

    public BackplaneMetrics(BackplaneRegistry registry) {
        this.registry = registry;
    }

    /** Registers every backplane's meters with {@code meters}; does nothing if it did so already. */
    @Override
    public void bindTo(MeterRegistry meters) {
        if (!bound.add(meters)) {
            return;
        }
        for (Backplane backplane : registry.all().values()) {
            StatisticsCache stats = new StatisticsCache(backplane);
            caches.add(stats);
            Tags bp = Tags.of("backplane", backplane.name());
            gauge(meters, BackplaneMeters.WAITING, bp, stats, s -> s.waitingObjects());
            gauge(meters, BackplaneMeters.CPU_USED, bp, stats, s -> s.cpu().usedThisPeriod().toNanos() / 1e9);
            gauge(meters, BackplaneMeters.CPU_USED_LAST, bp, stats, s -> s.cpu().usedLastPeriod().toNanos() / 1e9);
            gauge(meters, BackplaneMeters.CPU_LIMIT, bp, stats, s -> Double.isInfinite(s.cpu().limitCores()) ? Double.NaN : s.cpu().limitCores());
            counter(meters, BackplaneMeters.THROTTLED, bp, stats, s -> s.cpu().throttledTime().toNanos() / 1e9);
            counter(meters, BackplaneMeters.VIRTUAL_TICKS, bp, stats, s -> s.virtualTicks());
            gauge(meters, BackplaneMeters.THREADS, bp.and("state", "busy"), stats, s -> s.busyThreads());
            gauge(meters, BackplaneMeters.THREADS, bp.and("state", "idle"), stats, s -> s.idleThreads());
            gauge(meters, BackplaneMeters.THREADS, bp.and("state", "total"), stats, s -> s.threads());
            for (int p = 0; p < backplane.policy().priorities(); p++) {
                int priority = p;
                Tags tags = bp.and("priority", String.valueOf(p));
                Function<BackplaneStatistics, PriorityStatistics> of = s -> s.priorities().get(priority);
                gauge(meters, BackplaneMeters.READY_DEPTH, tags, stats, s -> of.apply(s).readyDepth());
                gauge(meters, BackplaneMeters.QUOTA_USED, tags, stats, s -> of.apply(s).usedThisPeriod());
                counter(meters, BackplaneMeters.PRIORITY_ACTIONS, tags, stats, s -> of.apply(s).counts().actionsRun());
                outcomes(meters, BackplaneMeters.PRIORITY_REQUESTS, tags, stats, s -> of.apply(s).counts());
                timer(meters, BackplaneMeters.PRIORITY_QUEUE, tags, stats, s -> of.apply(s).counts().actionsRun(),
                        s -> of.apply(s).counts().totalQueueTime().toNanos());
            }
            for (BackplaneRejectedException.Reason reason : BackplaneRejectedException.Reason.values()) {
                counter(meters, BackplaneMeters.REJECTIONS, bp.and("reason", reason.name()), stats,
                        s -> s.rejectionsByReason().get(reason));
            }
            for (BackplaneComponent component : backplane.components()) {
                bindComponent(meters, stats, bp, component);
            }
        }
    }

    private static void bindComponent(MeterRegistry meters, StatisticsCache stats, Tags bp, BackplaneComponent component) {
        String name = component.name();
        Tags tags = bp.and("component", name);
        Function<BackplaneStatistics, ComponentStatistics> of = s -> s.components().stream()
                .filter(c -> c.name().equals(name)).findFirst().orElseThrow();
        outcomes(meters, BackplaneMeters.REQUESTS, tags, stats, s -> of.apply(s).counts());
        timer(meters, BackplaneMeters.ACTION_RUN, tags, stats, s -> of.apply(s).counts().actionsRun(),
                s -> of.apply(s).counts().totalRunTime().toNanos());
        timer(meters, BackplaneMeters.ACTION_QUEUE, tags, stats, s -> of.apply(s).counts().actionsRun(),
                s -> of.apply(s).counts().totalQueueTime().toNanos());
        counter(meters, BackplaneMeters.SLOW_ACTIONS, tags, stats, s -> of.apply(s).counts().slowActions());
        gauge(meters, BackplaneMeters.OUTSTANDING, tags, stats, s -> of.apply(s).outstanding());
        gauge(meters, BackplaneMeters.OPERATION_LIMIT, tags, stats, s -> of.apply(s).operationLimit());
        for (ComponentState state : ComponentState.values()) {
            gauge(meters, BackplaneMeters.COMPONENT_STATE, tags.and("state", state.name()), stats,
                    s -> of.apply(s).state() == state ? 1 : 0);
        }
        component.endpoints().forEach(endpoint -> {
            String endpointName = endpoint.name();
            Tags endpointTags = tags.and("endpoint", endpointName);
            Function<BackplaneStatistics, ActionCounts> counts = s -> of.apply(s).endpoints().stream()
                    .filter(e -> e.name().equals(endpointName)).findFirst().map(EndpointStatistics::counts).orElseThrow();
            outcomes(meters, BackplaneMeters.ENDPOINT_REQUESTS, endpointTags, stats, counts);
            timer(meters, BackplaneMeters.ENDPOINT_RUN, endpointTags, stats, s -> counts.apply(s).actionsRun(),
                    s -> counts.apply(s).totalRunTime().toNanos());
        });
    }

    private static void outcomes(MeterRegistry meters, String name, Tags tags, StatisticsCache stats,
            Function<BackplaneStatistics, ActionCounts> counts) {
        counter(meters, name, tags.and("outcome", "completed"), stats, s -> counts.apply(s).completed());
        counter(meters, name, tags.and("outcome", "failed"), stats, s -> counts.apply(s).failed());
        counter(meters, name, tags.and("outcome", "rejected"), stats, s -> counts.apply(s).rejected());
    }

    private static void gauge(MeterRegistry meters, String name, Tags tags, StatisticsCache stats,
            ToDoubleFunction<BackplaneStatistics> value) {
        Gauge.builder(name, stats, c -> value.applyAsDouble(c.get())).tags(tags).register(meters);
    }

    private static void counter(MeterRegistry meters, String name, Tags tags, StatisticsCache stats,
            ToDoubleFunction<BackplaneStatistics> value) {
        FunctionCounter.builder(name, stats, c -> value.applyAsDouble(c.get())).tags(tags).register(meters);
    }

    private static void timer(MeterRegistry meters, String name, Tags tags, StatisticsCache stats,
            ToLongFunction<BackplaneStatistics> count, ToDoubleFunction<BackplaneStatistics> totalNanos) {
        FunctionTimer.builder(name, stats, c -> count.applyAsLong(c.get()), c -> totalNanos.applyAsDouble(c.get()),
                TimeUnit.NANOSECONDS).tags(tags).register(meters);
    }

    /** One statistics snapshot per backplane per 100 ms at most. */
    static final class StatisticsCache {
        private static final long MAX_AGE_NANOS = 100_000_000L;
        private final Backplane backplane;
        private volatile BackplaneStatistics snapshot;
        private volatile long takenAt;

        StatisticsCache(Backplane backplane) {
            this.backplane = backplane;
        }

        BackplaneStatistics get() {
            long now = System.nanoTime();
            BackplaneStatistics s = snapshot;
            if (s == null || now - takenAt > MAX_AGE_NANOS) {
                s = backplane.statistics();
                snapshot = s;
                takenAt = now;
            }
            return s;
        }
    }
}
