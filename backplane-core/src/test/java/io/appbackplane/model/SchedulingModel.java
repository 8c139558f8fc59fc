package io.appbackplane.model;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;

/**
 * An executable reference model of scheduling rules 2-8, written from the rules of
 * docs/scheduling.md (where they leave a choice, from the rest of that page), independent of the scheduler's classes: a
 * discrete-event simulation of one backplane with {@code workers} simulated workers that turns a
 * {@link Scenario} into the trace of action starts the scheduler must produce.
 *
 * <h2>What it models</h2>
 * <ul>
 *   <li>Rule 2: a FIFO ready queue of objects and a quota per priority (defaults 0: unlimited,
 *       1: 100, then halving, never below 12).
 *   <li>Rule 3: a free worker scans priorities from 0 and takes the head of the first ready queue
 *       that has work and quota left; the quota of that priority is charged.
 *   <li>Rule 4: real ticks every period, at {@code k × period} from the start: quotas replenished,
 *       CPU use reset.
 *   <li>Rule 5: a budget of {@code limit × period} per period released in {@code slices} equal
 *       parts: an action may start at {@code t} only while the period's use is below
 *       {@code budget × min(slices, floor((t - periodStart) / (period / slices)) + 1) / slices}.
 *       Otherwise nothing starts until the next release or real tick. Running actions finish.
 *       This is a fixed limit; an {@code auto} limit (whose budget follows the container's quota
 *       and the rest of the process, and which lets priority 0 start without budget) is not
 *       modelled: {@code AutoCpuBudgetRuleTest} and {@code AutoCpuLimitTest} cover it on a manual clock.
 *   <li>Rule 5, per-period charging: an action's running time is split at every real tick that
 *       falls inside it; each period is charged only the part inside it.
 *   <li>Rule 6: when every priority that has work has spent its quota (and the CPU budget allows a
 *       start), all quotas are replenished at once and the scan restarts; CPU use is not reset.
 *   <li>Rule 7: an object is ready at the most urgent priority of its outstanding (queued or
 *       delivered-reply) actions; its actions run one at a time in FIFO order; a rise moves it to
 *       the tail of the more urgent queue; after an action an object with work rejoins the tail of
 *       the queue of its (new) priority; with {@code actionsPerTurn > 1} the worker keeps it for
 *       its next action if the object's priority is still the one it was taken at, no object is
 *       ready at a more urgent priority, the CPU budget allows a start and that priority's quota
 *       can be charged again.
 *   <li>Rule 8: an action that waits for a reply parks its object (no worker held); requests still
 *       queue to it; the reply (or its timeout, measured from the end of the action) puts the
 *       handler at the head of the object's queue at the waiting action's priority and the object
 *       becomes ready; a reply after the timeout is ignored.
 * </ul>
 *
 * <h2>Modelling choices where the rules are silent (each one written down here)</h2>
 * <ol>
 *   <li><b>Order of simultaneous events.</b> At one instant: timers first (real ticks, reply
 *       timeouts), then outside events in scenario order (arrivals, cancellations, replies), then
 *       the ends of actions, and only then do free workers select (lowest worker number first).
 *       An outside event at the very instant an action ends is therefore seen by the decision that
 *       follows the action; a tick at the instant an action ends happens before it ends (the
 *       whole run time falls in the old period).
 *   <li><b>When CPU time is charged.</b> At the end of each action (the part before each real tick
 *       inside it is charged at that tick, to the period that ends). With several workers a
 *       worker therefore does not see the running time of actions still running elsewhere, as the
 *       step-mode and manual-clock scheduler does not.
 *   <li><b>Budget arithmetic.</b> Exact integer nanoseconds, {@code floor(budget × k / slices)};
 *       generated scenarios keep the numbers exact, so no rounding can differ.
 *   <li><b>The "keep an object alone at its priority" shortcut</b> of docs/scheduling.md is not
 *       modelled: with one worker it ends where the plain rule ends (the object would rejoin an
 *       empty queue and be taken again by the same checks), which is exactly what the step-mode
 *       comparison checks.
 *   <li><b>Cancellation</b> ({@code cancelQueued}) removes the queued actions, not a delivered
 *       reply handler (it has started, as far as the caller is concerned) nor the awaited reply.
 *       An object left with no work leaves its ready queue. An object left with only its delivered
 *       reply handler keeps its place in its ready queue (rule 7 only says where an object goes
 *       when its priority rises).
 *   <li><b>Reply priority.</b> A delivered reply handler counts as an outstanding action at the
 *       waiting action's priority, so an object with a reply and more urgent queued requests is
 *       ready at the more urgent priority (rule 7), and the handler still runs first (rule 8).
 *   <li><b>A quota is charged per action started</b>, including each further action of a turn,
 *       to the priority the object was taken at.
 * </ol>
 */
public final class SchedulingModel {

    private static final long MS = 1_000_000;

    /** Runs {@code scenario} with {@code workers} simulated workers; returns the action starts in order. */
    public static List<TraceEntry> trace(Scenario scenario, int workers) {
        return run(scenario, workers).trace();
    }

    /** Runs {@code scenario}; returns the trace and which rules' situations it met. */
    public static Result run(Scenario scenario, int workers) {
        SchedulingModel model = new SchedulingModel(scenario, workers);
        model.run();
        return new Result(List.copyOf(model.trace), model.met);
    }

    /** A run's trace and the situations it met (so a property test can check its generator reaches them). */
    public record Result(List<TraceEntry> trace, EnumSet<Situation> met) {}

    /** Situations of rules 4-8 a scenario may or may not reach. */
    public enum Situation {
        THROTTLED, VIRTUAL_TICK, QUOTA_HELD_BACK_A_PRIORITY, REAL_TICK_WITH_QUOTA_USED, ACTION_ACROSS_REAL_TICK,
        PRIORITY_RISE, TURN_CONTINUED, ARRIVAL_WHILE_RUNNING, REPLY_DELIVERED, REPLY_TIMED_OUT, LATE_REPLY_IGNORED,
        QUEUED_WORK_CANCELLED
    }

    /** Ranks of simultaneous events (modelling choice 1). */
    private static final int TIMER = 0;
    private static final int OUTSIDE = 1;
    private static final int ACTION_END = 2;
    private static final int WAKE_UP = 3;

    private record Event(long at, int rank, long seq, Runnable what) {}

    /** A queued action: a request's action, or a delivered reply's handler. */
    private record Node(String label, String key, int priority, long costNanos, Scenario.Reply reply) {}

    private enum State { IDLE, READY, RUNNING, WAITING }

    private static final class Obj {
        final String key;
        final Deque<Node> queue = new ArrayDeque<>();
        Node front; // a delivered reply's handler: runs before the queue
        State state = State.IDLE;
        int readyPriority;
        Object awaiting; // the reply the object waits for (identity)

        Obj(String key) {
            this.key = key;
        }

        boolean hasWork() {
            return front != null || !queue.isEmpty();
        }

        int priority() {
            int p = front != null ? front.priority() : Integer.MAX_VALUE;
            for (Node n : queue) {
                p = Math.min(p, n.priority());
            }
            return p;
        }

        Node next() {
            if (front != null) {
                Node n = front;
                front = null;
                return n;
            }
            return queue.poll();
        }
    }

    private static final class Worker {
        Obj object; // running or kept for its turn; null when free
        long start;
        long chargedFrom; // the part of the running action before this instant is charged already
        int turnPriority;
        int turnActions;
    }

    private final Scenario scenario;
    private final int priorities;
    private final int[] quota;
    private final int[] used;
    private final List<Deque<Obj>> ready = new ArrayList<>();
    private final Map<String, Obj> objects = new LinkedHashMap<>();
    private final Worker[] workers;
    private final PriorityQueue<Event> agenda = new PriorityQueue<>((a, b) -> a.at != b.at ? Long.compare(a.at, b.at)
            : a.rank != b.rank ? Integer.compare(a.rank, b.rank) : Long.compare(a.seq, b.seq));
    private final List<TraceEntry> trace = new ArrayList<>();
    private final EnumSet<Situation> met = EnumSet.noneOf(Situation.class);
    private final long period;
    private final long budget; // Long.MAX_VALUE: no CPU limit
    private long seq;
    private long now;
    private long periodStart;
    private long cpuUsed;
    private int pendingOutside; // outside events, replies and timeouts not yet happened

    private SchedulingModel(Scenario scenario, int workerCount) {
        this.scenario = scenario;
        this.priorities = scenario.priorities();
        this.quota = new int[priorities];
        this.used = new int[priorities];
        for (int p = 0; p < priorities; p++) {
            quota[p] = scenario.effectiveQuota(p);
            ready.add(new ArrayDeque<>());
        }
        this.workers = new Worker[workerCount];
        for (int w = 0; w < workerCount; w++) {
            workers[w] = new Worker();
        }
        this.period = scenario.periodMs() * MS;
        this.budget = scenario.cpuMillicores() == 0 ? Long.MAX_VALUE : period * scenario.cpuMillicores() / 1000;
    }

    private void at(long time, int rank, Runnable what) {
        agenda.add(new Event(time, rank, seq++, what));
    }

    private void outside(long time, Runnable what) {
        pendingOutside++;
        at(time, OUTSIDE, () -> {
            pendingOutside--;
            what.run();
        });
    }

    private void run() {
        for (Scenario.Event event : scenario.events()) {
            if (event instanceof Scenario.Submit s) {
                outside(s.atMs() * MS, () -> arrive(new Node(s.id(), s.key(), s.priority(), s.costMs() * MS, s.reply())));
            } else if (event instanceof Scenario.Cancel c) {
                outside(c.atMs() * MS, () -> cancel(c.key()));
            }
        }
        at(period, TIMER, this::realTick);
        while (true) {
            for (Worker w : workers) {
                if (w.object == null) {
                    select(w);
                }
            }
            if (finished()) {
                return;
            }
            Event event = agenda.poll();
            now = event.at;
            event.what.run();
            while (!agenda.isEmpty() && agenda.peek().at == now) {
                agenda.poll().what.run();
            }
        }
    }

    private boolean finished() {
        if (pendingOutside > 0) {
            return false;
        }
        for (Worker w : workers) {
            if (w.object != null) {
                return false;
            }
        }
        for (Deque<Obj> q : ready) {
            if (!q.isEmpty()) {
                return false;
            }
        }
        return true; // no object waits without a pending reply or timeout (counted in pendingOutside)
    }

    // ---- rule 7: objects and their priority -------------------------------------------------

    private void arrive(Node node) {
        Obj o = objects.computeIfAbsent(node.key(), Obj::new);
        o.queue.add(node);
        for (Worker w : workers) {
            if (w.object != null && w.object.state == State.RUNNING) {
                met.add(Situation.ARRIVAL_WHILE_RUNNING);
            }
        }
        if (o.state == State.IDLE) {
            makeReady(o);
        } else if (o.state == State.READY && node.priority() < o.readyPriority) {
            met.add(Situation.PRIORITY_RISE);
            ready.get(o.readyPriority).remove(o); // a rise: to the tail of the more urgent queue
            o.readyPriority = node.priority();
            ready.get(o.readyPriority).addLast(o);
        }
    }

    private void makeReady(Obj o) {
        o.state = State.READY;
        o.readyPriority = o.priority();
        ready.get(o.readyPriority).addLast(o);
    }

    private void cancel(String key) {
        Obj o = objects.get(key);
        if (o == null) {
            return;
        }
        if (!o.queue.isEmpty()) {
            met.add(Situation.QUEUED_WORK_CANCELLED);
        }
        o.queue.clear();
        if (o.state == State.READY && !o.hasWork()) {
            ready.get(o.readyPriority).remove(o);
            o.state = State.IDLE;
        }
    }

    // ---- rules 3, 5, 6: selection -------------------------------------------------------------

    private void select(Worker w) {
        if (!anyReady()) {
            return;
        }
        if (!cpuAllowsStart()) {
            met.add(Situation.THROTTLED);
            at(nextRelease(), WAKE_UP, () -> {}); // look again when budget comes back
            return;
        }
        while (true) {
            boolean spent = false;
            for (int p = 0; p < priorities; p++) {
                if (ready.get(p).isEmpty()) {
                    continue;
                }
                if (used[p] >= quota[p]) {
                    spent = true;
                    continue;
                }
                if (spent) {
                    met.add(Situation.QUOTA_HELD_BACK_A_PRIORITY);
                }
                used[p]++;
                Obj o = ready.get(p).pollFirst();
                w.turnPriority = p;
                w.turnActions = 0;
                start(w, o);
                return;
            }
            if (!spent) {
                return;
            }
            met.add(Situation.VIRTUAL_TICK);
            java.util.Arrays.fill(used, 0); // rule 6: a virtual tick
        }
    }

    private boolean anyReady() {
        for (Deque<Obj> q : ready) {
            if (!q.isEmpty()) {
                return true;
            }
        }
        return false;
    }

    private boolean cpuAllowsStart() {
        return budget == Long.MAX_VALUE || cpuUsed < released();
    }

    private long released() {
        int n = scenario.slices();
        long slice = period / n;
        long k = Math.min(n, (now - periodStart) / slice + 1);
        return budget * k / n;
    }

    private long nextRelease() {
        long slice = period / scenario.slices();
        return Math.min(periodStart + ((now - periodStart) / slice + 1) * slice, periodStart + period);
    }

    // ---- running an action --------------------------------------------------------------------

    private void start(Worker w, Obj o) {
        Node node = o.next();
        o.state = State.RUNNING;
        w.object = o;
        w.start = now;
        w.chargedFrom = now;
        w.turnActions++;
        trace.add(new TraceEntry(now, node.label(), o.key, node.priority()));
        at(now + node.costNanos(), ACTION_END, () -> end(w, node));
    }

    private void end(Worker w, Node node) {
        Obj o = w.object;
        cpuUsed += now - w.chargedFrom;
        if (node.reply() != null) {
            awaitReply(o, node);
        }
        if (o.state == State.WAITING) {
            w.object = null;
        } else if (!o.hasWork()) {
            o.state = State.IDLE;
            w.object = null;
        } else if (continuesTurn(w, o)) {
            met.add(Situation.TURN_CONTINUED);
            start(w, o);
        } else {
            makeReady(o);
            w.object = null;
        }
    }

    private boolean continuesTurn(Worker w, Obj o) {
        if (w.turnActions >= scenario.actionsPerTurn() || o.priority() != w.turnPriority) {
            return false;
        }
        for (int p = 0; p < w.turnPriority; p++) {
            if (!ready.get(p).isEmpty()) {
                return false;
            }
        }
        if (!cpuAllowsStart() || used[w.turnPriority] >= quota[w.turnPriority]) {
            return false;
        }
        used[w.turnPriority]++;
        return true;
    }

    // ---- rule 8: replies ----------------------------------------------------------------------

    private void awaitReply(Obj o, Node waiter) {
        Scenario.Reply spec = waiter.reply();
        Object reply = new Object();
        o.state = State.WAITING;
        o.awaiting = reply;
        if (spec.timeoutMs() != Scenario.Reply.NO_TIMEOUT) {
            pendingOutside++;
            at(now + spec.timeoutMs() * MS, TIMER, () -> {
                pendingOutside--;
                deliver(o, reply, waiter, "/timeout");
            });
        }
        if (spec.arrivesAfterMs() != Scenario.Reply.NEVER) {
            outside(now + spec.arrivesAfterMs() * MS, () -> deliver(o, reply, waiter, "/reply"));
        }
    }

    private void deliver(Obj o, Object reply, Node waiter, String outcome) {
        if (o.awaiting != reply) {
            if (outcome.equals("/reply")) {
                met.add(Situation.LATE_REPLY_IGNORED);
            }
            return; // already delivered (a late reply after its timeout is ignored)
        }
        met.add(outcome.equals("/reply") ? Situation.REPLY_DELIVERED : Situation.REPLY_TIMED_OUT);
        o.awaiting = null;
        o.front = new Node(waiter.label() + outcome, o.key, waiter.priority(),
                waiter.reply().handlerCostMs() * MS, null);
        makeReady(o);
    }

    // ---- rule 4: real ticks -------------------------------------------------------------------

    private void realTick() {
        for (int u : used) {
            if (u > 0) {
                met.add(Situation.REAL_TICK_WITH_QUOTA_USED);
            }
        }
        java.util.Arrays.fill(used, 0);
        for (Worker w : workers) {
            if (w.object != null && w.object.state == State.RUNNING) {
                if (budget != Long.MAX_VALUE && w.start < now) {
                    met.add(Situation.ACTION_ACROSS_REAL_TICK);
                }
                w.chargedFrom = now; // the part before the tick belonged to the period that ended
            }
        }
        cpuUsed = 0;
        periodStart = now;
        at(now + period, TIMER, this::realTick);
    }
}
