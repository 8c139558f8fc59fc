package io.appbackplane;

/**
 * Code a component runs on entering a state, as an action on the component's own object (so it is
 * ordered with the component's other work there). If it throws, the component does not enter the
 * state and the move fails with a {@link ComponentStateException} naming the component and state.
 */
@FunctionalInterface
public interface StateHook {

    /**
     * Runs on entering a state.
     *
     * @param context the action's context
     * @param from the state the component is leaving
     * @param to the state it is entering
     */
    void onEnter(ActionContext context, ComponentState from, ComponentState to) throws Exception;
}
