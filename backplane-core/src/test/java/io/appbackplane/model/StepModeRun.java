package io.appbackplane.model;

import io.appbackplane.Backplane;
import io.appbackplane.BackplaneComponent;
import io.appbackplane.BackplanePolicy;
import io.appbackplane.ComponentSpec;
import io.appbackplane.CpuLimit;
import io.appbackplane.ManualClock;
import io.appbackplane.ReplyTimeoutException;
import io.appbackplane.Stepper;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;

/**
 * Runs a {@link Scenario} on the real scheduler in step mode ({@code Backplane.builder(..).stepMode()}
 * on a {@link ManualClock}, driven by its {@link Stepper}) and records the trace of action starts.
 *
 * <p>How the scenario's time is simulated: an action "costs" its time by advancing the manual clock
 * from inside the action. Outside events (arrivals, cancellations, replies) happen at their exact
 * time even while an action runs: the running action advances the clock to each one on its way,
 * and the test thread makes the call from inside the action (an arrival while an action runs).
 * Between steps the run advances the clock to the next thing that can change what is runnable: the
 * next outside event, the next reply timeout, or, with a CPU limit and work left, the next slice
 * boundary ({@code period / slices}, from the backplane's start). Timers (real ticks, reply
 * timeouts) fire inside {@link ManualClock#advance}, before the outside events of the same instant,
 * which is the {@link SchedulingModel}'s order too.
 */
public final class StepModeRun {

    private static final long MS = 1_000_000;
    private static final int STEP_LIMIT = 1_000_000;

    private record Pending(long at, long seq, Runnable what) {}

    private final Scenario scenario;
    private final ManualClock clock = new ManualClock();
    private final PriorityQueue<Pending> outside = new PriorityQueue<>((a, b) ->
            a.at != b.at ? Long.compare(a.at, b.at) : Long.compare(a.seq, b.seq));
    private final TreeSet<Long> timeouts = new TreeSet<>();
    private final List<TraceEntry> trace = new ArrayList<>();
    private final List<CompletableFuture<?>> futures = new ArrayList<>();
    private long seq;
    private BackplaneComponent app;

    private StepModeRun(Scenario scenario) {
        this.scenario = scenario;
    }

    /** The trace of {@code scenario} on the real scheduler in step mode. */
    public static List<TraceEntry> trace(Scenario scenario) {
        return new StepModeRun(scenario).run();
    }

    /** The policy a scenario describes (shared with the threaded run). */
    static BackplanePolicy policy(Scenario scenario, int threads) {
        BackplanePolicy.Builder policy = BackplanePolicy.builder()
                .priorities(scenario.priorities())
                .integrationPeriod(Duration.ofMillis(scenario.periodMs()))
                .cpuBudgetSlices(scenario.slices())
                .actionsPerTurn(scenario.actionsPerTurn())
                .slowActionThreshold(Duration.ofHours(1))
                .threads(threads);
        int[] quotas = scenario.quotas();
        for (int p = 0; p < quotas.length; p++) {
            if (quotas[p] != Scenario.DEFAULT_QUOTA) {
                policy.quota(p, quotas[p] == Scenario.UNLIMITED_QUOTA ? BackplanePolicy.UNLIMITED_QUOTA : quotas[p]);
            }
        }
        if (scenario.cpuMillicores() > 0) {
            policy.cpuLimit(CpuLimit.ofMillicores(scenario.cpuMillicores()));
        }
        return policy.build();
    }

    private List<TraceEntry> run() {
        Backplane backplane = Backplane.builder("model-check").policy(policy(scenario, 1)).clock(clock).stepMode().build();
        try {
            app = backplane.install(ComponentSpec.named("app"));
            for (Scenario.Event event : scenario.events()) {
                if (event instanceof Scenario.Submit s) {
                    outside(s.atMs() * MS, () -> submit(s));
                } else if (event instanceof Scenario.Cancel c) {
                    outside(c.atMs() * MS, () -> app.cancelQueued(c.key()));
                }
            }
            Stepper stepper = backplane.stepper();
            boolean limited = scenario.cpuMillicores() > 0;
            long grid = scenario.periodMs() * MS / scenario.slices();
            for (int steps = 0; ; steps++) {
                if (steps > STEP_LIMIT) {
                    throw new IllegalStateException("no end after " + STEP_LIMIT + " steps; trace so far: " + trace);
                }
                applyOutsideEventsUpTo(clock.nanoTime());
                if (stepper.runNext().ran()) {
                    continue;
                }
                long now = clock.nanoTime();
                long next = outside.isEmpty() ? Long.MAX_VALUE : outside.peek().at;
                Long timeout = timeouts.higher(now);
                if (timeout != null) {
                    next = Math.min(next, timeout);
                }
                if (limited && !backplane.isIdle()) {
                    next = Math.min(next, (now / grid + 1) * grid);
                }
                if (next == Long.MAX_VALUE) {
                    break;
                }
                clock.advanceNanos(next - now);
            }
            List<CompletableFuture<?>> open = futures.stream().filter(f -> !f.isDone()).toList();
            if (!open.isEmpty() || !backplane.isIdle()) {
                trace.add(new TraceEntry(clock.nanoTime(), "NOT-IDLE:" + open.size() + "-open", "-", -1));
            }
            return trace;
        } finally {
            backplane.close();
        }
    }

    private void outside(long at, Runnable what) {
        outside.add(new Pending(at, seq++, what));
    }

    /** Makes the outside calls due by {@code target}, each at its own time (possibly inside an action). */
    private void applyOutsideEventsUpTo(long target) {
        while (!outside.isEmpty() && outside.peek().at <= target) {
            Pending next = outside.poll();
            if (next.at > clock.nanoTime()) {
                clock.advanceNanos(next.at - clock.nanoTime());
            }
            next.what.run();
        }
    }

    /** What a running action does to "cost" {@code nanos}: moves the clock, meeting outside events on the way. */
    private void spend(long nanos) {
        long target = clock.nanoTime() + nanos;
        applyOutsideEventsUpTo(target);
        clock.advanceNanos(target - clock.nanoTime());
    }

    private void submit(Scenario.Submit s) {
        futures.add(app.submit(s.key(), s.priority(), ctx -> {
            trace.add(new TraceEntry(clock.nanoTime(), s.id(), (String) ctx.objectKey(), ctx.priority()));
            spend(s.costMs() * MS);
            Scenario.Reply r = s.reply();
            if (r == null) {
                return s.id();
            }
            long end = clock.nanoTime();
            CompletableFuture<String> reply = new CompletableFuture<>();
            if (r.arrivesAfterMs() != Scenario.Reply.NEVER) {
                outside(end + r.arrivesAfterMs() * MS, () -> reply.complete("reply"));
            }
            io.appbackplane.ReplyHandler<String, String> handler = (c, value, failure) -> {
                String outcome = failure instanceof ReplyTimeoutException ? "/timeout" : failure == null ? "/reply" : "/" + failure;
                trace.add(new TraceEntry(clock.nanoTime(), s.id() + outcome, (String) c.objectKey(), c.priority()));
                spend(r.handlerCostMs() * MS);
                return s.id();
            };
            if (r.timeoutMs() == Scenario.Reply.NO_TIMEOUT) {
                return ctx.awaitReply(reply, handler);
            }
            timeouts.add(end + r.timeoutMs() * MS);
            return ctx.awaitReply(reply, Duration.ofMillis(r.timeoutMs()), handler);
        }));
    }
}
