package io.appbackplane.spring.executor;

import io.appbackplane.Action;
import io.appbackplane.BackplaneClock;
import io.appbackplane.BackplaneComponent;
import io.appbackplane.BackplaneRejectedException;
import io.appbackplane.TimerHandle;
import io.appbackplane.spring.autoconfigure.BackplaneProperties;
import io.appbackplane.spring.autoconfigure.BackplaneRegistry;
import io.appbackplane.spring.autoconfigure.CallerContext;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledFuture;
import java.util.function.Function;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.core.task.AsyncTaskExecutor;
import org.springframework.core.task.TaskRejectedException;
import org.springframework.scheduling.TaskScheduler;
import org.springframework.scheduling.Trigger;
import org.springframework.scheduling.support.SimpleTriggerContext;

/**
 * A Spring {@link AsyncTaskExecutor} and {@link TaskScheduler} whose tasks run as actions of a
 * backplane component at a priority, so {@code @Async("name")}, {@code
 * CompletableFuture.supplyAsync(task, executor)} and Reactor's {@code Schedulers.fromExecutor}
 * work under the backplane's priorities, quotas and CPU limit. Declared from {@code
 * backplane.executors.<name>.*} (see docs/configuration.md), one bean per name.
 *
 * <p>With a {@code key}, every task runs on that one object, one at a time in submission order
 * (a serial executor); without, tasks spread over a pool of {@code 2 × threads} objects and run in
 * parallel. Scheduled tasks run on the key's object, or on one object per executor. A task is an
 * action: it should not block (a blocking call holds a worker; use {@code ActionContext.offload}
 * from an action, or {@code @Endpoint(blocking = true)}) and a long one should be split.
 *
 * <p>A task given to {@code execute} or {@code submit} (what {@code @Async} does) runs with the
 * submitting thread's context ({@link CallerContext}: MDC, the current Observation and trace,
 * Spring Security's {@code SecurityContext}), as it would with Spring's {@code
 * ContextPropagatingTaskDecorator}. Scheduled tasks run without a caller's context, as timers.
 *
 * <p>A task the backplane rejects (its limits, shutdown) fails the submitting call with Spring's
 * {@link TaskRejectedException}, whose cause is the {@link BackplaneRejectedException} with its
 * reason. A task given to {@link #execute} that throws is logged and reported to the backplane's
 * listeners; {@code submit} and one-shot {@code schedule} put the failure in the returned future;
 * periodic tasks that throw are logged and keep running (as Spring's own schedulers do).
 */
public final class BackplaneTaskExecutor implements AsyncTaskExecutor, TaskScheduler, SmartInitializingSingleton {

    private final String name;
    private final BackplaneProperties.Executor settings;
    private final BackplaneRegistry registry;
    private volatile ExecutorTarget target;

    /**
     * @param name the executor's name, a key of {@code backplane.executors}
     * @throws IllegalArgumentException if {@code properties} has no executor of that name
     */
    public BackplaneTaskExecutor(String name, BackplaneRegistry registry, BackplaneProperties properties) {
        this.name = name;
        this.registry = registry;
        this.settings = properties.getExecutors().get(name);
        if (settings == null) {
            throw new IllegalArgumentException("no executor '" + name + "'; configured: " + properties.getExecutors().keySet());
        }
    }

    /** Checks the settings once every component is installed, so a bad one fails start-up. */
    @Override
    public void afterSingletonsInstantiated() {
        target();
    }

    /** The executor's name (its bean name). */
    public String name() {
        return name;
    }

    /** The component whose objects run the tasks. */
    public BackplaneComponent component() {
        return target().component();
    }

    /** The priority the tasks run at. */
    public int priority() {
        return target().priority();
    }

    private ExecutorTarget target() {
        ExecutorTarget t = target;
        if (t == null) {
            synchronized (this) {
                t = target;
                if (t == null) {
                    t = ExecutorTarget.resolve(name, settings, registry);
                    target = t;
                }
            }
        }
        return t;
    }

    // ------------------------------------------------------------------ executing

    @Override
    public void execute(Runnable task) {
        Objects.requireNonNull(task, "task must not be null");
        ExecutorTarget t = target();
        CallerContext caller = CallerContext.capture();
        Action<Object> action = ctx -> {
            CallerContext.Scope scope = caller.restore();
            try {
                task.run();
            } finally {
                scope.close();
            }
            return null;
        };
        try {
            if (t.key() != null) {
                t.component().execute(t.key(), t.priority(), action);
            } else {
                t.pool().execute(t.priority(), action);
            }
        } catch (BackplaneRejectedException e) {
            throw rejected(t, e);
        }
    }

    @Override
    public Future<?> submit(Runnable task) {
        return submitCompletable(task);
    }

    @Override
    public <T> Future<T> submit(Callable<T> task) {
        return submitCompletable(task);
    }

    @Override
    public CompletableFuture<Void> submitCompletable(Runnable task) {
        Objects.requireNonNull(task, "task must not be null");
        return submitAction(ctx -> {
            task.run();
            return null;
        }, CallerContext.capture());
    }

    @Override
    public <T> CompletableFuture<T> submitCompletable(Callable<T> task) {
        Objects.requireNonNull(task, "task must not be null");
        return submitAction(ctx -> task.call(), CallerContext.capture());
    }

    /** Submits {@code task} to run with {@code caller}'s context restored around it. */
    private <T> CompletableFuture<T> submitAction(Action<T> task, CallerContext caller) {
        ExecutorTarget t = target();
        Action<T> action = ctx -> {
            CallerContext.Scope scope = caller.restore();
            try {
                return task.run(ctx);
            } finally {
                scope.close();
            }
        };
        try {
            return t.key() != null ? t.component().submit(t.key(), t.priority(), action) : t.pool().submit(t.priority(), action);
        } catch (BackplaneRejectedException e) {
            throw rejected(t, e);
        }
    }

    private TaskRejectedException rejected(ExecutorTarget t, BackplaneRejectedException e) {
        return new TaskRejectedException("backplane executor '" + name + "' (" + t.describe() + ") rejected the task: "
                + e.getMessage(), e);
    }

    // ------------------------------------------------------------------ scheduling

    @Override
    public ScheduledFuture<?> schedule(Runnable task, Instant startTime) {
        ExecutorTarget t = target();
        Duration delay = delayUntil(startTime);
        return startTimer(t, delay, future -> t.component().schedule(t.timerKey(name), t.priority(), delay, ctx -> {
            try {
                task.run();
                future.ran(null);
            } catch (RuntimeException | Error e) { // the future carries it, as with Spring's schedulers
                future.ran(e);
            }
            return null;
        }));
    }

    @Override
    public ScheduledFuture<?> scheduleAtFixedRate(Runnable task, Instant startTime, Duration period) {
        ExecutorTarget t = target();
        Duration initialDelay = delayUntil(startTime);
        BackplaneClock clock = clock(t);
        return startTimer(t, initialDelay, future -> t.component().scheduleAtFixedRate(t.timerKey(name), t.priority(),
                initialDelay, period, ctx -> {
                    future.nextRunAt(clock.nanoTime() + period.toNanos());
                    task.run(); // a failure is logged by the backplane; the task keeps its schedule
                    return null;
                }));
    }

    @Override
    public ScheduledFuture<?> scheduleAtFixedRate(Runnable task, Duration period) {
        return scheduleAtFixedRate(task, getClock().instant(), period);
    }

    @Override
    public ScheduledFuture<?> scheduleWithFixedDelay(Runnable task, Instant startTime, Duration delay) {
        ExecutorTarget t = target();
        Duration initialDelay = delayUntil(startTime);
        BackplaneClock clock = clock(t);
        return startTimer(t, initialDelay, future -> t.component().scheduleWithFixedDelay(t.timerKey(name), t.priority(),
                initialDelay, delay, ctx -> {
                    try {
                        task.run(); // a failure is logged by the backplane; the task keeps its schedule
                    } finally {
                        future.nextRunAt(clock.nanoTime() + delay.toNanos());
                    }
                    return null;
                }));
    }

    /**
     * Starts a backplane timer through {@code start} and returns the future that tracks it, first
     * due {@code initialDelay} from now; a rejection becomes Spring's {@link TaskRejectedException}.
     */
    private TimerFuture startTimer(ExecutorTarget t, Duration initialDelay, Function<TimerFuture, TimerHandle> start) {
        TimerFuture future = new TimerFuture(clock(t), clock(t).nanoTime() + initialDelay.toNanos());
        try {
            future.timer(start.apply(future));
        } catch (BackplaneRejectedException e) {
            throw rejected(t, e);
        }
        return future;
    }

    @Override
    public ScheduledFuture<?> scheduleWithFixedDelay(Runnable task, Duration delay) {
        return scheduleWithFixedDelay(task, getClock().instant(), delay);
    }

    /**
     * Runs {@code task} at each time {@code trigger} names, each run scheduled when the one before
     * it has ended; {@code null} if the trigger names no first time.
     */
    @Override
    public ScheduledFuture<?> schedule(Runnable task, Trigger trigger) {
        ExecutorTarget t = target();
        SimpleTriggerContext context = new SimpleTriggerContext(getClock());
        Instant first = trigger.nextExecution(context);
        if (first == null) {
            return null;
        }
        TimerFuture future = new TimerFuture(clock(t), clock(t).nanoTime());
        try {
            scheduleNext(t, task, trigger, context, future, first);
        } catch (BackplaneRejectedException e) {
            throw rejected(t, e);
        }
        return future;
    }

    private void scheduleNext(ExecutorTarget t, Runnable task, Trigger trigger, SimpleTriggerContext context,
            TimerFuture future, Instant at) {
        Duration delay = delayUntil(at);
        future.nextRunAt(clock(t).nanoTime() + delay.toNanos());
        future.timer(t.component().schedule(t.timerKey(name), t.priority(), delay, ctx -> {
            if (future.isCancelled()) {
                return null;
            }
            Instant started = getClock().instant();
            RuntimeException failure = null;
            try {
                task.run();
            } catch (RuntimeException e) {
                failure = e;
            }
            context.update(at, started, getClock().instant());
            Instant next = trigger.nextExecution(context);
            if (next == null) {
                future.ran(null);
            } else {
                try {
                    scheduleNext(t, task, trigger, context, future, next);
                } catch (RuntimeException e) { // the backplane shuts down: no more runs, and the future says why
                    future.ran(e);
                }
            }
            if (failure != null) {
                throw failure; // logged by the backplane; the trigger keeps its schedule
            }
            return null;
        }));
    }

    private Duration delayUntil(Instant startTime) {
        Duration delay = Duration.between(getClock().instant(), startTime);
        return delay.isNegative() ? Duration.ZERO : delay;
    }

    private static BackplaneClock clock(ExecutorTarget t) {
        return t.component().backplane().clock();
    }

    @Override
    public String toString() {
        ExecutorTarget t = target;
        return "BackplaneTaskExecutor '" + name + "'" + (t != null ? " (" + t.describe() + ")" : "");
    }
}
