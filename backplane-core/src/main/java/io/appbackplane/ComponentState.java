package io.appbackplane;

import java.util.List;

/**
 * The module states a backplane drives its components through (docs/scheduling.md, modules and states): START →
 * INITIALIZING → PRIMARY or SECONDARY (and between those two, both ways) → DOWN. A component enters
 * a state only after every component it depends on has reached it; on the way down, dependents go
 * first.
 */
public enum ComponentState {
    /** Installed; nothing has run yet. */
    START,
    /** Its dependencies are initializing or up; the component prepares itself. */
    INITIALIZING,
    /** Serving as the active node (the default state in which endpoints accept work). */
    PRIMARY,
    /** Serving as the standby node. */
    SECONDARY,
    /** Shut down; terminal. */
    DOWN;

    private static final String ALLOWED =
            "allowed: START → INITIALIZING → PRIMARY or SECONDARY (and between those two) → DOWN, from any state";

    /** Whether this is a serving role: PRIMARY or SECONDARY. */
    public boolean isRole() {
        return this == PRIMARY || this == SECONDARY;
    }

    /**
     * The states a component in this state passes through to reach {@code target}, in order,
     * excluding this one; empty when already there.
     *
     * @throws IllegalArgumentException if {@code target} cannot be reached from this state
     */
    public List<ComponentState> pathTo(ComponentState target) {
        if (target == this) {
            return List.of();
        }
        if (target == DOWN) {
            return List.of(DOWN);
        }
        boolean allowed = switch (this) {
            case START -> target != START;
            case INITIALIZING -> target.isRole();
            case PRIMARY, SECONDARY -> target.isRole();
            case DOWN -> false;
        };
        if (!allowed) {
            throw new IllegalArgumentException("a component in state " + this + " cannot move to " + target + "; " + ALLOWED);
        }
        return this == START && target.isRole() ? List.of(INITIALIZING, target) : List.of(target);
    }
}
