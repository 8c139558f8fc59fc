package io.appbackplane.spring.autoconfigure;

import io.appbackplane.Backplane;
import io.appbackplane.BackplaneComponent;
import io.appbackplane.ComponentState;
import io.appbackplane.spring.autoconfigure.BackplaneStartupTimeoutException.StuckComponent;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Says, for each component short of a target state, what holds it, so that a start-up timeout names
 * the cause rather than only the deadline: a component
 * enters its next state only after its backplane and its dependencies have entered it (docs/scheduling.md, modules and states),
 * so a dependency that has not is what it waits for; when none is left, its own transition — an
 * {@code @OnState} hook, or an action on its object that runs before the transition — has not
 * finished. Read from the components' states, so it needs nothing from the core but {@link
 * BackplaneComponent#state()} and {@link BackplaneComponent#dependencies()}.
 */
final class StartupDiagnosis {

    /** How {@link StuckComponent#heldBy()} begins when the component's own transition has not finished. */
    private static final String OWN_TRANSITION = "its own transition into ";

    private StartupDiagnosis() {}

    static List<StuckComponent> of(Collection<Backplane> backplanes, ComponentState target) {
        Map<String, BackplaneComponent> byName = new LinkedHashMap<>();
        for (Backplane backplane : backplanes) {
            backplane.components().forEach(c -> byName.putIfAbsent(c.name(), c));
        }
        List<StuckComponent> stuck = new ArrayList<>();
        for (Backplane backplane : backplanes) {
            for (BackplaneComponent component : backplane.components()) {
                ComponentState state = component.state();
                if (state == target) {
                    continue;
                }
                stuck.add(new StuckComponent(component.name(), backplane.name(), state,
                        heldBy(backplane, component, state, target, byName)));
            }
        }
        return stuck;
    }

    private static String heldBy(Backplane backplane, BackplaneComponent component, ComponentState state,
            ComponentState target, Map<String, BackplaneComponent> byName) {
        ComponentState next;
        try {
            next = state.pathTo(target).get(0);
        } catch (IllegalArgumentException e) {
            return "nothing: it cannot move from " + state + " to " + target;
        }
        List<String> waitingFor = new ArrayList<>();
        if (component != backplane.self() && !entered(backplane.self().state(), next)) {
            waitingFor.add("its backplane '" + backplane.name() + "' (in " + backplane.self().state() + ")");
        }
        for (String dependency : component.dependencies()) {
            BackplaneComponent other = byName.get(dependency);
            if (other == null) {
                waitingFor.add("dependency '" + dependency + "' (not installed)");
            } else if (!entered(other.state(), next)) {
                waitingFor.add("dependency '" + dependency + "' (in " + other.state() + ")");
            }
        }
        if (!waitingFor.isEmpty()) {
            return String.join(", ", waitingFor) + ", to enter " + next;
        }
        return OWN_TRANSITION + next + ": an @OnState(" + next + ") hook, or an action on the component's"
                + " own object queued before it, has not finished";
    }

    /**
     * Of {@code stuck}, those held by their own transition (a hook or action still running, not a
     * dependency), as "the transition of 'name' (backplane 'b') into STATE" texts; empty if none.
     */
    static List<String> runningTransitions(List<StuckComponent> stuck) {
        List<String> running = new ArrayList<>();
        for (StuckComponent s : stuck) {
            if (s.heldBy().startsWith(OWN_TRANSITION)) {
                String into = s.heldBy().substring(OWN_TRANSITION.length(), s.heldBy().indexOf(':'));
                running.add("the transition of '" + s.component() + "' (backplane '" + s.backplane() + "') into " + into);
            }
        }
        return running;
    }

    /** Whether a component in {@code state} has entered {@code next} on the way up (or is past it). */
    private static boolean entered(ComponentState state, ComponentState next) {
        return state == next || next == ComponentState.INITIALIZING && state.isRole();
    }
}
