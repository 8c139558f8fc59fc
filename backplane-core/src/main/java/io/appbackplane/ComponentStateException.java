package io.appbackplane;

/**
 * A component could not enter a state: its state hook failed, or a component it waited for did.
 * The component stays in the state it was in; components that already moved stay moved.
 */
public class ComponentStateException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    private final String component;
    private final ComponentState state;

    public ComponentStateException(String component, ComponentState state, String message, Throwable cause) {
        super(message, cause);
        this.component = component;
        this.state = state;
    }

    /** The component that did not enter {@link #state()}. */
    public String component() {
        return component;
    }

    /** The state it did not enter. */
    public ComponentState state() {
        return state;
    }
}
