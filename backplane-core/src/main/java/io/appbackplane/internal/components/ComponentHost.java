package io.appbackplane.internal.components;

import io.appbackplane.BackplaneComponent;
import io.appbackplane.internal.scheduling.SchedulingHost;
import java.util.List;

/**
 * What components, their admission, timers, endpoints and module driver need of the backplane that
 * owns them, so that they refer to no class above their package. Implemented by the backplane; the
 * collaborators a request reaches ({@link #totalAdmission}, {@link #requestCounting}, {@link
 * #liveTimers}) never change, so a component takes them once, when it is made.
 */
public interface ComponentHost extends SchedulingHost {

    /** The backplane-wide half of admission: the total limit, the closed check, the outstanding and waiting totals. */
    TotalAdmission totalAdmission();

    /** The backplane-wide per-priority and rejection counters. */
    RequestCounting requestCounting();

    /** Where every timer registers while it is live, so that shutdown can cancel it. */
    LiveTimers liveTimers();

    /** Tells the backplane's listeners of a failed action nobody awaited; a listener's failure never reaches the caller. */
    void unobservedFailure(BackplaneComponent component, Object key, Throwable failure);

    /** The backplane's publish/subscribe topics. */
    Topics topics();

    /** The backplane's own component first, then the installed ones in installation order. */
    List<DefaultComponent> componentsIncludingSelf();

    /** The other backplanes whose components this one's may depend on ({@link LinkedModules}). */
    List<ComponentHost> linked();

    /** Sets {@link #linked}; called by {@link LinkedModules#link} only. */
    void linkTo(List<ComponentHost> others);
}
