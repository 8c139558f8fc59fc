package io.appbackplane.spring.actuate;

import io.appbackplane.Backplane;
import io.appbackplane.BackplaneComponent;
import io.appbackplane.BackplaneStatistics;
import io.appbackplane.ComponentState;
import io.appbackplane.spring.autoconfigure.BackplaneRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * {@code backplane} health: DOWN when a backplane has ready work but has run no action for the
 * stall timeout (its workers are stuck or gone) — time the work waited for CPU budget (a throttled
 * backplane, doing what its CPU limit says) does not count as stalled — or when a component is not in the state its
 * backplane is in (a failed transition); UP otherwise. Details per backplane: state, ready and
 * waiting objects, outstanding requests, and any lagging components.
 */
public class BackplaneHealthIndicator implements HealthIndicator {

    private final BackplaneRegistry registry;
    private final long stallTimeoutNanos;
    private final LongSupplier clock;
    private final Map<String, Progress> progress = new ConcurrentHashMap<>();

    /**
     * The last action count and throttled time seen for a backplane with ready work, and since when
     * neither has changed: work waiting for CPU budget is throttled, not stalled.
     */
    private record Progress(long actionsRun, long throttledNanos, long since) {}

    public BackplaneHealthIndicator(BackplaneRegistry registry, Duration stallTimeout) {
        this(registry, stallTimeout, System::nanoTime);
    }

    BackplaneHealthIndicator(BackplaneRegistry registry, Duration stallTimeout, LongSupplier clock) {
        this.registry = registry;
        this.stallTimeoutNanos = stallTimeout.toNanos();
        this.clock = clock;
    }

    @Override
    public Health health() {
        boolean up = true;
        Map<String, Object> details = new LinkedHashMap<>();
        for (Backplane backplane : registry.all().values()) {
            BackplaneStatistics stats = backplane.statistics();
            Map<String, Object> detail = new LinkedHashMap<>();
            detail.put("state", backplane.state().name());
            detail.put("readyObjects", stats.readyObjects());
            detail.put("waitingObjects", stats.waitingObjects());
            detail.put("outstanding", stats.outstanding());
            if (stats.cpu().throttledTime().compareTo(Duration.ZERO) > 0) {
                detail.put("throttledTotal", stats.cpu().throttledTime().toString());
            }
            if (stalled(backplane.name(), stats)) {
                detail.put("stalled", "ready work but no action ran for " + Duration.ofNanos(stallTimeoutNanos));
                up = false;
            }
            List<String> lagging = new ArrayList<>();
            ComponentState target = backplane.state();
            for (BackplaneComponent component : backplane.components()) {
                if (component.state() != target) {
                    lagging.add(component.name() + " is " + component.state() + ", backplane is " + target);
                }
            }
            if (!lagging.isEmpty()) {
                detail.put("componentsNotInTargetState", lagging);
                up = false;
            }
            details.put(backplane.name(), detail);
        }
        return (up ? Health.up() : Health.down()).withDetails(details).build();
    }

    private boolean stalled(String name, BackplaneStatistics stats) {
        long now = clock.getAsLong();
        long ran = stats.totals().actionsRun();
        long throttled = stats.cpu().throttledTime().toNanos();
        if (stats.readyObjects() == 0) {
            // The stall clock runs only while work is ready: work arriving after a long idle time has not waited that long.
            progress.remove(name);
            return false;
        }
        Progress last = progress.compute(name, (k, p) -> p == null || p.actionsRun() != ran || p.throttledNanos() != throttled
                ? new Progress(ran, throttled, now) : p);
        return now - last.since() >= stallTimeoutNanos;
    }
}
