package io.appbackplane.spring.autoconfigure;

import io.appbackplane.Backplane;
import io.appbackplane.ComponentState;
import io.appbackplane.Stepper;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.SmartLifecycle;

/**
 * Ties the backplanes' module states to the Spring lifecycle (docs/getting-started.md). Starts before the web
 * server takes traffic: every backplane moves its components up, in dependency order, to the
 * configured role; a failure fails start-up, once what came up went DOWN and the backplanes shut
 * down (Spring does not stop a lifecycle whose start failed; after a start-up timeout this is waited
 * for no longer than the timeout again, as a stuck state hook holds its backplane's move DOWN). Stops after the web server's graceful
 * shutdown: every backplane shuts down in the core's order (docs/scheduling.md, shutdown) — work from outside is
 * rejected, accepted work and the follow-up work of its actions drain, the components go DOWN
 * (dependents first), whatever is left fails — within the shutdown phase's timeout: nothing
 * accepted is silently dropped.
 *
 * <p>Step-mode backplanes (tests) have no workers: start and stop run their queued transitions on
 * the starting or stopping thread (see {@link StepModeWait}), and stop moves them DOWN and then
 * fails what still waits instead of draining it on a clock the test controls. A stopped lifecycle
 * cannot start again: the backplanes have shut down, so {@code context.stop()} followed by
 * {@code context.start()} fails start with a message saying so.
 *
 * <p>Not pauseable ({@link #isPauseable()}): Spring's test context cache pauses a cached context
 * when a suite switches to another one and restarts it when a later test class needs it again; the
 * backplanes then stay up through the pause (their idle workers park), so the restarted context
 * serves as before. A stop would shut them down for good.
 */
public final class BackplaneLifecycle implements SmartLifecycle {

    /** Before the web server (which starts at MAX-2048 and stops gracefully at MAX-1024). */
    static final int PHASE = SmartLifecycle.DEFAULT_PHASE - 4096;

    private static final Logger LOG = LoggerFactory.getLogger(BackplaneLifecycle.class);

    private final BackplaneRegistry registry;
    private final BackplaneProperties properties;
    private final Binder binder;
    private final ComponentState role;
    private final Duration startupTimeout;
    private final Duration drainTimeout;
    private final Duration downTimeout;
    private final Duration shutdownPhaseTimeout;
    private volatile boolean running;
    private volatile boolean stopped;

    /**
     * @param binder the environment's, for checking {@code backplane.*} settings at start
     * @param shutdownPhaseTimeout {@code spring.lifecycle.timeout-per-shutdown-phase}: half of it for
     *     the drain, three tenths for the DOWN hooks
     */
    public BackplaneLifecycle(BackplaneRegistry registry, BackplaneProperties properties, Binder binder, Duration shutdownPhaseTimeout) {
        this.registry = registry;
        this.properties = properties;
        this.binder = binder;
        this.role = properties.getRole() == BackplaneProperties.Role.SECONDARY ? ComponentState.SECONDARY : ComponentState.PRIMARY;
        this.startupTimeout = properties.getStartupTimeout();
        // The drain (half of the phase timeout) and the DOWN hooks (three tenths) take at most 80% of
        // it, leaving Spring a fifth to see the workers stop and what is left fail.
        this.drainTimeout = shutdownPhaseTimeout.dividedBy(2);
        this.downTimeout = shutdownPhaseTimeout.multipliedBy(3).dividedBy(10);
        this.shutdownPhaseTimeout = shutdownPhaseTimeout;
    }

    @Override
    public void start() {
        if (stopped) {
            throw new IllegalStateException("the backplanes " + registry.all().keySet() + " were stopped and cannot start"
                    + " again: stopping moved their components DOWN and shut their workers down. Stopping and restarting"
                    + " an application context (stop() then start()) is not supported; close it and create a new one");
        }
        SettingsCheck.check(binder, properties, registry); // before anything moves: nothing to take down
        try {
            bringUp();
        } catch (RuntimeException e) {
            // Spring calls stop() only on lifecycles that started: take down what came up ourselves,
            // so DOWN hooks run and no worker is left behind, then fail start-up with the original.
            takeDownAfterFailedStart(e);
            throw e;
        }
        running = true;
        LOG.info("Backplanes {} up: components in {}", registry.all().keySet(), role);
    }

    private void bringUp() {
        List<CompletableFuture<Void>> moves = new ArrayList<>();
        for (Backplane backplane : registry.all().values()) {
            moves.add(backplane.moveTo(role)); // a missing dependency or cycle throws here, before anything moves
        }
        CompletableFuture<Void> all = CompletableFuture.allOf(moves.toArray(CompletableFuture[]::new));
        try {
            StepModeWait.await(all, startupTimeout.toNanos(), StepModeWait.steppersOf(registry.all().values()));
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        } catch (TimeoutException e) {
            List<BackplaneStartupTimeoutException.StuckComponent> stuck = StartupDiagnosis.of(registry.all().values(), role);
            if (all.isDone() && !all.isCompletedExceptionally()) {
                return; // the last transition finished just after the deadline: the components are up
            }
            throw new BackplaneStartupTimeoutException(role, startupTimeout, stuck, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while bringing backplane components up", e);
        }
    }

    /**
     * Best effort: every backplane moves what came up DOWN (components still in START skip their
     * DOWN hooks, see ComponentInstaller) and shuts down. After a failed hook the moves are over, so
     * this waits up to the shutdown phase's timeout for the DOWN hooks. After a start-up timeout a
     * transition is still running, and its backplane's move DOWN is serialized after it: waiting
     * longer would wait for the hook that already overran, so this gives up after {@link
     * #takeDownWait} and leaves that hook's worker thread (a daemon thread) running; the shutdown
     * goes on in the background and completes if the hook ever returns.
     */
    private void takeDownAfterFailedStart(RuntimeException failure) {
        LOG.warn("Backplane start-up failed ({}); moving the components that came up DOWN and shutting the backplanes down",
                failure.toString());
        CompletableFuture<Void> done = downAndShutdown();
        if (Thread.currentThread().isInterrupted()) {
            return; // cannot wait; the registry shuts down what is still running when the context is destroyed
        }
        Duration wait = takeDownWait(failure);
        try {
            awaitStopped(done, wait);
        } catch (TimeoutException e) {
            if (failure instanceof BackplaneStartupTimeoutException timeout) {
                LOG.warn("Backplanes {}: gave up waiting for the shutdown {} after the start-up timeout; left running: {}"
                        + " (their worker threads are daemon threads and do not keep the JVM alive; their backplanes"
                        + " finish shutting down if they return); component states: {}", registry.all().keySet(), wait,
                        StartupDiagnosis.runningTransitions(timeout.stuck()), states());
            } else {
                LOG.warn("Backplanes {} did not shut down within {} after the failed start-up; component states: {}",
                        registry.all().keySet(), wait, states());
            }
        } catch (ExecutionException e) { // downAndShutdown handles its failures; kept for completeness
            LOG.warn("Backplanes did not shut down cleanly after the failed start-up: {}", e.getCause().toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * How long the take-down after a failed start-up is waited for: the shutdown phase's timeout; after
     * a start-up timeout, no longer than the start-up timeout itself, the time the stuck transition
     * already had.
     */
    private Duration takeDownWait(RuntimeException failure) {
        if (failure instanceof BackplaneStartupTimeoutException && startupTimeout.compareTo(shutdownPhaseTimeout) < 0) {
            return startupTimeout;
        }
        return shutdownPhaseTimeout;
    }

    @Override
    public void stop(Runnable callback) {
        running = false;
        stopped = true;
        CompletableFuture<Void> done = downAndShutdown();
        if (StepModeWait.steppersOf(registry.all().values()).isEmpty()) {
            done.whenComplete((ignored, failure) -> callback.run());
            return;
        }
        try { // step mode: this thread runs the DOWN transitions, as no worker will
            awaitStopped(done, drainTimeout);
        } catch (TimeoutException e) {
            LOG.warn("Backplanes {}: components did not go DOWN within {}; component states: {}", registry.all().keySet(),
                    drainTimeout, states());
        } catch (ExecutionException e) { // downAndShutdown handles its failures; kept for completeness
            LOG.warn("Backplanes did not stop cleanly: {}", e.getCause().toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            callback.run();
        }
    }

    /**
     * Waits for {@code done}, stepping step-mode backplanes meanwhile; then closes those, which
     * fails at once whatever still waits (their drain would wait on a clock the test controls).
     */
    private void awaitStopped(CompletableFuture<Void> done, Duration timeout)
            throws ExecutionException, TimeoutException, InterruptedException {
        List<Stepper> steppers = StepModeWait.steppersOf(registry.all().values());
        try {
            StepModeWait.await(done, timeout.toNanos(), steppers);
        } finally {
            for (Backplane backplane : registry.all().values()) {
                if (isStepMode(backplane)) {
                    backplane.stepper().runUntilIdle();
                    backplane.close();
                }
            }
        }
    }

    private static boolean isStepMode(Backplane backplane) {
        return !StepModeWait.steppersOf(List.of(backplane)).isEmpty();
    }

    /**
     * Shuts every backplane down (drain, then DOWN hooks, then what is left fails; see
     * Backplane.shutdown) within the drain and DOWN timeouts; completes (never exceptionally) when
     * every backplane is done. After a failed start-up, a move still running is waited for within
     * the DOWN timeout (the core's move DOWN is serialized after it).
     */
    private CompletableFuture<Void> downAndShutdown() {
        List<CompletableFuture<?>> stops = new ArrayList<>();
        for (Backplane backplane : registry.all().values()) {
            if (isStepMode(backplane)) {
                stops.add(stepModeDown(backplane)); // awaitStopped steps it and closes the backplane
                continue;
            }
            stops.add(backplane.shutdown(drainTimeout, downTimeout).whenComplete((report, failure) -> {
                if (failure != null) {
                    LOG.warn("Backplane '{}' did not shut down cleanly: {}", backplane.name(), failure.toString());
                } else if (report.failedAtShutdown() > 0) {
                    LOG.warn("Backplane '{}': {} accepted requests did not finish within the drain ({}) and DOWN ({})"
                            + " timeouts and were failed", backplane.name(), report.failedAtShutdown(), drainTimeout,
                            downTimeout);
                }
                if (backplane.components().stream().anyMatch(c -> c.state() != ComponentState.DOWN
                        && c.state() != ComponentState.START)) {
                    LOG.warn("Backplane '{}': not every component went DOWN cleanly: {}", backplane.name(), states());
                }
            }));
        }
        return CompletableFuture.allOf(stops.toArray(CompletableFuture[]::new)).handle((ignored, failure) -> null);
    }

    /** Step mode: the DOWN transitions only; the stopping thread runs them, then closes the backplane. */
    private CompletableFuture<Void> stepModeDown(Backplane backplane) {
        CompletableFuture<Void> down;
        try {
            down = backplane.moveTo(ComponentState.DOWN);
        } catch (RuntimeException e) { // validation failed: still close, and still call back
            down = CompletableFuture.failedFuture(e);
        }
        return down.handle((ignored, failure) -> {
            if (failure != null) {
                LOG.warn("Backplane '{}': not every component went DOWN cleanly: {}", backplane.name(), failure.getMessage());
            }
            return null;
        });
    }

    @Override
    public void stop() {
        CompletableFuture<Void> done = new CompletableFuture<>();
        stop(() -> done.complete(null));
        done.join();
    }

    /**
     * {@code false}: a paused context keeps its backplanes up, as stopping shuts them down for good
     * (see the class comment).
     */
    @Override
    public boolean isPauseable() {
        return false;
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    @Override
    public int getPhase() {
        return PHASE;
    }

    private String states() {
        StringBuilder sb = new StringBuilder();
        registry.all().values().forEach(b -> b.components().forEach(c -> sb.append(c.name()).append('=').append(c.state()).append(' ')));
        return sb.toString().trim();
    }
}
