package io.appbackplane.spring.observation;

import io.micrometer.observation.Observation;

/**
 * The context of a backplane action's observations: which backplane, component and priority, and
 * which stage of the action the observation covers ({@link Stage#QUEUE} or {@link Stage#RUN}). The
 * {@linkplain BackplaneActionObservationConvention conventions} read their name, contextual name and
 * tags from it.
 */
public final class BackplaneActionContext extends Observation.Context {

    /** The stage of an action an observation covers. */
    public enum Stage {
        /** Its wait in its object's queue: {@value BackplaneObservations#QUEUE}. */
        QUEUE,
        /** Its run on a worker: {@value BackplaneObservations#RUN}. */
        RUN
    }

    private final Stage stage;
    private final String backplane;
    private final String component;
    private final int priority;

    public BackplaneActionContext(Stage stage, String backplane, String component, int priority) {
        this.stage = stage;
        this.backplane = backplane;
        this.component = component;
        this.priority = priority;
    }

    /** The stage the observation covers. */
    public Stage stage() {
        return stage;
    }

    /** The name of the backplane the action's component is installed in. */
    public String backplane() {
        return backplane;
    }

    /** The name of the action's component. */
    public String component() {
        return component;
    }

    /** The action's priority. */
    public int priority() {
        return priority;
    }
}
