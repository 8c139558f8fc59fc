package io.appbackplane.spring.observation;

import io.micrometer.common.KeyValues;

/**
 * {@value BackplaneObservations#RUN}, contextual name {@code "run <component>"}, low-cardinality
 * tags {@code backplane}, {@code component}, {@code priority}. Extend it to add tags to the
 * defaults.
 */
public class DefaultBackplaneActionObservationConvention implements BackplaneActionObservationConvention {

    @Override
    public String getName() {
        return BackplaneObservations.RUN;
    }

    @Override
    public String getContextualName(BackplaneActionContext context) {
        return "run " + context.component();
    }

    @Override
    public KeyValues getLowCardinalityKeyValues(BackplaneActionContext context) {
        return BackplaneObservations.actionKeyValues(context);
    }
}
