package io.appbackplane.internal;

import io.appbackplane.Backplane.ShutdownReport;
import io.appbackplane.Backplane;
import io.appbackplane.ComponentState;
import io.appbackplane.internal.base.FutureCompletions;
import io.appbackplane.internal.base.TimerService;
import io.appbackplane.internal.components.DefaultComponent;
import io.appbackplane.internal.components.LiveTimers;
import io.appbackplane.internal.components.ScheduledTimer;
import io.appbackplane.internal.objects.ActionNode;
import io.appbackplane.internal.objects.ObservedActions;
import io.appbackplane.internal.objects.Request;
import io.appbackplane.internal.objects.WorkObject;
import io.appbackplane.internal.scheduling.WorkerPool;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

/**
 * The order of a backplane's shutdown (docs/scheduling.md, shutdown), one phase after the other:
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
 *
 * <p>Timer firings come from outside, so none are wanted once shutdown began: the components' live
 * timers are cancelled when it begins, and one started later is cancelled at once.
 *
 * <p>The deadlines run on the timer thread, where no caller's callback may run (a slow one would
 * hold up real ticks, reply timeouts and the next deadline): the futures a sweep fails, and the
 * report, are completed there by another thread ({@link #completeOffTimerThread}); on any other
 * thread (a caller of {@code shutdown} or {@code close}, a worker finishing the last request, a
 * {@code ManualClock}'s caller) they are completed in place.
 */
public final class ShutdownSequence implements LiveTimers {

    /** Admitting work; the initial phase. */
    static final int RUNNING = 0;
    /** Draining accepted work and its follow-ups. → GOING_DOWN when drained or at the drain timeout. */
    static final int DRAINING = 1;
    /** Moving the components DOWN. → STOPPED when moved and drained, or at the DOWN timeout. */
    static final int GOING_DOWN = 2;
    /** Terminal: what remained was failed; workers and timers stop. */
    static final int STOPPED = 3;

    private static final System.Logger LOG = System.getLogger(Backplane.class.getName());

    private final DefaultBackplane backplane;
    private final AtomicInteger phase = new AtomicInteger(RUNNING);
    private final LongAdder finishedWhileDraining = new LongAdder();
    private final AtomicLong failedAtShutdown = new AtomicLong();
    private final CompletableFuture<ShutdownReport> report = new CompletableFuture<>();
    /** The components' timers not yet over, cancelled when shutdown begins. */
    private final Set<ScheduledTimer> liveTimers = ConcurrentHashMap.newKeySet();
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

    /**
     * Starts the sequence ({@link Backplane#shutdown(Duration, Duration)}); either way returns the
     * report, of this sequence or of the one already started.
     */
    CompletableFuture<ShutdownReport> begin(Duration drainTimeout, Duration downTimeout) {
        checkTimeout("drainTimeout", drainTimeout);
        checkTimeout("downTimeout", downTimeout);
        if (phase.compareAndSet(RUNNING, DRAINING)) {
            this.downTimeout = downTimeout;
            for (ScheduledTimer timer : liveTimers) {
                timer.cancel(); // timer firings come from outside: none once shutdown began
            }
            if (drainTimeout.isZero()) {
                endDrain(true);
            } else {
                schedule(drainTimeout, () -> endDrain(true));
                progress();
            }
        }
        return report;
    }

    /**
     * {@link Backplane#close()}: begins with {@link Backplane#DEFAULT_DRAIN_TIMEOUT} for both phases
     * and waits for the report, interrupting the workers if actions still run 10 s after both
     * timeouts; in step mode ({@code workers} null) fails what is left at once. Fails at once when
     * called from one of the backplane's own actions.
     */
    void close(WorkerPool workers) {
        String name = backplane.name();
        if (backplane.isWorkerThread()) {
            // It would wait for the drain, which waits for the action calling it: fail at once instead.
            throw new IllegalStateException("close() of backplane '" + name + "' was called from one of its own actions"
                    + " (thread " + Thread.currentThread().getName() + "); it would wait for the drain, which waits for"
                    + " this action. Call shutdown(drainTimeout) there without waiting for it, or close from another thread");
        }
        if (workers == null) {
            begin(Duration.ZERO, Duration.ZERO);
            stop(); // also when an earlier shutdown(d > 0) still waits for a manual clock
            report.join();
            return;
        }
        Duration timeout = Backplane.DEFAULT_DRAIN_TIMEOUT;
        CompletableFuture<ShutdownReport> done = begin(timeout, timeout);
        long waitMillis = 2 * timeout.toMillis() + 10_000; // the drain, the DOWN hooks, 10 s more
        try {
            done.get(waitMillis, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            LOG.log(System.Logger.Level.WARNING, "backplane ''{0}'': actions still running 10 s after the drain and"
                    + " DOWN timeouts; interrupting its workers", name);
            workers.interruptAll();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException e) {
            throw new IllegalStateException("backplane '" + name + "' failed to shut down", e.getCause());
        }
    }

    private static void checkTimeout(String what, Duration timeout) {
        Objects.requireNonNull(timeout, what + " must not be null");
        if (timeout.isNegative()) {
            throw new IllegalArgumentException(what + " " + timeout + " is invalid; allowed: zero or positive");
        }
    }

    @Override
    public void timerStarted(ScheduledTimer timer) {
        liveTimers.add(timer);
        if (phase.get() != RUNNING) {
            timer.cancel();
        }
    }

    @Override
    public void timerCancelled(ScheduledTimer timer) {
        liveTimers.remove(timer);
    }

    /** Timers not yet over; for tests (a fired one-shot must not linger). */
    int liveTimerCount() {
        return liveTimers.size();
    }

    /**
     * Counts a request that finished while draining or going DOWN (not a state transition; the
     * caller leaves out those failed by a shutdown sweep); called before it stops counting as
     * outstanding.
     */
    void requestFinished(Request request) {
        int p = phase.get();
        if ((p == DRAINING || p == GOING_DOWN) && !request.isSystem()) {
            finishedWhileDraining.increment();
        }
    }

    /** Moves to the next phase if the current one is over (nothing outstanding; the move DOWN over). */
    void progress() {
        int p = phase.get();
        if (p == DRAINING && backplane.isIdle()) { // isIdle: nothing outstanding
            endDrain(false);
        } else if (p == GOING_DOWN && downMoveOver && backplane.isIdle()) {
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
            failedAtShutdown.addAndGet(failRemaining(false));
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
    private void stop() {
        int p = phase.get();
        if (p == DRAINING) { // close() in step mode, or shutdown(ZERO) racing: go through the DOWN phase's start first
            endDrain(true);
            p = phase.get();
        }
        if (p != GOING_DOWN || !phase.compareAndSet(GOING_DOWN, STOPPED)) {
            return;
        }
        cancelDeadline();
        failedAtShutdown.addAndGet(failRemaining(true));
        backplane.stopWorkersAndTimers().whenComplete((ignored, failure) -> {
            ShutdownReport done = new ShutdownReport(finishedWhileDraining.sum(), failedAtShutdown.get());
            completeOffTimerThread(() -> report.complete(done));
        });
    }

    /**
     * Fails everything queued or waiting for a reply in every object (running actions finish), with
     * {@code BackplaneShutdownException}; {@code forever} also makes the objects refuse later work.
     *
     * @return how many requests this call failed
     */
    private long failRemaining(boolean forever) {
        long failed = 0;
        FutureCompletions futures = new FutureCompletions(); // the callers' callbacks run after the sweep, off the timer thread
        for (DefaultComponent component : backplane.componentsIncludingSelf()) {
            for (WorkObject object : component.objects()) {
                List<ActionNode> dropped = backplane.tracer != null ? new ArrayList<>() : null;
                for (Request request : object.abandon(forever, dropped)) {
                    if (!request.isFinished()) {
                        failed++;
                    }
                    request.abandon(futures);
                }
                if (!forever) {
                    object.startPoolBacklog(); // members left idle take work again: what was backlogged meanwhile starts
                }
                if (dropped != null) {
                    ObservedActions.dropped(backplane.tracer, dropped, component::shutDownBeforeItRan);
                }
            }
        }
        if (!futures.isEmpty()) {
            completeOffTimerThread(futures::completeAll);
        }
        return failed;
    }

    /**
     * Runs {@code completions} (completing callers' futures, which runs their callbacks) here, or on
     * the JDK's default asynchronous executor if this is the backplane's timer thread: no caller's
     * callback runs there. One task for the whole batch, so the futures complete in the order the
     * sweep failed them.
     */
    private void completeOffTimerThread(Runnable completions) {
        if (!backplane.timers().isTimerThread()) {
            completions.run();
            return;
        }
        CompletableFuture.runAsync(completions).whenComplete((ignored, failure) -> {
            if (failure != null) { // only what a future's completion let escape: its dependants' failures stay in them
                LOG.log(System.Logger.Level.WARNING, "backplane ''" + backplane.name() + "'': completing callers'"
                        + " futures at shutdown failed", failure);
            }
        });
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
