package io.appbackplane.spring.observation;

import io.micrometer.common.KeyValues;

/**
 * {@value BackplaneObservations#QUEUE}, contextual name {@code "queue <component>"}, low-cardinality
 * tags {@code backplane}, {@code component}, {@code priority}. Extend it to add tags to the
 * defaults.
 */
public class DefaultBackplaneActionQueueObservationConvention implements BackplaneActionQueueObservationConvention {

    @Override
    public String getName() {
        return BackplaneObservations.QUEUE;
    }

    @Override
    public String getContextualName(BackplaneActionContext context) {
        return "queue " + context.component();
    }

    @Override
    public KeyValues getLowCardinalityKeyValues(BackplaneActionContext context) {
        return BackplaneObservations.actionKeyValues(context);
    }
}
