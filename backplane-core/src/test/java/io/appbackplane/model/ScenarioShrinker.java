package io.appbackplane.model;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * Shrinks a failing {@link Scenario} to a small one that still fails: greedily drops events (halves,
 * then one at a time), then simplifies what is left (no reply, cost 1, earlier time, fewer objects
 * and priorities, default quotas, no CPU limit, one action per turn), as long as the scenario keeps
 * failing. Deterministic for a deterministic predicate; bounded by a number of runs of the predicate.
 */
public final class ScenarioShrinker {

    private static final int MAX_ATTEMPTS = 3_000;

    private final Predicate<Scenario> fails;
    private final int maxAttempts;
    private int attempts;

    private ScenarioShrinker(Predicate<Scenario> fails, int maxAttempts) {
        this.fails = fails;
        this.maxAttempts = maxAttempts;
    }

    /** The smallest scenario found that still fails ({@code failing} itself if nothing smaller does). */
    public static Scenario shrink(Scenario failing, Predicate<Scenario> fails) {
        return shrink(failing, fails, MAX_ATTEMPTS);
    }

    /** As {@link #shrink(Scenario, Predicate)}, trying at most {@code maxAttempts} candidates (for slow predicates). */
    public static Scenario shrink(Scenario failing, Predicate<Scenario> fails, int maxAttempts) {
        return new ScenarioShrinker(fails, maxAttempts).shrink(failing);
    }

    private Scenario shrink(Scenario s) {
        boolean progress = true;
        while (progress && attempts < maxAttempts) {
            progress = false;
            for (Scenario candidate : candidates(s)) {
                if (attempts++ >= maxAttempts) {
                    break;
                }
                if (stillFails(candidate)) {
                    s = candidate;
                    progress = true;
                    break;
                }
            }
        }
        return s;
    }

    private boolean stillFails(Scenario candidate) {
        try {
            return fails.test(candidate);
        } catch (RuntimeException | AssertionError e) {
            return true; // a different failure is still a failure worth showing
        }
    }

    /** Smaller variants of {@code s}, the biggest reductions first. */
    private static List<Scenario> candidates(Scenario s) {
        List<Scenario> out = new ArrayList<>();
        List<Scenario.Event> events = s.events();
        for (int chunk = events.size() / 2; chunk >= 1; chunk /= 2) {
            for (int from = 0; from + chunk <= events.size(); from += chunk) {
                List<Scenario.Event> fewer = new ArrayList<>(events.subList(0, from));
                fewer.addAll(events.subList(from + chunk, events.size()));
                out.add(with(s, fewer));
            }
        }
        for (int i = 0; i < events.size(); i++) {
            for (Scenario.Event simpler : simpler(events.get(i))) {
                List<Scenario.Event> changed = new ArrayList<>(events);
                changed.set(i, simpler);
                out.add(with(s, changed));
            }
        }
        if (s.cpuMillicores() > 0) {
            out.add(new Scenario(s.priorities(), s.quotas(), 0, s.periodMs(), 1, s.actionsPerTurn(), events));
            if (s.slices() > 1) {
                out.add(new Scenario(s.priorities(), s.quotas(), s.cpuMillicores(), s.periodMs(), 1, s.actionsPerTurn(), events));
            }
        } else if (s.periodMs() != 1000) {
            out.add(new Scenario(s.priorities(), s.quotas(), 0, 1000, 1, s.actionsPerTurn(), events));
        }
        if (s.actionsPerTurn() > 1) {
            out.add(new Scenario(s.priorities(), s.quotas(), s.cpuMillicores(), s.periodMs(), s.slices(), 1, events));
        }
        int[] quotas = s.quotas();
        for (int p = 0; p < quotas.length; p++) {
            if (quotas[p] != Scenario.DEFAULT_QUOTA) {
                int[] q = quotas.clone();
                q[p] = Scenario.DEFAULT_QUOTA;
                out.add(new Scenario(s.priorities(), q, s.cpuMillicores(), s.periodMs(), s.slices(), s.actionsPerTurn(), events));
            }
        }
        int used = events.stream().filter(Scenario.Submit.class::isInstance)
                .mapToInt(e -> ((Scenario.Submit) e).priority()).max().orElse(0) + 1;
        if (used < s.priorities()) {
            int priorities = Math.max(2, used);
            int[] q = new int[priorities];
            System.arraycopy(quotas, 0, q, 0, priorities);
            out.add(new Scenario(priorities, q, s.cpuMillicores(), s.periodMs(), s.slices(), s.actionsPerTurn(), events));
        }
        return out;
    }

    private static Scenario with(Scenario s, List<Scenario.Event> events) {
        return new Scenario(s.priorities(), s.quotas(), s.cpuMillicores(), s.periodMs(), s.slices(), s.actionsPerTurn(), events);
    }

    private static List<Scenario.Event> simpler(Scenario.Event event) {
        List<Scenario.Event> out = new ArrayList<>();
        if (event instanceof Scenario.Submit s) {
            if (s.reply() != null) {
                out.add(new Scenario.Submit(s.atMs(), s.id(), s.key(), s.priority(), s.costMs(), null));
                Scenario.Reply r = s.reply();
                if (r.handlerCostMs() > 0) {
                    out.add(new Scenario.Submit(s.atMs(), s.id(), s.key(), s.priority(), s.costMs(),
                            new Scenario.Reply(r.arrivesAfterMs(), r.timeoutMs(), 0)));
                }
            }
            if (s.costMs() > 1) {
                out.add(new Scenario.Submit(s.atMs(), s.id(), s.key(), s.priority(), 1, s.reply()));
                out.add(new Scenario.Submit(s.atMs(), s.id(), s.key(), s.priority(), s.costMs() - 1, s.reply()));
            }
            if (s.atMs() > 0) {
                out.add(new Scenario.Submit(0, s.id(), s.key(), s.priority(), s.costMs(), s.reply()));
                out.add(new Scenario.Submit(s.atMs() - 1, s.id(), s.key(), s.priority(), s.costMs(), s.reply()));
            }
            if (!s.key().equals("k0")) {
                out.add(new Scenario.Submit(s.atMs(), s.id(), "k0", s.priority(), s.costMs(), s.reply()));
            }
            if (s.priority() > 0) {
                out.add(new Scenario.Submit(s.atMs(), s.id(), s.key(), s.priority() - 1, s.costMs(), s.reply()));
            }
        } else if (event instanceof Scenario.Cancel c) {
            if (c.atMs() > 0) {
                out.add(new Scenario.Cancel(c.atMs() - 1, c.key()));
            }
            if (!c.key().equals("k0")) {
                out.add(new Scenario.Cancel(c.atMs(), "k0"));
            }
        }
        return out;
    }
}
