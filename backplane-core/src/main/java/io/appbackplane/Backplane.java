package io.appbackplane;

import io.appbackplane.internal.DefaultBackplane;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * A scheduler, its worker threads and its policy: the shared policy domain that components are
 * installed into (docs/scheduling.md). Work reaches it as {@linkplain Action actions} submitted to objects
 * of its components; it runs them by priority with quotas, within a CPU budget per integration
 * period, one action at a time per object.
 *
 * <pre>{@code
 * Backplane backplane = Backplane.builder("orders")
 *         .policy(BackplanePolicy.builder().threads(2).cpuLimit(CpuLimit.parse("500m")).build())
 *         .build();
 * BackplaneComponent orders = backplane.install(ComponentSpec.named("orders"));
 * CompletableFuture<String> done = orders.submit("order-42", 2, ctx -> "placed");
 * }</pre>
 *
 * <p>Thread-safe. Closing it stops accepting work from outside, lets accepted work (and the follow-up
 * work its actions submit) finish within a drain timeout, moves the components DOWN and fails
 * whatever is left with {@link BackplaneShutdownException}: nothing accepted is dropped silently.
 */
public interface Backplane extends AutoCloseable {

    /** How long {@link #close()} lets accepted work finish. */
    Duration DEFAULT_DRAIN_TIMEOUT = Duration.ofSeconds(30);

    /** A builder for a backplane named {@code name}. */
    static Builder builder(String name) {
        return new Builder(name);
    }

    /**
     * Links backplanes of one application so that a component of one may depend on a component of
     * another by name (docs/scheduling.md, modules and states: urgent and bulk work are often split into two backplanes). A
     * dependency is looked up in the component's own backplane first, then in the linked ones. Each
     * backplane's {@link #moveTo} then waits, for such a component, until the dependency has entered
     * the same state (on the way down: until the dependents in other backplanes have gone DOWN), so
     * linked backplanes must be moved together, as the Spring starter does. A cycle through several
     * backplanes, like a missing name, fails the move before anything moves. Component names should
     * be unique across linked backplanes.
     *
     * @throws IllegalArgumentException if a backplane was not built by {@link Builder}
     */
    static void link(Collection<? extends Backplane> backplanes) {
        DefaultBackplane.link(backplanes);
    }

    /** The backplane's name. */
    String name();

    /** The current policy (reflecting run-time changes). */
    BackplanePolicy policy();

    /** The clock the backplane reads. */
    BackplaneClock clock();

    /**
     * Installs a component.
     *
     * @throws IllegalArgumentException if a component of that name is installed already
     * @throws BackplaneRejectedException if the backplane is closed
     */
    BackplaneComponent install(ComponentSpec spec);

    /** The installed component named {@code name}, if any. */
    Optional<BackplaneComponent> component(String name);

    /** The installed components, in installation order. */
    Collection<BackplaneComponent> components();

    /**
     * The backplane's own component (a backplane is itself a component). It has the
     * backplane's name, is listed first among {@link #components()}, and every other component
     * implicitly depends on it: it enters each state first and goes DOWN last.
     */
    BackplaneComponent self();

    /** The backplane's module state: that of its own component. */
    ComponentState state();

    /**
     * Moves every component to {@code target} in dependency order (docs/scheduling.md, modules and states): up from START
     * through INITIALIZING to PRIMARY or SECONDARY, between those two, or DOWN (dependents first).
     * Each transition runs as an action on the component's own object after its dependencies (on
     * the way down: its dependents) completed theirs; state hooks run there. Moves are serialized.
     * In step mode, the transitions run as the stepper runs them.
     *
     * @return completes when every component is in {@code target}; fails with a {@link
     *     ComponentStateException} naming the component and state whose hook failed (it and what
     *     depends on it stay where they were)
     * @throws ComponentGraphException before anything moves, for a missing dependency or a cycle
     * @throws IllegalArgumentException if a component cannot reach {@code target} from its state
     */
    CompletableFuture<Void> moveTo(ComponentState target);

    /**
     * Publishes {@code event} to {@code topic}: one action per subscribed endpoint whose event type
     * matches, queued in the caller's thread.
     */
    PublishResult publish(String topic, Object event);

    /**
     * Changes the number of worker threads; removed workers finish their current action first.
     *
     * @throws OutOfMemoryError if the JVM cannot start another thread: the workers started so far
     *     keep running, and a later call (or the replacement of a worker that died) tries again
     */
    void setThreads(int threads);

    /** Changes the quota of one priority; takes effect for the rest of the current period. */
    void setQuota(int priority, int quota);

    /** Changes the CPU limit; takes effect at once for the current period. */
    void setCpuLimit(CpuLimit cpuLimit);

    /** An immutable snapshot of the backplane's statistics (scheduling rule 17). */
    BackplaneStatistics statistics();

    /** Whether the backplane has nothing queued, running, ready or waiting for a reply. */
    boolean isIdle();

    /**
     * The step driver of a backplane built in {@linkplain Builder#stepMode() step mode}.
     *
     * @throws IllegalStateException if the backplane runs its own worker threads
     */
    Stepper stepper();

    /**
     * Starts shutting down, with {@code drainTimeout} for the drain and again for the DOWN hooks:
     * {@link #shutdown(Duration, Duration) shutdown(drainTimeout, drainTimeout)}.
     */
    CompletableFuture<ShutdownReport> shutdown(Duration drainTimeout);

    /**
     * Starts shutting down, in this order (docs/scheduling.md, shutdown):
     *
     * <ol>
     *   <li>Work from outside the backplane is rejected at once ({@link
     *       BackplaneRejectedException.Reason#CLOSED CLOSED}, not retryable); timers stop firing.
     *   <li>Accepted work drains (including replies it waits for), and so does follow-up work that
     *       the backplane's own actions submit to its components while it drains, for up to {@code
     *       drainTimeout} on the backplane's clock. At the timeout, what is still queued or waiting
     *       for a reply fails with {@link BackplaneShutdownException}; running actions finish.
     *   <li>The components move DOWN, dependents first, running their DOWN hooks (skipped if nothing
     *       was ever moved up), for up to {@code downTimeout}.
     *   <li>Whatever remains fails with {@link BackplaneShutdownException}; the workers stop.
     * </ol>
     *
     * A zero timeout skips waiting in its phase. Idempotent: later calls return the same future.
     * May be called from one of the backplane's own actions (it does not wait). The futures that
     * a timeout fails, and the returned one, are never completed on the backplane's timer thread:
     * at a timeout, their callbacks run on the JDK's default asynchronous executor.
     *
     * @return completes when the workers have stopped, with what was drained and what was failed
     * @throws IllegalArgumentException if a timeout is negative
     */
    CompletableFuture<ShutdownReport> shutdown(Duration drainTimeout, Duration downTimeout);

    /**
     * Whether the calling thread is running this backplane's work: one of its workers, or the
     * thread driving its {@link Stepper}. Blocking on this backplane's own results there would
     * deadlock.
     */
    boolean isWorkerThread();

    /** Whether {@link #shutdown} has been called. */
    boolean isShutdown();

    /**
     * Shuts down with {@link #DEFAULT_DRAIN_TIMEOUT} (for the drain and for the DOWN hooks) and
     * waits for it; in step mode, fails what is left at once.
     *
     * @throws IllegalStateException at once when called from one of the backplane's own actions,
     *     which the drain would wait for (call {@link #shutdown(Duration)} there instead)
     */
    @Override
    void close();

    /** What a shutdown did. */
    record ShutdownReport(long completedWhileDraining, long failedAtShutdown) {}

    /** Builds a {@link Backplane}. */
    final class Builder {
        private final String name;
        private BackplanePolicy policy = BackplanePolicy.defaults();
        private BackplaneClock clock = BackplaneClock.system();
        private boolean stepMode;
        private final List<BackplaneListener> listeners = new ArrayList<>();
        private final List<ActionObserver> observers = new ArrayList<>();
        private ActionTracer tracer;

        private Builder(String name) {
            Objects.requireNonNull(name, "backplane name must not be null");
            if (name.isBlank()) {
                throw new IllegalArgumentException("backplane name is blank; allowed: a non-blank name");
            }
            this.name = name;
        }

        /** The policy (default {@link BackplanePolicy#defaults()}). */
        public Builder policy(BackplanePolicy policy) {
            this.policy = Objects.requireNonNull(policy, "policy must not be null");
            return this;
        }

        /** The clock (default the system clock); use a {@link ManualClock} in tests. */
        public Builder clock(BackplaneClock clock) {
            this.clock = Objects.requireNonNull(clock, "clock must not be null");
            return this;
        }

        /**
         * Runs no worker threads: queued work runs only when the test calls {@link
         * Backplane#stepper()}'s methods, on the test's thread (docs/scheduling.md, test support). Combine with a {@link
         * ManualClock} for fully deterministic tests.
         */
        public Builder stepMode() {
            this.stepMode = true;
            return this;
        }

        /** Adds a listener for slow actions and unobserved failures. */
        public Builder listener(BackplaneListener listener) {
            listeners.add(Objects.requireNonNull(listener, "listener must not be null"));
            return this;
        }

        /**
         * Adds an observer of every action's queue wait and run time (none by default; with none
         * the hook costs nothing). Observers are called in the order they were added.
         */
        public Builder actionObserver(ActionObserver observer) {
            observers.add(Objects.requireNonNull(observer, "action observer must not be null"));
            return this;
        }

        /**
         * Sets the tracer that follows each action from acceptance to its end (none by default; with
         * none the hook costs one null check per action). One per backplane: a second call replaces it.
         */
        public Builder actionTracer(ActionTracer tracer) {
            this.tracer = Objects.requireNonNull(tracer, "action tracer must not be null");
            return this;
        }

        /** Builds and starts the backplane (its worker threads, unless in step mode). */
        public Backplane build() {
            return DefaultBackplane.start(name, policy, clock, stepMode, List.copyOf(listeners), List.copyOf(observers), tracer);
        }
    }
}
