package io.appbackplane.internal.components;

import io.appbackplane.Action;
import io.appbackplane.BackplaneRejectedException;
import io.appbackplane.TimerHandle;
import io.appbackplane.internal.base.SafeText;
import io.appbackplane.internal.base.TimerService;
import io.appbackplane.internal.objects.Request;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * A one-shot or repeating timer whose firings are actions on one object (scheduling rule 13). The timer
 * thread only queues the firing. A repeating timer never has more than one firing outstanding: a
 * fixed-rate firing due while the previous one has not finished is skipped and counted; a
 * fixed-delay timer schedules its next firing only when the previous one has finished.
 */
public final class ScheduledTimer implements TimerHandle, Request.Firing {

    enum Mode {
        ONCE,
        FIXED_RATE,
        FIXED_DELAY,
        /** Like FIXED_DELAY with the delay asked from a supplier each time (null stops the timer). */
        COMPUTED_DELAY
    }

    private static final System.Logger LOG = System.getLogger(ScheduledTimer.class.getName());

    private final DefaultComponent component;
    private final Object key;
    private final int priority;
    private final Action<?> action;
    private final Mode mode;
    private final long periodNanos;
    private final Supplier<Duration> nextDelay;
    private final AtomicLong firings = new AtomicLong();
    private final AtomicLong skipped = new AtomicLong();
    /** A firing was queued and has not finished; set by the timer, cleared by its request. */
    private volatile boolean outstanding;
    private volatile boolean cancelled;
    private volatile TimerService.Task task;
    /**
     * The next firing's deadline. Written by one thread at a time, never concurrently: the starter
     * (before the first firing is scheduled), the timer thread in {@link #fire} (or a manual clock's
     * caller), and for a fixed- or computed-delay timer whoever finishes a firing's request (a
     * worker, a shutdown sweep) in {@link #scheduleAfterDelay}, while no firing is outstanding; each
     * write happens before the task it schedules, which is the next reader's only way in. Plain.
     */
    private long deadline;

    ScheduledTimer(DefaultComponent component, Object key, int priority, Action<?> action, Mode mode, long periodNanos,
            Supplier<Duration> nextDelay) {
        this.component = component;
        this.key = key;
        this.priority = priority;
        this.action = action;
        this.mode = mode;
        this.periodNanos = periodNanos;
        this.nextDelay = nextDelay;
    }

    void start(long firstDeadline) {
        deadline = firstDeadline;
        task = component.host().timers().schedule(firstDeadline, this::fire);
    }

    private void fire() {
        if (cancelled) {
            return;
        }
        boolean queued = false;
        if (outstanding) {
            skipped.incrementAndGet(); // rule 13: no backlog
        } else {
            outstanding = true;
            try {
                component.dispatchTimerFiring(key, priority, action, this);
                firings.incrementAndGet();
                queued = true;
            } catch (BackplaneRejectedException e) {
                outstanding = false;
                skipped.incrementAndGet();
                if (!e.isRetryable()) {
                    end(); // the backplane is shutting down
                    return;
                }
                LOG.log(System.Logger.Level.DEBUG, "timer firing rejected: {0}", e.getMessage());
            } catch (RuntimeException | Error e) {
                // No user hook runs here (no make-room hook for a firing), but the key's hashCode and
                // equals do, and the dispatch un-counted the firing if they threw after admission; a
                // failure to queue one firing must never end the timer: skip it and go on.
                outstanding = false;
                skipped.incrementAndGet();
                LOG.log(System.Logger.Level.ERROR, "timer " + this + ": a firing could not be queued; skipped", e);
            }
        }
        switch (mode) {
            case FIXED_RATE -> {
                long now = component.host().clock().nanoTime();
                do {
                    deadline += periodNanos;
                } while (deadline - now <= 0 && skipped.incrementAndGet() > 0); // missed deadlines are skipped
                task = component.host().timers().schedule(deadline, this::fire);
            }
            case ONCE -> {
                if (!queued) {
                    end(); // a rejected one-shot is over
                }
            }
            case FIXED_DELAY, COMPUTED_DELAY -> {
                if (!queued && !outstanding) {
                    scheduleAfterDelay(); // rejected: no firing will finish to schedule the next one
                }
            }
            default -> throw new IllegalStateException("unknown timer mode " + mode);
        }
    }

    /** Called when a firing's request finishes (on a worker, or by shutdown). */
    @Override
    public void firingFinished() {
        outstanding = false;
        if (mode == Mode.ONCE) {
            end();
        } else if ((mode == Mode.FIXED_DELAY || mode == Mode.COMPUTED_DELAY) && !cancelled) {
            scheduleAfterDelay();
        }
    }

    /**
     * Schedules the next firing of a fixed- or computed-delay timer. A computed delay comes from user
     * code (a cron expression, say): if it fails or says there is no next firing, the timer ends —
     * it never propagates into the worker or timer thread that called this.
     */
    private void scheduleAfterDelay() {
        long delay = periodNanos;
        if (mode == Mode.COMPUTED_DELAY) {
            Duration next;
            try {
                next = nextDelay.get();
            } catch (RuntimeException | Error e) {
                LOG.log(System.Logger.Level.ERROR, "timer " + this + " stopped: its next delay could not be computed", e);
                end();
                return;
            }
            if (next == null) {
                end(); // the schedule has no next firing
                return;
            }
            delay = Math.max(0, next.toNanos());
        }
        deadline = component.host().clock().nanoTime() + delay;
        task = component.host().timers().schedule(deadline, this::fire);
    }

    /** The timer is over (fired once, schedule exhausted, backplane closing): forget it. */
    private void end() {
        cancelled = true;
        component.host().liveTimers().timerCancelled(this);
    }

    @Override
    public void cancel() {
        cancelled = true;
        TimerService.Task t = task;
        if (t != null) {
            t.cancel();
        }
        component.host().liveTimers().timerCancelled(this);
    }

    @Override
    public boolean isCancelled() {
        return cancelled;
    }

    @Override
    public long firings() {
        return firings.get();
    }

    @Override
    public long skippedFirings() {
        return skipped.get();
    }

    @Override
    public String toString() {
        return "Timer{" + component.name() + "/" + SafeText.of(key) + ", " + mode + "}";
    }
}
