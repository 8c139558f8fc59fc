package io.appbackplane.model;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * A generated scheduling workload: a policy and a timed list of what happens from outside (requests
 * arriving, queued work cancelled). Plain data, shared by the {@linkplain SchedulingModel reference
 * model}, the {@linkplain StepModeRun step-mode run} of the real scheduler and the threaded run.
 * All times and costs are whole milliseconds of the clock, counted from the backplane's start.
 *
 * <p>{@link #toString()} prints the scenario as the builder code that recreates it, so a shrunk
 * counterexample can be pasted into a regression test as it is.
 *
 * @param priorities number of priorities (P)
 * @param quotas per priority: {@link #DEFAULT_QUOTA} for the policy's default, {@link
 *     #UNLIMITED_QUOTA}, or a number of actions per (virtual) period
 * @param cpuMillicores the CPU limit in millicores, 0 for none
 * @param periodMs the integration period
 * @param slices CPU-budget slices per period
 * @param actionsPerTurn actions a worker may run on one object per turn
 * @param events what happens from outside, in time order (ties keep their list order)
 */
public record Scenario(int priorities, int[] quotas, int cpuMillicores, int periodMs, int slices, int actionsPerTurn,
        List<Event> events) {

    /** A quota left to the policy's default (scheduling rule 2). */
    public static final int DEFAULT_QUOTA = 0;

    /** No quota. */
    public static final int UNLIMITED_QUOTA = Integer.MAX_VALUE;

    public Scenario {
        quotas = quotas.clone();
        if (quotas.length != priorities) {
            throw new IllegalArgumentException(quotas.length + " quotas for " + priorities + " priorities");
        }
        List<Event> sorted = new ArrayList<>(events);
        sorted.sort(Comparator.comparingInt(Event::atMs)); // stable: ties keep their order
        events = List.copyOf(sorted);
    }

    @Override
    public int[] quotas() {
        return quotas.clone();
    }

    /** The quota of {@code priority} as scheduling rule 2 defines it, defaults resolved. */
    public int effectiveQuota(int priority) {
        int quota = quotas[priority];
        if (quota != DEFAULT_QUOTA) {
            return quota;
        }
        if (priority == 0) {
            return UNLIMITED_QUOTA;
        }
        int q = 100;
        for (int p = 2; p <= priority; p++) {
            q = Math.max(12, q / 2);
        }
        return q;
    }

    /** Every request of the scenario (none is created while it runs). */
    public List<Submit> submits() {
        return events.stream().filter(Submit.class::isInstance).map(Submit.class::cast).toList();
    }

    /** Something that happens at {@link #atMs()} from outside the backplane. */
    public sealed interface Event permits Submit, Cancel {
        int atMs();
    }

    /**
     * A request {@code id} for the object {@code key} at {@code priority}: an action that runs for
     * {@code costMs}, then, if {@code reply} is not null, waits for an asynchronous reply.
     */
    public record Submit(int atMs, String id, String key, int priority, int costMs, Reply reply) implements Event {}

    /** {@code cancelQueued(key)}: the object's queued (not yet started) actions are cancelled. */
    public record Cancel(int atMs, String key) implements Event {}

    /**
     * The reply an action waits for: it arrives {@code arrivesAfterMs} after the action ended
     * ({@link #NEVER} for never), with a timeout of {@code timeoutMs} ({@link #NO_TIMEOUT} for
     * none); its handler runs for {@code handlerCostMs}.
     */
    public record Reply(int arrivesAfterMs, int timeoutMs, int handlerCostMs) {
        public static final int NEVER = -1;
        public static final int NO_TIMEOUT = -1;

        public Reply {
            if (arrivesAfterMs == NEVER && timeoutMs == NO_TIMEOUT) {
                throw new IllegalArgumentException("a reply that never arrives needs a timeout");
            }
        }
    }

    /** A builder whose calls read like the scenario itself. */
    public static Builder builder(int priorities) {
        return new Builder(priorities);
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("Scenario.builder(").append(priorities).append(")");
        for (int p = 0; p < priorities; p++) {
            if (quotas[p] != DEFAULT_QUOTA) {
                sb.append(".quota(").append(p).append(", ")
                        .append(quotas[p] == UNLIMITED_QUOTA ? "Scenario.UNLIMITED_QUOTA" : String.valueOf(quotas[p]))
                        .append(")");
            }
        }
        if (cpuMillicores > 0) {
            sb.append("\n        .cpu(").append(cpuMillicores).append(", ").append(periodMs).append(", ").append(slices)
                    .append(") // millicores, period ms, slices\n        ");
        } else if (periodMs != Builder.DEFAULT_PERIOD_MS) {
            sb.append(".period(").append(periodMs).append(")");
        }
        if (actionsPerTurn != 1) {
            sb.append(".actionsPerTurn(").append(actionsPerTurn).append(")");
        }
        for (Event event : events) {
            sb.append("\n        ");
            if (event instanceof Submit s) {
                sb.append(".submit(").append(s.atMs()).append(", \"").append(s.id()).append("\", \"").append(s.key())
                        .append("\", ").append(s.priority()).append(", ").append(s.costMs());
                if (s.reply() != null) {
                    Reply r = s.reply();
                    sb.append(", new Scenario.Reply(").append(r.arrivesAfterMs() == Reply.NEVER ? "Scenario.Reply.NEVER" : r.arrivesAfterMs())
                            .append(", ").append(r.timeoutMs() == Reply.NO_TIMEOUT ? "Scenario.Reply.NO_TIMEOUT" : r.timeoutMs())
                            .append(", ").append(r.handlerCostMs()).append(")");
                }
                sb.append(")");
            } else if (event instanceof Cancel c) {
                sb.append(".cancel(").append(c.atMs()).append(", \"").append(c.key()).append("\")");
            }
        }
        return sb.append("\n        .build()").toString();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Scenario s && priorities == s.priorities && Arrays.equals(quotas, s.quotas)
                && cpuMillicores == s.cpuMillicores && periodMs == s.periodMs && slices == s.slices
                && actionsPerTurn == s.actionsPerTurn && events.equals(s.events);
    }

    @Override
    public int hashCode() {
        return Objects.hash(priorities, Arrays.hashCode(quotas), cpuMillicores, periodMs, slices, actionsPerTurn, events);
    }

    /** Builds a {@link Scenario}; defaults: default quotas, no CPU limit, 100 ms period, 1 action per turn. */
    public static final class Builder {
        static final int DEFAULT_PERIOD_MS = 100;

        private final int priorities;
        private final int[] quotas;
        private int cpuMillicores;
        private int periodMs = DEFAULT_PERIOD_MS;
        private int slices = 1;
        private int actionsPerTurn = 1;
        private final List<Event> events = new ArrayList<>();

        private Builder(int priorities) {
            this.priorities = priorities;
            this.quotas = new int[priorities];
        }

        public Builder quota(int priority, int quota) {
            quotas[priority] = quota;
            return this;
        }

        public Builder cpu(int millicores, int periodMs, int slices) {
            this.cpuMillicores = millicores;
            this.periodMs = periodMs;
            this.slices = slices;
            return this;
        }

        public Builder period(int periodMs) {
            this.periodMs = periodMs;
            return this;
        }

        public Builder actionsPerTurn(int actionsPerTurn) {
            this.actionsPerTurn = actionsPerTurn;
            return this;
        }

        public Builder submit(int atMs, String id, String key, int priority, int costMs) {
            return submit(atMs, id, key, priority, costMs, null);
        }

        public Builder submit(int atMs, String id, String key, int priority, int costMs, Reply reply) {
            events.add(new Submit(atMs, id, key, priority, costMs, reply));
            return this;
        }

        public Builder cancel(int atMs, String key) {
            events.add(new Cancel(atMs, key));
            return this;
        }

        public Scenario build() {
            return new Scenario(priorities, quotas, cpuMillicores, periodMs, slices, actionsPerTurn, events);
        }
    }
}
