package io.appbackplane.internal;

import io.appbackplane.Backplane.ShutdownReport;
import io.appbackplane.ComponentState;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

/**
 * The order of a backplane's shutdown (DESIGN §3.2), one phase after the other:
 *
 * <ol>
 *   <li>{@link #RUNNING}: work is admitted under the limits.
 *   <li>{@link #DRAINING}: work from outside the backplane is rejected ({@code CLOSED}, not
 *       retryable); accepted work runs, and so does follow-up work that the backplane's own actions
 *       submit (a thread running one of its actions is inside: multi-hop work drains). Ends when
 *       nothing is outstanding, or at the drain timeout, which fails what is still queued or
 *       waiting for a reply (running actions finish) so that the DOWN hooks never wait behind it.
 *   <li>{@link #GOING_DOWN}: the components move DOWN, dependents first, their hooks running as
 *       actions; the backplane's own actions may still submit follow-up work (a DOWN hook flushing
 *       to a component it depends on). Skipped when nothing was ever moved up (the backplane's own
 *       component is still in START). Ends when the move is over and nothing is outstanding, or at
 *       the DOWN timeout.
 *   <li>{@link #STOPPED}: whatever remains fails with {@code BackplaneShutdownException}, every
 *       submission is rejected, the workers and timers stop, and the report completes.
 * </ol>
 *
 * <p>Phases only move forward, each by one CAS, so each phase's exit runs once however many threads
 * race to it (a finishing request, the deadline timer, {@code close()}). Invariant: the report
 * completes exactly once, after the phase is {@link #STOPPED}.
 */
final class ShutdownSequence {

    /** Admitting work; the initial phase. */
    static final int RUNNING = 0;
    /** Draining accepted work and its follow-ups. → GOING_DOWN when drained or at the drain timeout. */
    static final int DRAINING = 1;
    /** Moving the components DOWN. → STOPPED when moved and drained, or at the DOWN timeout. */
    static final int GOING_DOWN = 2;
    /** Terminal: what remained was failed; workers and timers stop. */
    static final int STOPPED = 3;

    private static final System.Logger LOG = System.getLogger(io.appbackplane.Backplane.class.getName());

    private final DefaultBackplane backplane;
    private final AtomicInteger phase = new AtomicInteger(RUNNING);
    private final LongAdder finishedWhileDraining = new LongAdder();
    private final AtomicLong failedAtShutdown = new AtomicLong();
    private final CompletableFuture<ShutdownReport> report = new CompletableFuture<>();
    /** The pending deadline of the current phase (drain, then DOWN), or null. */
    private final AtomicReference<TimerService.Task> deadline = new AtomicReference<>();
    /** Whether the components' move DOWN is over (done, failed or skipped). */
    private volatile boolean downMoveOver;
    private volatile Duration downTimeout = Duration.ZERO;

    ShutdownSequence(DefaultBackplane backplane) {
        this.backplane = backplane;
    }

    /** The current phase: {@link #RUNNING}, {@link #DRAINING}, {@link #GOING_DOWN} or {@link #STOPPED}. */
    int phase() {
        return phase.get();
    }

    /** Completes when the backplane has stopped. */
    CompletableFuture<ShutdownReport> report() {
        return report;
    }

    /**
     * Starts the sequence, or returns the report of the one already started.
     *
     * @param onBegin runs once, when this call starts the sequence, before anything drains
     */
    void begin(Duration drainTimeout, Duration downTimeout, Runnable onBegin) {
        if (!phase.compareAndSet(RUNNING, DRAINING)) {
            return;
        }
        this.downTimeout = downTimeout;
        onBegin.run();
        if (drainTimeout.isZero()) {
            endDrain(true);
        } else {
            schedule(drainTimeout, () -> endDrain(true));
            progress();
        }
    }

    /**
     * Counts a request that finished while draining or going DOWN (not a state transition; the
     * caller leaves out those failed by a shutdown sweep); called before it stops counting as
     * outstanding.
     */
    void requestFinished(Request request) {
        int p = phase.get();
        if ((p == DRAINING || p == GOING_DOWN) && !request.system) {
            finishedWhileDraining.increment();
        }
    }

    /** Moves to the next phase if the current one is over (nothing outstanding; the move DOWN over). */
    void progress() {
        int p = phase.get();
        if (p == DRAINING && backplane.nothingOutstanding()) {
            endDrain(false);
        } else if (p == GOING_DOWN && downMoveOver && backplane.nothingOutstanding()) {
            stop();
        }
    }

    /** Ends the drain: at its timeout, fails what is still queued or waiting first; then moves the components DOWN. */
    private void endDrain(boolean timedOut) {
        if (!phase.compareAndSet(DRAINING, GOING_DOWN)) {
            return;
        }
        cancelDeadline();
        if (timedOut) {
            failedAtShutdown.addAndGet(backplane.failRemaining(false));
        }
        schedule(downTimeout, this::stop);
        CompletableFuture<Void> down;
        if (backplane.self().state() == ComponentState.START) {
            down = CompletableFuture.completedFuture(null); // nothing was ever moved up: nothing to take down
        } else {
            try {
                down = backplane.moveTo(ComponentState.DOWN);
            } catch (RuntimeException e) { // a dependency graph that cannot move: still stop
                down = CompletableFuture.failedFuture(e);
            }
        }
        down.whenComplete((ignored, failure) -> {
            if (failure != null && phase.get() != STOPPED) {
                LOG.log(System.Logger.Level.WARNING, "backplane ''{0}'': not every component went DOWN cleanly at"
                        + " shutdown: {1}", backplane.name(), String.valueOf(failure));
            }
            downMoveOver = true;
            progress();
        });
    }

    /** Fails whatever remains and stops the workers and timers; at the DOWN timeout, or when all is done. */
    void stop() {
        int p = phase.get();
        if (p == DRAINING) { // close() in step mode, or shutdown(ZERO) racing: go through the DOWN phase's start first
            endDrain(true);
            p = phase.get();
        }
        if (p != GOING_DOWN || !phase.compareAndSet(GOING_DOWN, STOPPED)) {
            return;
        }
        cancelDeadline();
        failedAtShutdown.addAndGet(backplane.failRemaining(true));
        backplane.stopWorkersAndTimers().whenComplete((ignored, failure) ->
                report.complete(new ShutdownReport(finishedWhileDraining.sum(), failedAtShutdown.get())));
    }

    private void schedule(Duration timeout, Runnable action) {
        if (timeout.isZero()) {
            action.run();
            return;
        }
        TimerService.Task task = backplane.timers().schedule(backplane.clock().nanoTime() + timeout.toNanos(), action);
        TimerService.Task previous = deadline.getAndSet(task);
        if (previous != null) {
            previous.cancel();
        }
    }

    private void cancelDeadline() {
        TimerService.Task task = deadline.getAndSet(null);
        if (task != null) {
            task.cancel();
        }
    }
}
