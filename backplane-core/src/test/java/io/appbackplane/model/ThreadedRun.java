package io.appbackplane.model;

import static org.awaitility.Awaitility.await;

import io.appbackplane.Backplane;
import io.appbackplane.BackplaneComponent;
import io.appbackplane.BackplanePolicy;
import io.appbackplane.BackplaneStatistics;
import io.appbackplane.ComponentSpec;
import io.appbackplane.PriorityStatistics;
import io.appbackplane.ReplyHandler;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.TreeMap;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs a {@link Scenario} on real worker threads with the system clock and checks what must hold
 * whatever the threads' timing (the trace itself is not deterministic):
 * <ul>
 *   <li>every request completes exactly once: its action (and its reply handler) started exactly
 *       once, or it was cancelled while queued and never started;
 *   <li>per-key order: an object runs one action at a time, its requests in submission order, and
 *       a waiting action's reply handler is the object's next action;
 *   <li>priorities are not inverted beyond one action per worker: once a request is ready at a
 *       priority with an unlimited quota (and so are the more urgent ones its object may rise to
 *       meanwhile) (submitted to an object with nothing outstanding), at
 *       most one action of a less urgent object per worker starts before its worker can have
 *       taken it (after it was queued and after that worker's previous action), each from a worker
 *       that selected just before it became ready. An object's priority is that of its most urgent
 *       outstanding action (rule 7), so a less urgent action queued ahead of an urgent one on its
 *       object legitimately runs at the urgent priority;
 *   <li>quotas are never overdrawn (sampled every millisecond from the statistics);
 *   <li>CPU: no period's charged use exceeds the budget by more than one slice plus what the
 *       workers' actions running at that moment can add (each at most the longest action as it
 *       ran, in wall time, which a stall of the machine stretches, and one CPU reading interval,
 *       0.2 ms), plus 1 ms for the scheduling work charged besides actions (sampled from the
 *       statistics after each real tick);
 *   <li>workers park when idle: once all work is done, every worker thread is parked.
 * </ul>
 * Scenario milliseconds become {@value #NANOS_PER_SCENARIO_MS} ns, so a run takes tens of
 * milliseconds; actions spin for their cost (they burn CPU, which the CPU limit then meters).
 */
final class ThreadedRun {

    static final long NANOS_PER_SCENARIO_MS = 250_000;
    private static final AtomicInteger RUNS = new AtomicInteger();

    /** One action as it ran: {@code thread} is the worker that ran it. */
    private record Start(String label, String key, int priority, long startNanos, long endNanos, String thread) {}

    private static final class Req {
        final Scenario.Submit submit;
        final int index; // submission order on its key
        boolean fresh; // nothing outstanding on its key when submitted: ready at once
        long submitBegan; // before the submit call: the request may be queued from here on
        long submittedAt; // after it: the request is queued
        CompletableFuture<String> future;

        Req(Scenario.Submit submit, int index) {
            this.submit = submit;
            this.index = index;
        }
    }

    private final Scenario scenario;
    private final int workers;
    private final String name = "threaded-check-" + RUNS.incrementAndGet();
    private final Queue<Start> starts = new ConcurrentLinkedQueue<>();
    private final Queue<String> violations = new ConcurrentLinkedQueue<>();
    private final Map<String, Req> requests = new LinkedHashMap<>();
    private final Map<String, Integer> perKey = new HashMap<>();
    private final Map<Long, Long> usedByPeriod = new TreeMap<>(); // real ticks -> used last period (ns)
    private ScheduledExecutorService driver;
    private BackplaneComponent app;

    private ThreadedRun(Scenario scenario, int workers) {
        this.scenario = scenario;
        this.workers = workers;
    }

    /** Runs {@code scenario} on {@code workers} threads; returns what was violated (empty: all held). */
    static List<String> check(Scenario scenario, int workers) {
        return new ThreadedRun(scenario, workers).run();
    }

    private static long scaled(long scenarioMs) {
        return scenarioMs * NANOS_PER_SCENARIO_MS;
    }

    private List<String> run() {
        BackplanePolicy policy = StepModeRun.policy(scenario, workers).toBuilder()
                .integrationPeriod(Duration.ofNanos(scaled(scenario.periodMs())))
                .build();
        driver = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, name + "-driver");
            t.setDaemon(true);
            return t;
        });
        Backplane backplane = Backplane.builder(name).policy(policy).build();
        try {
            app = backplane.install(ComponentSpec.named("app"));
            long base = System.nanoTime();
            TreeMap<Integer, List<Scenario.Event>> byTime = new TreeMap<>();
            scenario.events().forEach(e -> byTime.computeIfAbsent(e.atMs(), t -> new ArrayList<>()).add(e));
            byTime.forEach((at, events) -> driver.schedule(() -> events.forEach(this::apply),
                    base + scaled(at) - System.nanoTime(), TimeUnit.NANOSECONDS));
            ScheduledFuture<?> sampling = driver.scheduleAtFixedRate(() -> sample(backplane), 0, 1, TimeUnit.MILLISECONDS);
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(2))
                    .until(() -> allDone(backplane));
            sampling.cancel(false);
            driver.submit(() -> sample(backplane)).get(); // after the last periodic sample: the driver's state is ours now
            checkOutcomes();
            checkPerKeyOrder();
            checkPriorities();
            checkCpu(policy);
            checkWorkersPark(backplane);
            return new ArrayList<>(violations);
        } catch (Exception e) {
            throw new AssertionError(e);
        } finally {
            driver.shutdownNow();
            backplane.close();
        }
    }

    /** Every request submitted and finished, and the backplane idle; reads the requests on the driver thread. */
    private boolean allDone(Backplane backplane) throws Exception {
        List<Req> submitted = driver.submit(() -> List.copyOf(requests.values())).get();
        return submitted.size() == scenario.submits().size() && submitted.stream().allMatch(r -> r.future.isDone())
                && backplane.isIdle();
    }

    /** On the driver thread: one outside event. */
    private void apply(Scenario.Event event) {
        if (event instanceof Scenario.Cancel c) {
            app.cancelQueued(c.key());
            return;
        }
        Scenario.Submit s = (Scenario.Submit) event;
        Req req = new Req(s, perKey.merge(s.key(), 1, Integer::sum));
        req.submitBegan = System.nanoTime();
        req.fresh = requests.values().stream().filter(r -> r.submit.key().equals(s.key())).allMatch(r -> r.future.isDone());
        req.future = app.submit(s.key(), s.priority(), ctx -> {
            long start = System.nanoTime();
            spin(start, scaled(s.costMs()));
            starts.add(new Start(s.id(), s.key(), ctx.priority(), start, System.nanoTime(), Thread.currentThread().getName()));
            Scenario.Reply r = s.reply();
            if (r == null) {
                return s.id();
            }
            CompletableFuture<String> reply = new CompletableFuture<>();
            if (r.arrivesAfterMs() != Scenario.Reply.NEVER) {
                driver.schedule(() -> reply.complete("reply"), scaled(r.arrivesAfterMs()), TimeUnit.NANOSECONDS);
            }
            ReplyHandler<String, String> handler = (c, value, failure) -> {
                long handlerStart = System.nanoTime();
                spin(handlerStart, scaled(r.handlerCostMs()));
                starts.add(new Start(s.id() + "/handler", s.key(), c.priority(), handlerStart, System.nanoTime(),
                        Thread.currentThread().getName()));
                return s.id();
            };
            return r.timeoutMs() == Scenario.Reply.NO_TIMEOUT ? ctx.awaitReply(reply, handler)
                    : ctx.awaitReply(reply, Duration.ofNanos(scaled(r.timeoutMs())), handler);
        });
        req.submittedAt = System.nanoTime();
        requests.put(s.id(), req);
    }

    private static void spin(long start, long nanos) {
        while (System.nanoTime() - start < nanos) {
            Thread.onSpinWait();
        }
    }

    /** On the driver thread, every millisecond: quotas never overdrawn; CPU use of each ended period. */
    private void sample(Backplane backplane) {
        BackplaneStatistics stats = backplane.statistics();
        for (PriorityStatistics p : stats.priorities()) {
            if (p.quota() != BackplanePolicy.UNLIMITED_QUOTA && p.usedThisPeriod() > p.quota()) {
                violations.add("quota overdrawn: priority " + p.priority() + " used " + p.usedThisPeriod() + " of " + p.quota());
            }
        }
        if (stats.realTicks() > 0) {
            usedByPeriod.merge(stats.realTicks(), stats.cpu().usedLastPeriod().toNanos(), Math::max);
        }
    }

    private void checkOutcomes() {
        Map<String, Long> counts = new HashMap<>();
        starts.forEach(s -> counts.merge(s.label(), 1L, Long::sum));
        for (Req req : requests.values()) {
            String id = req.submit.id();
            long ran = counts.getOrDefault(id, 0L);
            long handled = counts.getOrDefault(id + "/handler", 0L);
            try {
                String result = req.future.join();
                if (!id.equals(result) || ran != 1 || handled != (req.submit.reply() == null ? 0 : 1)) {
                    violations.add(id + " completed with " + result + " after its action started " + ran
                            + " times and its reply handler " + handled + " times");
                }
            } catch (CompletionException | CancellationException e) {
                Throwable cause = e instanceof CompletionException ? e.getCause() : e;
                if (!(cause instanceof CancellationException) || ran != 0) {
                    violations.add(id + " failed with " + cause + " after its action started " + ran + " times");
                }
            }
        }
    }

    private void checkPerKeyOrder() {
        Map<String, List<Start>> byKey = new HashMap<>();
        starts.forEach(s -> byKey.computeIfAbsent(s.key(), k -> new ArrayList<>()).add(s));
        for (List<Start> list : byKey.values()) {
            list.sort(Comparator.comparingLong(Start::startNanos));
            int lastIndex = 0;
            for (int i = 0; i < list.size(); i++) {
                Start s = list.get(i);
                if (i > 0 && s.startNanos() < list.get(i - 1).endNanos()) {
                    violations.add("object " + s.key() + " ran " + s.label() + " while " + list.get(i - 1).label() + " ran");
                }
                if (s.label().endsWith("/handler")) {
                    continue;
                }
                Req req = requests.get(s.label());
                if (req.index < lastIndex) {
                    violations.add("object " + s.key() + " ran " + s.label() + " out of submission order");
                }
                lastIndex = req.index;
                if (req.submit.reply() != null && i + 1 < list.size()
                        && !list.get(i + 1).label().equals(s.label() + "/handler")) {
                    violations.add("object " + s.key() + " ran " + list.get(i + 1).label() + " before the reply handler of " + s.label());
                }
            }
        }
    }

    private void checkPriorities() {
        Map<String, Start> started = new HashMap<>();
        starts.forEach(s -> started.put(s.label(), s));
        for (Req req : requests.values()) {
            Start x = started.get(req.submit.id());
            int p = req.submit.priority();
            if (x == null || !req.fresh || !unlimitedQuotasFrom(mostUrgentOnKeyBefore(req.submit.key(), x), p)) {
                continue; // a spent quota at the object's priority lets less urgent work run first (rule 6)
            }
            long takenNotBefore = takenNotBefore(x, req.submittedAt);
            List<String> overtaking = starts.stream()
                    .filter(s -> s.startNanos() > req.submittedAt && s.startNanos() < takenNotBefore
                            && objectPriorityAtMost(s, started) > p)
                    .map(Start::label).toList();
            if (overtaking.size() > workers) {
                violations.add(req.submit.id() + " at priority " + p + " was ready, yet " + overtaking.size()
                        + " less urgent actions started before it on " + workers + " workers: " + overtaking);
            }
        }
    }

    private void checkCpu(BackplanePolicy policy) {
        if (scenario.cpuMillicores() == 0) {
            return;
        }
        long budget = policy.cpuLimit().budgetNanos(policy.integrationPeriod());
        long longest = scenario.submits().stream().mapToLong(s -> Math.max(s.costMs(),
                s.reply() == null ? 0 : s.reply().handlerCostMs())).max().orElse(0);
        // An action spins for its cost in wall time; a stall of the machine (a virtual machine's
        // host descheduling it) stretches the spin, and the thread may be charged the stall.
        long longestRun = Math.max(scaled(longest), starts.stream().mapToLong(s -> s.endNanos() - s.startNanos()).max().orElse(0));
        long bound = budget + budget / scenario.slices() + workers * (longestRun + 200_000) + 1_000_000;
        usedByPeriod.forEach((tick, used) -> {
            if (used > bound) {
                violations.add("period ending at real tick " + tick + " used " + used + " ns of CPU; budget " + budget
                        + " ns, bound " + bound + " ns");
            }
        });
    }

    /**
     * The most urgent priority the object of {@code key} may have risen to before {@code x} started:
     * that of any request for it whose submit call began by then.
     */
    /**
     * The earliest moment {@code x}'s worker can have taken its object: not before the request was
     * queued, nor before that worker's previous action ended. Its action's own start may come much
     * later: a worker descheduled between taking an object and starting the action (3 workers
     * and the driver share 2 cores) leaves the others to run less urgent work meanwhile, which is
     * no inversion (seed 6607939438754525367 failed that way once: 4 overtakes on 3 workers).
     */
    private long takenNotBefore(Start x, long queuedAt) {
        long bound = queuedAt;
        for (Start s : starts) {
            if (s.thread().equals(x.thread()) && s.endNanos() <= x.startNanos() && s.endNanos() > bound) {
                bound = s.endNanos();
            }
        }
        return bound;
    }

    private int mostUrgentOnKeyBefore(String key, Start x) {
        return requests.values().stream().filter(r -> r.submit.key().equals(key) && r.submitBegan < x.startNanos())
                .mapToInt(r -> r.submit.priority()).min().orElse(x.priority());
    }

    private boolean unlimitedQuotasFrom(int from, int to) {
        for (int q = from; q <= to; q++) {
            if (scenario.effectiveQuota(q) != Scenario.UNLIMITED_QUOTA) {
                return false;
            }
        }
        return true;
    }

    /**
     * A bound on the priority its object was ready at when {@code s} started (rule 7: the most
     * urgent of the object's outstanding actions, which may be more urgent than {@code s} itself):
     * the most urgent of {@code s} and the requests for its key that may have been queued then
     * (their submit call had begun) and had not started yet. It may come out more urgent than the
     * truth (a request cancelled meanwhile still counts), never less, so a check built on it
     * reports no inversion that did not happen.
     */
    private int objectPriorityAtMost(Start s, Map<String, Start> started) {
        int priority = s.priority();
        for (Req r : requests.values()) {
            Start rs = started.get(r.submit.id());
            if (r.submit.key().equals(s.key()) && r.submitBegan < s.startNanos()
                    && (rs == null || rs.startNanos() >= s.startNanos())) {
                priority = Math.min(priority, r.submit.priority());
            }
        }
        return priority;
    }

    private void checkWorkersPark(Backplane backplane) {
        String prefix = "backplane-" + name + "-worker-";
        try {
            await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(5)).until(() ->
                    backplane.statistics().idleThreads() == workers
                            && Thread.getAllStackTraces().keySet().stream()
                                    .filter(t -> t.getName().startsWith(prefix))
                                    .allMatch(t -> t.getState() == Thread.State.WAITING
                                            || t.getState() == Thread.State.TIMED_WAITING));
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            violations.add("workers did not all park once idle: idle " + backplane.statistics().idleThreads() + " of "
                    + workers);
        }
    }
}
