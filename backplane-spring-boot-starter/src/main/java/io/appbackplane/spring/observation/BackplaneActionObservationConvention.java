package io.appbackplane.spring.observation;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;

/**
 * The convention of an action's run observation ({@value BackplaneObservations#RUN} by default,
 * {@link DefaultBackplaneActionObservationConvention}). Declare a bean of this type to replace the
 * default: its name, contextual name and tags are what the run observations carry. Supports
 * {@link BackplaneActionContext.Stage#RUN} contexts only.
 */
public interface BackplaneActionObservationConvention extends ObservationConvention<BackplaneActionContext> {

    @Override
    default boolean supportsContext(Observation.Context context) {
        return context instanceof BackplaneActionContext action && action.stage() == BackplaneActionContext.Stage.RUN;
    }
}
