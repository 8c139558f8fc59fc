package io.appbackplane.spring.autoconfigure;

import io.appbackplane.Backplane;
import io.appbackplane.BackplaneListener;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.springframework.beans.factory.DisposableBean;

/**
 * The application's backplanes by name, built from {@code backplane.*} properties ("default"
 * always exists), {@linkplain Backplane#link linked}: a component may depend on one in another
 * backplane, and the lifecycle, which moves them all together, keeps the order across them. Inject it to reach a {@link Backplane} directly. Backplanes the lifecycle did
 * not shut down (a failed start-up) are closed when the context closes.
 */
public final class BackplaneRegistry implements DisposableBean {

    private final Map<String, Backplane> backplanes;

    /**
     * Builds and starts the backplanes {@code properties} configure; public so that an application
     * can declare its own registry bean, which the auto-configuration then backs off to.
     *
     * @throws InvalidBackplanePropertyException if a value is invalid
     * @throws UnknownBackplaneException if an instance names an unknown template
     */
    public BackplaneRegistry(BackplaneProperties properties, List<BackplaneListener> listeners) {
        this(properties, listeners, List.of());
    }

    /**
     * Builds and starts the backplanes {@code properties} configure, each builder passed through
     * {@code customizers} (in order) before it builds.
     *
     * @throws InvalidBackplanePropertyException if a value is invalid
     * @throws UnknownBackplaneException if an instance names an unknown template
     */
    public BackplaneRegistry(BackplaneProperties properties, List<BackplaneListener> listeners,
            List<BackplaneBuilderCustomizer> customizers) {
        this(properties, listeners, customizers, null);
    }

    /**
     * @param offloadThreadKind the offload threads of a backplane whose {@code offload-thread-kind}
     *     is set neither on it nor on its template ({@code spring.threads.virtual.enabled}'s choice),
     *     or {@code null} for the core's default
     */
    BackplaneRegistry(BackplaneProperties properties, List<BackplaneListener> listeners,
            List<BackplaneBuilderCustomizer> customizers, io.appbackplane.OffloadThreads offloadThreadKind) {
        PolicyFactory policies = new PolicyFactory(properties, offloadThreadKind);
        Map<String, Backplane> built = new LinkedHashMap<>();
        try {
            for (String name : policies.backplaneNames()) {
                Backplane.Builder builder = Backplane.builder(name).policy(policies.policyOf(name));
                listeners.forEach(builder::listener);
                customizers.forEach(customizer -> customizer.customize(name, builder));
                built.put(name, builder.build());
            }
        } catch (RuntimeException e) {
            built.values().forEach(b -> b.shutdown(Duration.ZERO));
            throw e;
        }
        Backplane.link(built.values()); // a component may depend on one in another backplane
        this.backplanes = Collections.unmodifiableMap(built);
    }

    private BackplaneRegistry(Map<String, Backplane> backplanes) {
        Backplane.link(backplanes.values());
        this.backplanes = Collections.unmodifiableMap(backplanes);
    }

    /**
     * A registry of backplanes the application built itself (for example in step mode for tests,
     * or with a custom clock); declare it as a bean and the auto-configuration backs off to it. The
     * lifecycle moves and shuts them down like configured ones.
     *
     * @throws IllegalArgumentException if two backplanes share a name
     */
    public static BackplaneRegistry of(Backplane... backplanes) {
        Map<String, Backplane> byName = new LinkedHashMap<>();
        for (Backplane backplane : backplanes) {
            if (byName.putIfAbsent(backplane.name(), backplane) != null) {
                throw new IllegalArgumentException("two backplanes are named '" + backplane.name() + "'; names must be unique");
            }
        }
        return new BackplaneRegistry(byName);
    }

    /**
     * The backplane named {@code name}.
     *
     * @throws UnknownBackplaneException if none is configured under that name
     */
    public Backplane get(String name) {
        Backplane backplane = backplanes.get(name);
        if (backplane == null) {
            throw new UnknownBackplaneException("backplane", name, "a lookup", backplanes.keySet());
        }
        return backplane;
    }

    /** Every backplane, by name, in configuration order ("default" first). */
    public Map<String, Backplane> all() {
        return backplanes;
    }

    @Override
    public void destroy() {
        for (Backplane backplane : backplanes.values()) {
            if (!backplane.isShutdown()) {
                try { // each backplane on its own: one that hangs must not keep the others running
                    backplane.shutdown(Duration.ofSeconds(5)).get(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
                    org.slf4j.LoggerFactory.getLogger(BackplaneRegistry.class)
                            .warn("Backplane '{}' did not shut down cleanly: {}", backplane.name(), e.toString());
                }
            }
        }
    }
}
