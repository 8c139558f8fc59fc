package io.appbackplane.internal.scheduling;

import io.appbackplane.internal.objects.AfterAction;
import io.appbackplane.internal.objects.WorkObject;

/**
 * What owns a work object and acts when a turn leaves it idle: removes a RELEASED object from its
 * table, lists a LIST_IDLE one for the idle sweep (rule 16). Implemented by a component; called by
 * the thread whose turn ended, after the object left RUNNING.
 */
public interface ObjectSettling {

    /** Acts on an object's {@link AfterAction}: removes it if RELEASE, lists it for the idle sweep if LIST_IDLE. */
    void settled(WorkObject object, AfterAction after);
}
