package io.appbackplane.spring.executor;

import io.appbackplane.BackplaneClock;
import io.appbackplane.TimerHandle;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Delayed;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The {@link ScheduledFuture} of a task scheduled through a {@link BackplaneTaskExecutor}: cancels
 * the backplane timer (a run already queued still runs, as {@code cancel(false)} promises), and
 * completes when a one-shot task has run or a periodic one is cancelled. Its delay is to the next
 * planned run on the backplane's clock.
 */
final class TimerFuture implements ScheduledFuture<Object> {

    private final BackplaneClock clock;
    private final CompletableFuture<Object> outcome = new CompletableFuture<>();
    private volatile TimerHandle handle;
    private volatile long nextRunNanos;

    TimerFuture(BackplaneClock clock, long firstRunNanos) {
        this.clock = clock;
        this.nextRunNanos = firstRunNanos;
    }

    /** The timer to cancel; set once it is scheduled (a trigger's task sets each next one). */
    void timer(TimerHandle timer) {
        this.handle = timer;
        if (outcome.isCancelled()) { // cancelled while the next run was being scheduled
            timer.cancel();
        }
    }

    void nextRunAt(long nanos) {
        nextRunNanos = nanos;
    }

    /** A one-shot task ran (or a trigger has no next run): the future is done. */
    void ran(Throwable failure) {
        if (failure == null) {
            outcome.complete(null);
        } else {
            outcome.completeExceptionally(failure);
        }
    }

    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
        boolean cancelled = outcome.cancel(false);
        TimerHandle timer = handle;
        if (cancelled && timer != null) {
            timer.cancel();
        }
        return cancelled;
    }

    @Override
    public boolean isCancelled() {
        return outcome.isCancelled();
    }

    @Override
    public boolean isDone() {
        return outcome.isDone();
    }

    @Override
    public Object get() throws InterruptedException, ExecutionException {
        return outcome.get();
    }

    @Override
    public Object get(long timeout, TimeUnit unit) throws InterruptedException, ExecutionException, TimeoutException {
        return outcome.get(timeout, unit);
    }

    @Override
    public long getDelay(TimeUnit unit) {
        return unit.convert(nextRunNanos - clock.nanoTime(), TimeUnit.NANOSECONDS);
    }

    @Override
    public int compareTo(Delayed other) {
        return Long.compare(getDelay(TimeUnit.NANOSECONDS), other.getDelay(TimeUnit.NANOSECONDS));
    }
}
