package io.appbackplane.internal.scheduling;

import io.appbackplane.ActionTracer;
import io.appbackplane.Backplane;
import io.appbackplane.BackplaneListener;
import io.appbackplane.internal.base.TimerService;
import io.appbackplane.internal.objects.SharedReplyListeners;

/**
 * What the scheduling layer (workers, the step driver, run contexts, real ticks) needs of the
 * backplane that owns it, so that it refers to no class above it. Implemented by the backplane;
 * every method reads a final field or delegates, takes no lock and may be called by any thread.
 */
public interface SchedulingHost extends Backplane {

    /** The action tracer, or null (one check per action when none). Never changes. */
    ActionTracer tracer();

    /** Counts and observes the actions the workers run. Never changes. */
    ActionAccounting accounting();

    /** Tells the backplane's listeners of a slow action; a listener's failure never reaches the caller. */
    void slowAction(BackplaneListener.SlowAction slow);

    /** A CPU meter for one worker (or the step driver): thread CPU time with the system clock, see {@link CpuMeter}. */
    CpuMeter newCpuMeter();

    Scheduler scheduler();

    TimerService timers();

    SharedReplyListeners sharedReplies();

    /** Wakes one parked worker, if any (an object became READY). */
    void signalWork();

    /** Wakes every worker (a policy change, a real tick). */
    void signalAll();

    /** At a real tick: components with a queue-wait target adapt their admission limits (rule 19). */
    void adaptLimits();

    /** Whether the shutdown sweep has run (or is running): work queued now would never run. */
    boolean isStopped();
}
