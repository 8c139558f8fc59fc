package io.appbackplane;

import io.appbackplane.internal.OffloadExecutor;
import io.appbackplane.internal.components.AdmissionThresholds;
import java.time.Duration;
import java.util.Arrays;
import java.util.Objects;

/**
 * The rules every component of one backplane agrees to share (docs/scheduling.md): priorities and their
 * quotas, the CPU limit and integration period, worker threads, the slow-action threshold,
 * actions per turn and the outstanding-work limit. Immutable; build one with {@link #builder()}.
 * Every value is checked when the policy is built, and a bad value fails with an {@link
 * IllegalArgumentException} that names it and the allowed range.
 */
public final class BackplanePolicy {

    /** The quota value meaning "no limit" (the default for priority 0). */
    public static final int UNLIMITED_QUOTA = Integer.MAX_VALUE;

    /** The most priorities a backplane may have. */
    public static final int MAX_PRIORITIES = 64;

    /** The most worker threads a backplane may have. */
    public static final int MAX_THREADS = 4096;

    /** The most CPU-budget slices per integration period. */
    public static final int MAX_CPU_BUDGET_SLICES = 1000;
    /** The most actions a worker runs on one object in one turn (the bound of actions-per-turn). */
    public static final int MAX_ACTIONS_PER_TURN = 1000;

    static final int DEFAULT_PRIORITIES = 8;
    static final Duration DEFAULT_PERIOD = Duration.ofSeconds(1);
    static final int DEFAULT_CPU_BUDGET_SLICES = 10;
    static final Duration DEFAULT_SLOW_ACTION_THRESHOLD = Duration.ofMillis(100);
    static final int DEFAULT_OPERATION_LIMIT = 1_000_000;
    /** The default {@linkplain #admissionReserve() admission reserve}: a tenth of a limit. */
    public static final double DEFAULT_ADMISSION_RESERVE = 0.1;
    /** The most blocking calls {@link ActionContext#offload} runs at once by default. */
    public static final int DEFAULT_OFFLOAD_THREADS = 64;
    /** The most offloaded calls waiting for an offload thread by default. */
    public static final int DEFAULT_OFFLOAD_QUEUE = 1000;
    /** The upper bound of offload threads. */
    public static final int MAX_OFFLOAD_THREADS = 65_536;
    static final Duration MIN_PERIOD = Duration.ofMillis(1);
    static final Duration MAX_PERIOD = Duration.ofHours(1);

    private final int[] quotas;
    private final CpuLimit cpuLimit;
    private final Duration integrationPeriod;
    private final int cpuBudgetSlices;
    private final int threads;
    private final Duration slowActionThreshold;
    private final int actionsPerTurn;
    private final int operationLimit;
    private final double admissionReserve;
    private final int offloadThreads;
    private final int offloadQueue;
    private final OffloadThreads offloadThreadKind;
    /** Derived from the operation limit, the reserve and the priorities: computed once, not per request. */
    private final AdmissionThresholds admissionThresholds;

    private BackplanePolicy(Builder b, int[] quotas) {
        this.quotas = quotas;
        this.cpuLimit = b.cpuLimit;
        this.integrationPeriod = b.integrationPeriod;
        this.cpuBudgetSlices = b.cpuBudgetSlices;
        this.threads = b.threads;
        this.slowActionThreshold = b.slowActionThreshold;
        this.actionsPerTurn = b.actionsPerTurn;
        this.operationLimit = b.operationLimit;
        this.admissionReserve = b.admissionReserve;
        this.offloadThreads = b.offloadThreads;
        this.offloadQueue = b.offloadQueue;
        this.offloadThreadKind = b.offloadThreadKind;
        this.admissionThresholds = AdmissionThresholds.of(operationLimit, admissionReserve, quotas.length);
    }

    /** A builder with every value at its default. */
    public static Builder builder() {
        return new Builder();
    }

    /** The default policy: 8 priorities, default quotas, no CPU limit, one thread per core. */
    public static BackplanePolicy defaults() {
        return builder().build();
    }

    /**
     * The default quota of {@code priority}: unlimited for 0, 100 for 1, then half the previous
     * one, never below 12 (100, 50, 25, 12, 12, ...) — scheduling rule 2.
     */
    public static int defaultQuota(int priority) {
        if (priority < 0) {
            throw new IllegalArgumentException("priority " + priority + " is invalid; allowed: 0 or more");
        }
        if (priority == 0) {
            return UNLIMITED_QUOTA;
        }
        int quota = 100;
        for (int p = 1; p < priority && quota > 12; p++) {
            quota = Math.max(12, quota / 2);
        }
        return quota;
    }

    /** The number of priorities P; priorities are 0..P-1, 0 the most urgent. */
    public int priorities() {
        return quotas.length;
    }

    /** The quota of {@code priority}: actions per (virtual) period; {@link #UNLIMITED_QUOTA} for none. */
    public int quota(int priority) {
        checkPriority(priority);
        return quotas[priority];
    }

    /** All quotas, indexed by priority (a copy). */
    public int[] quotas() {
        return quotas.clone();
    }

    /** The CPU limit. */
    public CpuLimit cpuLimit() {
        return cpuLimit;
    }

    /** The integration period: quotas are replenished and CPU use is reset at each real tick. */
    public Duration integrationPeriod() {
        return integrationPeriod;
    }

    /**
     * Into how many slices the CPU budget of a period is released: with {@code n} slices, during
     * slice k (1..n) of the period at most k/n of the period's budget may have been used, so a
     * backplane that spends its budget early pauses for at most one slice rather than for the rest
     * of the period. 1 releases the whole budget at the start of the period (the seed's behaviour).
     * The total per period is a hard cap either way.
     */
    public int cpuBudgetSlices() {
        return cpuBudgetSlices;
    }

    /** The number of worker threads. */
    public int threads() {
        return threads;
    }

    /** Actions running longer than this raise a slow-action warning. */
    public Duration slowActionThreshold() {
        return slowActionThreshold;
    }

    /** How many actions a worker may run on one object per turn (scheduling rule 7). */
    public int actionsPerTurn() {
        return actionsPerTurn;
    }

    /** The most requests the backplane accepts but has not finished, over all components. */
    public int operationLimit() {
        return operationLimit;
    }

    /**
     * The admission reserve (scheduling rule 11): the share of an outstanding-operation limit that the
     * least urgent priority leaves free for more urgent ones, in [0, 1). Priority p of P may fill a
     * limit L only up to {@code L − ceil(L × reserve × p / (P − 1))} outstanding requests (at least
     * 1), so priority 0 may use the whole limit and a flood of less urgent work never takes the
     * last slots. 0 turns the reserve off. It applies to the backplane's total limit, and to every
     * component's limit unless the component sets its own ({@link
     * ComponentSpec#withAdmissionReserve}). Default {@value #DEFAULT_ADMISSION_RESERVE}.
     */
    public double admissionReserve() {
        return admissionReserve;
    }

    /**
     * How many requests at {@code priority} the backplane's total limit admits: {@link
     * #operationLimit()} minus the {@linkplain #admissionReserve() reserve} kept for more urgent
     * priorities.
     */
    public int admissionThreshold(int priority) {
        return admissionThresholds.of(checkPriority(priority));
    }

    /**
     * Checks an admission reserve: a fraction in [0, 1).
     *
     * @throws IllegalArgumentException naming {@code what} and the allowed range
     */
    public static double checkAdmissionReserve(String what, double reserve) {
        if (!(reserve >= 0 && reserve < 1)) { // also rejects NaN
            throw new IllegalArgumentException(what + " = " + reserve + " is invalid; allowed: 0 (no reserve) up to but"
                    + " excluding 1, a fraction of the limit such as 0.1");
        }
        return reserve;
    }

    /** The most blocking calls {@link ActionContext#offload} runs at once; more wait in the offload queue. */
    public int offloadThreads() {
        return offloadThreads;
    }

    /** The most offloaded calls that wait for an offload thread; beyond it {@code offload} is rejected. */
    public int offloadQueue() {
        return offloadQueue;
    }

    /** The kind of thread offloaded calls run on. */
    public OffloadThreads offloadThreadKind() {
        return offloadThreadKind;
    }

    /** A builder holding this policy's values. */
    public Builder toBuilder() {
        Builder b = new Builder()
                .priorities(quotas.length)
                .cpuLimit(cpuLimit)
                .integrationPeriod(integrationPeriod)
                .cpuBudgetSlices(cpuBudgetSlices)
                .threads(threads)
                .slowActionThreshold(slowActionThreshold)
                .actionsPerTurn(actionsPerTurn)
                .operationLimit(operationLimit)
                .admissionReserve(admissionReserve)
                .offloadThreads(offloadThreads)
                .offloadQueue(offloadQueue)
                .offloadThreadKind(offloadThreadKind);
        for (int p = 0; p < quotas.length; p++) {
            b.quota(p, quotas[p]);
        }
        return b;
    }

    /**
     * Checks that {@code priority} is one of this policy's priorities.
     *
     * @throws IllegalArgumentException naming the priority and the allowed range
     */
    public int checkPriority(int priority) {
        if (priority < 0 || priority >= quotas.length) {
            throw new IllegalArgumentException(
                    "priority " + priority + " is invalid; allowed: 0.." + (quotas.length - 1) + " (0 is the most urgent)");
        }
        return priority;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof BackplanePolicy p
                && Arrays.equals(quotas, p.quotas)
                && cpuLimit.equals(p.cpuLimit)
                && integrationPeriod.equals(p.integrationPeriod)
                && cpuBudgetSlices == p.cpuBudgetSlices
                && threads == p.threads
                && slowActionThreshold.equals(p.slowActionThreshold)
                && actionsPerTurn == p.actionsPerTurn
                && operationLimit == p.operationLimit
                && Double.compare(admissionReserve, p.admissionReserve) == 0
                && offloadThreads == p.offloadThreads
                && offloadQueue == p.offloadQueue
                && offloadThreadKind == p.offloadThreadKind;
    }

    @Override
    public int hashCode() {
        return Objects.hash(Arrays.hashCode(quotas), cpuLimit, integrationPeriod, cpuBudgetSlices, threads,
                slowActionThreshold, actionsPerTurn, operationLimit, admissionReserve, offloadThreads, offloadQueue,
                offloadThreadKind);
    }

    @Override
    public String toString() {
        return "BackplanePolicy{priorities=" + quotas.length + ", quotas=" + quotasText() + ", cpuLimit=" + cpuLimit
                + ", integrationPeriod=" + integrationPeriod + ", cpuBudgetSlices=" + cpuBudgetSlices + ", threads="
                + threads + ", slowActionThreshold=" + slowActionThreshold + ", actionsPerTurn=" + actionsPerTurn
                + ", operationLimit=" + operationLimit + ", admissionReserve=" + admissionReserve + ", offloadThreads="
                + offloadThreads + ", offloadQueue=" + offloadQueue + ", offloadThreadKind=" + offloadThreadKind + "}";
    }

    private String quotasText() {
        StringBuilder sb = new StringBuilder("[");
        for (int p = 0; p < quotas.length; p++) {
            sb.append(p == 0 ? "" : ", ").append(quotas[p] == UNLIMITED_QUOTA ? "unlimited" : String.valueOf(quotas[p]));
        }
        return sb.append(']').toString();
    }

    /** Builds a {@link BackplanePolicy}; every setter checks its argument at once. */
    public static final class Builder {

        private int priorities = DEFAULT_PRIORITIES;
        private final int[] explicitQuotas = new int[MAX_PRIORITIES]; // 0 = use the default
        private CpuLimit cpuLimit = CpuLimit.UNLIMITED;
        private Duration integrationPeriod = DEFAULT_PERIOD;
        private int cpuBudgetSlices = DEFAULT_CPU_BUDGET_SLICES;
        private int threads = Math.max(1, Runtime.getRuntime().availableProcessors());
        private Duration slowActionThreshold = DEFAULT_SLOW_ACTION_THRESHOLD;
        private int actionsPerTurn = 1;
        private int operationLimit = DEFAULT_OPERATION_LIMIT;
        private double admissionReserve = DEFAULT_ADMISSION_RESERVE;
        private int offloadThreads = DEFAULT_OFFLOAD_THREADS;
        private int offloadQueue = DEFAULT_OFFLOAD_QUEUE;
        private OffloadThreads offloadThreadKind = OffloadThreads.AUTO;

        private Builder() {}

        /** Number of priorities, 1..{@value BackplanePolicy#MAX_PRIORITIES} (default 8). */
        public Builder priorities(int priorities) {
            this.priorities = inRange("priorities", priorities, 1, MAX_PRIORITIES);
            return this;
        }

        /**
         * Quota of one priority: actions per (virtual) period, 1..{@value Integer#MAX_VALUE}, where
         * {@link BackplanePolicy#UNLIMITED_QUOTA} means no limit.
         */
        public Builder quota(int priority, int quota) {
            inRange("quota priority", priority, 0, MAX_PRIORITIES - 1);
            explicitQuotas[priority] = inRange("quota[" + priority + "]", quota, 1, UNLIMITED_QUOTA);
            return this;
        }

        /** Quotas of priorities 0, 1, ... in order; the rest keep their defaults. */
        public Builder quotas(int... quotas) {
            Objects.requireNonNull(quotas, "quotas must not be null");
            for (int p = 0; p < quotas.length; p++) {
                quota(p, quotas[p]);
            }
            return this;
        }

        /** The CPU limit (default unlimited). */
        public Builder cpuLimit(CpuLimit cpuLimit) {
            this.cpuLimit = Objects.requireNonNull(cpuLimit, "cpuLimit must not be null");
            return this;
        }

        /** The CPU limit in cores, in (0, 4096]. */
        public Builder cpuLimit(double cores) {
            return cpuLimit(CpuLimit.ofCores(cores));
        }

        /** The integration period, 1 ms..1 h (default 1 s). */
        public Builder integrationPeriod(Duration period) {
            Objects.requireNonNull(period, "integrationPeriod must not be null");
            if (period.compareTo(MIN_PERIOD) < 0 || period.compareTo(MAX_PERIOD) > 0) {
                throw new IllegalArgumentException(
                        "integration-period " + period + " is invalid; allowed: " + MIN_PERIOD + ".." + MAX_PERIOD);
            }
            this.integrationPeriod = period;
            return this;
        }

        /** CPU-budget slices per period, 1..{@value BackplanePolicy#MAX_CPU_BUDGET_SLICES} (default 10). */
        public Builder cpuBudgetSlices(int slices) {
            this.cpuBudgetSlices = inRange("cpu-budget-slices", slices, 1, MAX_CPU_BUDGET_SLICES);
            return this;
        }

        /** Worker threads, 1..{@value BackplanePolicy#MAX_THREADS} (default: available processors). */
        public Builder threads(int threads) {
            this.threads = inRange("threads", threads, 1, MAX_THREADS);
            return this;
        }

        /** The slow-action threshold, positive (default 100 ms). */
        public Builder slowActionThreshold(Duration threshold) {
            Objects.requireNonNull(threshold, "slowActionThreshold must not be null");
            if (threshold.isZero() || threshold.isNegative()) {
                throw new IllegalArgumentException(
                        "slow-action-threshold " + threshold + " is invalid; allowed: a positive duration");
            }
            this.slowActionThreshold = threshold;
            return this;
        }

        /** Actions a worker may run on one object per turn, 1..1000 (default 1). */
        public Builder actionsPerTurn(int actionsPerTurn) {
            this.actionsPerTurn = inRange("actions-per-turn", actionsPerTurn, 1, MAX_ACTIONS_PER_TURN);
            return this;
        }

        /** The backplane's total outstanding-request limit, 1..{@value Integer#MAX_VALUE} (default 1,000,000). */
        public Builder operationLimit(int limit) {
            this.operationLimit = inRange("operation-limit", limit, 1, Integer.MAX_VALUE);
            return this;
        }

        /**
         * The {@linkplain BackplanePolicy#admissionReserve() admission reserve}, a fraction in [0, 1)
         * (default {@value BackplanePolicy#DEFAULT_ADMISSION_RESERVE}; 0 turns it off).
         */
        public Builder admissionReserve(double reserve) {
            this.admissionReserve = checkAdmissionReserve("admission-reserve", reserve);
            return this;
        }

        /**
         * The most blocking calls {@link ActionContext#offload} runs at once, 1..{@value
         * BackplanePolicy#MAX_OFFLOAD_THREADS} (default {@value BackplanePolicy#DEFAULT_OFFLOAD_THREADS}).
         */
        public Builder offloadThreads(int threads) {
            this.offloadThreads = inRange("offload-threads", threads, 1, MAX_OFFLOAD_THREADS);
            return this;
        }

        /**
         * The most offloaded calls waiting for a thread, 0..{@value Integer#MAX_VALUE} (default {@value
         * BackplanePolicy#DEFAULT_OFFLOAD_QUEUE}); an offload beyond it is rejected.
         */
        public Builder offloadQueue(int queue) {
            this.offloadQueue = inRange("offload-queue", queue, 0, Integer.MAX_VALUE);
            return this;
        }

        /**
         * The kind of thread offloaded calls run on (default {@link OffloadThreads#AUTO}).
         *
         * @throws IllegalArgumentException for {@link OffloadThreads#VIRTUAL} on a JDK without virtual threads
         */
        public Builder offloadThreadKind(OffloadThreads kind) {
            Objects.requireNonNull(kind, "offloadThreadKind must not be null");
            if (kind == OffloadThreads.VIRTUAL && !OffloadExecutor.virtualThreadsAvailable()) {
                throw new IllegalArgumentException("offload-thread-kind = VIRTUAL is invalid: this JDK ("
                        + Runtime.version().feature() + ") has no virtual threads (JDK 21+); allowed: AUTO, PLATFORM");
            }
            this.offloadThreadKind = kind;
            return this;
        }

        /**
         * Builds the policy.
         *
         * @throws IllegalArgumentException if a quota was set for a priority the policy does not have
         */
        public BackplanePolicy build() {
            int[] quotas = new int[priorities];
            for (int p = 0; p < MAX_PRIORITIES; p++) {
                if (p < priorities) {
                    quotas[p] = explicitQuotas[p] != 0 ? explicitQuotas[p] : defaultQuota(p);
                } else if (explicitQuotas[p] != 0) {
                    throw new IllegalArgumentException("quota[" + p + "] is set but priorities = " + priorities
                            + "; allowed quota priorities: 0.." + (priorities - 1));
                }
            }
            return new BackplanePolicy(this, quotas);
        }

        private static int inRange(String name, int value, int min, int max) {
            if (value < min || value > max) {
                throw new IllegalArgumentException(name + " = " + value + " is invalid; allowed: " + min + ".." + max);
            }
            return value;
        }
    }
}
