package io.appbackplane.spring.observation;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;

/**
 * The convention of an action's queue-wait observation ({@value BackplaneObservations#QUEUE} by
 * default, {@link DefaultBackplaneActionQueueObservationConvention}). Declare a bean of this type to
 * replace the default. Supports {@link BackplaneActionContext.Stage#QUEUE} contexts only.
 */
public interface BackplaneActionQueueObservationConvention extends ObservationConvention<BackplaneActionContext> {

    @Override
    default boolean supportsContext(Observation.Context context) {
        return context instanceof BackplaneActionContext action && action.stage() == BackplaneActionContext.Stage.QUEUE;
    }
}
