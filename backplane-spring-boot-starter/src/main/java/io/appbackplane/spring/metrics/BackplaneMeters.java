package io.appbackplane.spring.metrics;

/**
 * Every meter name the starter registers by default, in one place (the opt-in histogram timers'
 * are in {@link BackplaneHistograms}). Tags: {@code backplane}, {@code component},
 * {@code endpoint}, {@code priority}, {@code outcome} (completed, failed, rejected), {@code state}
 * (busy, idle, total for threads; a module state for components), {@code reason} (a rejection reason).
 */
public final class BackplaneMeters {

    /** Requests finished or rejected, per component (tags backplane, component, outcome). */
    public static final String REQUESTS = "backplane.requests";
    /** Action running time, per component (FunctionTimer; tags backplane, component). */
    public static final String ACTION_RUN = "backplane.action.run";
    /** Time from queued to started, per component (FunctionTimer; tags backplane, component). */
    public static final String ACTION_QUEUE = "backplane.action.queue";
    /** Slow actions, per component (tags backplane, component). */
    public static final String SLOW_ACTIONS = "backplane.actions.slow";
    /** Requests accepted and unfinished, per component (gauge; tags backplane, component). */
    public static final String OUTSTANDING = "backplane.outstanding";
    /** The operation limit, per component (gauge; tags backplane, component). */
    public static final String OPERATION_LIMIT = "backplane.operation.limit";
    /** Endpoint requests (tags backplane, component, endpoint, outcome). */
    public static final String ENDPOINT_REQUESTS = "backplane.endpoint.requests";
    /** Endpoint action running time (FunctionTimer; tags backplane, component, endpoint). */
    public static final String ENDPOINT_RUN = "backplane.endpoint.run";
    /** Objects in a ready queue (gauge; tags backplane, priority). */
    public static final String READY_DEPTH = "backplane.ready.depth";
    /** Actions charged to a quota this period (gauge; tags backplane, priority). */
    public static final String QUOTA_USED = "backplane.quota.used";
    /** Requests finished or rejected, per priority (tags backplane, priority, outcome). */
    public static final String PRIORITY_REQUESTS = "backplane.priority.requests";
    /** Actions run, per priority (tags backplane, priority). */
    public static final String PRIORITY_ACTIONS = "backplane.priority.actions";
    /** Objects on the wait queue (gauge; tag backplane). */
    public static final String WAITING = "backplane.waiting";
    /** Worker CPU time (the CPU time of the backplane's worker threads) used in the current period, seconds (gauge; tag backplane). */
    public static final String CPU_USED = "backplane.cpu.used";
    /** Worker CPU time used in the previous period, seconds (gauge; tag backplane). */
    public static final String CPU_USED_LAST = "backplane.cpu.used.last";
    /**
     * The CPU limit in force in cores: a fixed limit's cores, or what an {@code auto} limit allows
     * this period; NaN when nothing is limited (gauge; tag backplane).
     */
    public static final String CPU_LIMIT = "backplane.cpu.limit";
    /** Time ready work waited for CPU budget, seconds (counter; tag backplane). */
    public static final String THROTTLED = "backplane.throttled";
    /** Quota replenishments inside a period (counter; tag backplane). */
    public static final String VIRTUAL_TICKS = "backplane.virtual.ticks";
    /** Worker threads (gauge; tags backplane, state = busy | idle | total). */
    public static final String THREADS = "backplane.threads";
    /** Time from queued to started, per priority (FunctionTimer; tags backplane, priority). */
    public static final String PRIORITY_QUEUE = "backplane.priority.queue";
    /** Requests rejected, by reason (counter; tags backplane, reason). */
    public static final String REJECTIONS = "backplane.rejections";
    /** 1 for the component's current module state, 0 for the others (gauge; tags backplane, component, state). */
    public static final String COMPONENT_STATE = "backplane.component.state";

    private BackplaneMeters() {}
}
