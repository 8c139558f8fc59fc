package io.appbackplane.spring.autoconfigure;

import io.appbackplane.ComponentState;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Components did not reach the node's role within {@code backplane.startup-timeout}. Names each
 * component that did not, the state it is in and what holds it (a dependency that has not moved, or
 * its own state hook), for {@link BackplaneFailureAnalyzer}.
 */
public class BackplaneStartupTimeoutException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    /**
     * A component short of the target state.
     *
     * @param component the component's name
     * @param backplane the backplane it is installed in
     * @param state the state it is in
     * @param heldBy what it waits for, such as "dependency 'customers' (in INITIALIZING)" or "its
     *     own transition into PRIMARY (an @OnState(PRIMARY) hook, or an action on the component's
     *     own object, has not finished)"
     */
    public record StuckComponent(String component, String backplane, ComponentState state, String heldBy) {

        @Override
        public String toString() {
            return "'" + component + "' (backplane '" + backplane + "') is in " + state + ", held by " + heldBy;
        }
    }

    private final ComponentState target;
    private final Duration timeout;
    private final transient List<StuckComponent> stuck;

    public BackplaneStartupTimeoutException(ComponentState target, Duration timeout, List<StuckComponent> stuck,
            Throwable cause) {
        super("backplane components did not reach " + target + " within backplane.startup-timeout (" + timeout + "): "
                + stuck.stream().map(StuckComponent::toString).collect(Collectors.joining("; ")), cause);
        this.target = target;
        this.timeout = timeout;
        this.stuck = List.copyOf(stuck);
    }

    /** The state start-up waited for: the node's role. */
    public ComponentState target() {
        return target;
    }

    /** The configured start-up timeout. */
    public Duration timeout() {
        return timeout;
    }

    /** The components short of {@link #target()}, in dependency order within each backplane. */
    public List<StuckComponent> stuck() {
        return stuck;
    }
}
