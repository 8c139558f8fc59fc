package io.appbackplane.spring.metrics;

import io.appbackplane.ActionObserver;
import io.appbackplane.Backplane;
import io.appbackplane.BackplaneComponent;
import io.appbackplane.spring.autoconfigure.BackplaneBuilderCustomizer;
import io.appbackplane.spring.autoconfigure.InvalidBackplanePropertyException;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * {@code backplane.metrics.histograms}: records every action's queue wait and run time in
 * Micrometer timers that publish percentiles and a percentile histogram. It observes the actions
 * of each backplane the auto-configuration builds (an {@link ActionObserver} added by this
 * customizer) and records into its own composite registry, to which Spring Boot binds the
 * application's registries; actions that run before that binding (during start-up) are recorded
 * too and reach a registry as soon as it is bound.
 *
 * <p>Cost: one map lookup and two timer records per action (measured by the benchmarks' {@code
 * H1HistogramCost}); percentile histograms add about 70 buckets per timer to each scrape.
 */
public final class BackplaneHistograms implements BackplaneBuilderCustomizer, MeterBinder, ActionObserver {

    /** Each action's running time (Timer with percentiles and histogram; tags backplane, component). */
    public static final String ACTION_RUN_TIME = "backplane.action.run.time";
    /** Each action's time from queued to started (Timer with percentiles and histogram; tags backplane, component, priority). */
    public static final String ACTION_QUEUE_TIME = "backplane.action.queue.time";

    /** Histograms span 1 µs .. 1 min: enough for actions and queue waits, and far fewer buckets than the default range. */
    private static final Duration MIN = Duration.ofNanos(1_000);
    private static final Duration MAX = Duration.ofMinutes(1);

    private final double[] percentiles;
    private final CompositeMeterRegistry meters = new CompositeMeterRegistry();
    private final Map<BackplaneComponent, ComponentTimers> timers = new ConcurrentHashMap<>();

    /**
     * @param percentiles the percentiles to publish, each in [0, 1]
     * @throws InvalidBackplanePropertyException naming {@code backplane.metrics.percentiles} if one is outside [0, 1]
     */
    public BackplaneHistograms(List<Double> percentiles) {
        this.percentiles = new double[percentiles.size()];
        for (int i = 0; i < percentiles.size(); i++) {
            Double p = percentiles.get(i);
            if (p == null || !(p >= 0 && p <= 1)) {
                throw new InvalidBackplanePropertyException("backplane.metrics.percentiles[" + i + "]", p,
                        "allowed: a number from 0 to 1, such as 0.99 for the 99th percentile", null);
            }
            this.percentiles[i] = p;
        }
    }

    @Override
    public void customize(String name, Backplane.Builder builder) {
        builder.actionObserver(this);
    }

    /** Passes the timers (those made already and those to come) to {@code registry}. */
    @Override
    public void bindTo(MeterRegistry registry) {
        if (!meters.getRegistries().contains(registry)) {
            meters.add(registry);
        }
    }

    @Override
    public void actionRan(BackplaneComponent component, int priority, long queueNanos, long runNanos) {
        ComponentTimers of = timers.computeIfAbsent(component, ComponentTimers::new);
        of.queue(priority).record(queueNanos, TimeUnit.NANOSECONDS);
        of.run.record(runNanos, TimeUnit.NANOSECONDS);
    }

    private Timer timer(String name, String description, BackplaneComponent component, String priority) {
        Timer.Builder builder = Timer.builder(name).description(description)
                .tag("backplane", component.backplane().name()).tag("component", component.name())
                .publishPercentiles(percentiles).publishPercentileHistogram()
                .minimumExpectedValue(MIN).maximumExpectedValue(MAX);
        if (priority != null) {
            builder.tag("priority", priority);
        }
        return builder.register(meters);
    }

    /** A component's run-time timer and its queue-wait timers by priority (made on first use). */
    private final class ComponentTimers {
        final Timer run;
        private final BackplaneComponent component;
        /** Published safely between workers (a timer made by one is used by all). */
        private final AtomicReferenceArray<Timer> queue;

        ComponentTimers(BackplaneComponent component) {
            this.component = component;
            this.run = timer(ACTION_RUN_TIME, "How long each action ran", component, null);
            this.queue = new AtomicReferenceArray<>(component.backplane().policy().priorities());
        }

        Timer queue(int priority) {
            Timer t = queue.get(priority);
            if (t == null) { // a benign race: registering the same timer twice returns the same timer
                t = timer(ACTION_QUEUE_TIME, "How long each action waited in its queue before it ran",
                        component, String.valueOf(priority));
                queue.set(priority, t);
            }
            return t;
        }
    }
}
