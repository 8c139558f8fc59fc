package io.appbackplane.spring.autoconfigure;

import io.appbackplane.OffloadThreads;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * {@code backplane.*} configuration: named backplanes with shared templates, per-component
 * settings and the node's role. Unset policy values fall back to the template, then to the core's
 * defaults. Every value is checked at start-up; a bad one fails start-up naming the property and
 * what is allowed.
 */
@ConfigurationProperties("backplane")
public class BackplaneProperties {

    /**
     * Whether the backplanes run. When false no backplane is built and @AppComponent beans stay
     * plain beans: their @Endpoint methods run in the caller's thread.
     */
    private boolean enabled = true;

    /** Policy templates by name; the template "default" applies to every backplane that names none. */
    private Map<String, Policy> configs = new LinkedHashMap<>();

    /** Backplanes by name. The backplane "default" always exists, configured here or not. */
    private Map<String, Instance> instances = new LinkedHashMap<>();

    /** Per-component settings, by component name. */
    private Map<String, Component> components = new LinkedHashMap<>();

    /**
     * Spring TaskExecutor/TaskScheduler beans, by bean name, that run their tasks as actions of a
     * component at a priority (for @Async("name") and the like).
     */
    private Map<String, Executor> executors = new LinkedHashMap<>();

    /** The role this node's components are brought up to: primary or secondary. */
    private Role role = Role.PRIMARY;

    /** How long start-up waits for the components to reach their role; a positive duration. */
    private Duration startupTimeout = Duration.ofSeconds(60);

    /** Health indicator settings. */
    private final Health health = new Health();

    /** Web (HTTP 503) settings. */
    private final Web web = new Web();

    /** Micrometer settings. */
    private final Metrics metrics = new Metrics();

    private final Observations observations = new Observations();

    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    public Map<String, Policy> getConfigs() {
        return configs;
    }

    public void setConfigs(Map<String, Policy> configs) {
        this.configs = configs;
    }

    public Map<String, Instance> getInstances() {
        return instances;
    }

    public void setInstances(Map<String, Instance> instances) {
        this.instances = instances;
    }

    public Map<String, Executor> getExecutors() {
        return executors;
    }

    public void setExecutors(Map<String, Executor> executors) {
        this.executors = executors;
    }

    public Map<String, Component> getComponents() {
        return components;
    }

    public void setComponents(Map<String, Component> components) {
        this.components = components;
    }

    public Role getRole() {
        return role;
    }

    public void setRole(Role role) {
        this.role = role;
    }

    public Duration getStartupTimeout() {
        return startupTimeout;
    }

    /** Rejects a zero or negative timeout while binding, so the failure names the property. */
    public void setStartupTimeout(Duration startupTimeout) {
        if (startupTimeout == null || startupTimeout.isZero() || startupTimeout.isNegative()) {
            throw new IllegalArgumentException("backplane.startup-timeout must be positive, such as 60s; allowed: a positive"
                    + " duration");
        }
        this.startupTimeout = startupTimeout;
    }

    public Health getHealth() {
        return health;
    }

    public Web getWeb() {
        return web;
    }

    public Observations getObservations() {
        return observations;
    }

    public Metrics getMetrics() {
        return metrics;
    }

    /** The node's role. */
    public enum Role {
        /** Components are brought up to PRIMARY. */
        PRIMARY,
        /** Components are brought up to SECONDARY. */
        SECONDARY
    }

    /** A backplane policy; every value optional. */
    public static class Policy {

        /** Worker threads, 1..4096. Default: the number of available processors. */
        private Integer threads;

        /** Number of priorities P (0..P-1, 0 the most urgent), 1..64. Default: 8. */
        private Integer priorities;

        /**
         * Quotas of priorities 0, 1, ... (actions per period): positive numbers or "unlimited".
         * Unlisted priorities keep their defaults: unlimited, 100, 50, 25, 12, 12, ...
         */
        private List<String> quotas;

        /**
         * CPU limit in cores per integration period: "0.5", "2", "500m", "unlimited" or "auto"
         * (follow the process's container CPU quota, re-read every period, minus what the rest of
         * the process uses, so that the kernel does not throttle the process; it holds back
         * priorities 1 and below, never priority 0). Default: unlimited.
         */
        private String cpuLimit;

        /** Integration period: quotas are replenished and CPU use reset at each tick, 1ms..1h. Default: 1s. */
        private Duration integrationPeriod;

        /** Slices the CPU budget of a period is released in, 1..1000. Default: 10. */
        private Integer cpuBudgetSlices;

        /** Actions running longer than this are reported as slow. Default: 100ms. */
        private Duration slowActionThreshold;

        /** Actions a worker may run on one object per turn, 1..1000. Default: 1. */
        private Integer actionsPerTurn;

        /** The most requests the backplane holds accepted but unfinished, over all components. Default: 1000000. */
        private Integer operationLimit;

        /**
         * Admission reserve: the share of an operation limit that the least urgent priority leaves
         * free for more urgent ones, 0 (off) up to but excluding 1. Priority p of P may fill a limit
         * L up to L - ceil(L * reserve * p / (P - 1)), so a flood of less urgent work never gets an
         * urgent request rejected. Applies to the backplane's total and to every component's limit
         * unless the component sets its own. Default: 0.1.
         */
        private Double admissionReserve;

        /**
         * The most blocking calls (ActionContext.offload, @Endpoint(blocking = true)) the backplane
         * runs at once, 1..65536. Default: 64.
         */
        private Integer offloadThreads;

        /** The most offloaded calls waiting for a thread, 0..2147483647; beyond it an offload is rejected. Default: 1000. */
        private Integer offloadQueue;

        /**
         * The threads offloaded calls run on: auto (virtual on JDK 21+), virtual or platform. Default:
         * as spring.threads.virtual.enabled says where it is set (true: virtual on JDK 21+, false:
         * platform), else auto.
         */
        private OffloadThreads offloadThreadKind;

        public Integer getOffloadThreads() {
            return offloadThreads;
        }

        public void setOffloadThreads(Integer offloadThreads) {
            this.offloadThreads = offloadThreads;
        }

        public Integer getOffloadQueue() {
            return offloadQueue;
        }

        public void setOffloadQueue(Integer offloadQueue) {
            this.offloadQueue = offloadQueue;
        }

        public OffloadThreads getOffloadThreadKind() {
            return offloadThreadKind;
        }

        public void setOffloadThreadKind(OffloadThreads offloadThreadKind) {
            this.offloadThreadKind = offloadThreadKind;
        }

        public Integer getThreads() {
            return threads;
        }

        public void setThreads(Integer threads) {
            this.threads = threads;
        }

        public Integer getPriorities() {
            return priorities;
        }

        public void setPriorities(Integer priorities) {
            this.priorities = priorities;
        }

        public List<String> getQuotas() {
            return quotas;
        }

        public void setQuotas(List<String> quotas) {
            this.quotas = quotas;
        }

        public String getCpuLimit() {
            return cpuLimit;
        }

        public void setCpuLimit(String cpuLimit) {
            this.cpuLimit = cpuLimit;
        }

        public Duration getIntegrationPeriod() {
            return integrationPeriod;
        }

        public void setIntegrationPeriod(Duration integrationPeriod) {
            this.integrationPeriod = integrationPeriod;
        }

        public Integer getCpuBudgetSlices() {
            return cpuBudgetSlices;
        }

        public void setCpuBudgetSlices(Integer cpuBudgetSlices) {
            this.cpuBudgetSlices = cpuBudgetSlices;
        }

        public Duration getSlowActionThreshold() {
            return slowActionThreshold;
        }

        public void setSlowActionThreshold(Duration slowActionThreshold) {
            this.slowActionThreshold = slowActionThreshold;
        }

        public Integer getActionsPerTurn() {
            return actionsPerTurn;
        }

        public void setActionsPerTurn(Integer actionsPerTurn) {
            this.actionsPerTurn = actionsPerTurn;
        }

        public Integer getOperationLimit() {
            return operationLimit;
        }

        public void setOperationLimit(Integer operationLimit) {
            this.operationLimit = operationLimit;
        }

        public Double getAdmissionReserve() {
            return admissionReserve;
        }

        public void setAdmissionReserve(Double admissionReserve) {
            this.admissionReserve = admissionReserve;
        }
    }

    /** A backplane: a policy, based on a template. */
    public static class Instance extends Policy {

        /** The template (under backplane.configs) this backplane starts from. Default: "default". */
        private String baseConfig;

        public String getBaseConfig() {
            return baseConfig;
        }

        public void setBaseConfig(String baseConfig) {
            this.baseConfig = baseConfig;
        }
    }

    /** Settings of one component. */
    public static class Component {

        /** The backplane the component is installed in (overrides @AppComponent(backplane)). */
        private String backplane;

        /** The most requests the component holds accepted but unfinished. Default: 100000. */
        private Integer operationLimit;

        /**
         * The component's admission reserve: the share of its operation limit that the least urgent
         * priority leaves free for more urgent ones, 0 (off) up to but excluding 1. Default: its
         * backplane's admission-reserve.
         */
        private Double admissionReserve;

        /**
         * How long an idle keyed object (nothing queued or running, not waiting for a reply, not
         * pinned) is kept for its key's next request; it is released once idle for between one and
         * two retentions. 0 releases each object as soon as it is idle. 0, or 1ms to 1h. Default: 100ms.
         */
        private Duration idleObjectRetention;

        /**
         * A queue-wait target: the component's admission limit then adapts at every real tick so
         * that the queue wait at the most urgent priority it runs work at stays under it (at most 1 %
         * of those actions wait longer), as high as that allows; operation-limit is the highest it goes. A positive duration up to 1h, such as
         * 20ms. Default: none (the limit stays at operation-limit).
         */
        private Duration queueWaitTarget;

        public Duration getQueueWaitTarget() {
            return queueWaitTarget;
        }

        public void setQueueWaitTarget(Duration queueWaitTarget) {
            this.queueWaitTarget = queueWaitTarget;
        }

        public String getBackplane() {
            return backplane;
        }

        public void setBackplane(String backplane) {
            this.backplane = backplane;
        }

        public Integer getOperationLimit() {
            return operationLimit;
        }

        public void setOperationLimit(Integer operationLimit) {
            this.operationLimit = operationLimit;
        }

        public Double getAdmissionReserve() {
            return admissionReserve;
        }

        public void setAdmissionReserve(Double admissionReserve) {
            this.admissionReserve = admissionReserve;
        }

        public Duration getIdleObjectRetention() {
            return idleObjectRetention;
        }

        public void setIdleObjectRetention(Duration idleObjectRetention) {
            this.idleObjectRetention = idleObjectRetention;
        }
    }

    /** Health indicator settings. */
    public static class Health {

        /** A backplane with ready work that completes nothing for this long is reported DOWN. */
        private Duration stallTimeout = Duration.ofSeconds(30);

        public Duration getStallTimeout() {
            return stallTimeout;
        }

        public void setStallTimeout(Duration stallTimeout) {
            this.stallTimeout = stallTimeout;
        }
    }

    /** Web settings. */
    public static class Web {

        /** Whether a request the backplane rejected is answered with HTTP 503 (the rejection advice). */
        private boolean enabled = true;

        /**
         * The order of the rejection advice among the application's controller advice (lower goes
         * first). It handles only backplane rejections, also when wrapped in another exception.
         */
        private int order = 0;

        /** The Retry-After of a 503 answered for a rejected request. */
        private Duration retryAfter = Duration.ofSeconds(1);

        /**
         * Whether a 503's ProblemDetail names the rejection's reason, backplane and component, and
         * its message (internal names and limits). Off: it says only that the service is busy,
         * whether to retry and when.
         */
        private boolean includeDetails = false;

        public boolean isIncludeDetails() {
            return includeDetails;
        }

        public void setIncludeDetails(boolean includeDetails) {
            this.includeDetails = includeDetails;
        }

        public boolean isEnabled() {
            return enabled;
        }

        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }

        public int getOrder() {
            return order;
        }

        public void setOrder(int order) {
            this.order = order;
        }

        public Duration getRetryAfter() {
            return retryAfter;
        }

        public void setRetryAfter(Duration retryAfter) {
            this.retryAfter = retryAfter;
        }
    }

    /** One executor bean: where its tasks run. */
    public static class Executor {

        /**
         * The backplane whose component runs the tasks. Default: the component's backplane, or
         * "default" when no component is named.
         */
        private String backplane;

        /** The component whose objects run the tasks. Default: the backplane's own component. */
        private String component;

        /** The priority the tasks run at, 0 the most urgent. Default: 1 (as @Endpoint). */
        private Integer priority;

        /**
         * The object key all tasks run on, one at a time in submission order. Default: none, the
         * tasks spread over a pool of objects and run in parallel.
         */
        private String key;

        public String getBackplane() {
            return backplane;
        }

        public void setBackplane(String backplane) {
            this.backplane = backplane;
        }

        public String getComponent() {
            return component;
        }

        public void setComponent(String component) {
            this.component = component;
        }

        public Integer getPriority() {
            return priority;
        }

        public void setPriority(Integer priority) {
            this.priority = priority;
        }

        public String getKey() {
            return key;
        }

        public void setKey(String key) {
            this.key = key;
        }
    }

    /** Micrometer settings. */
    public static class Metrics {

        /** Whether backplane.* meters are registered. */
        private boolean enabled = true;

        /**
         * Whether each action's queue wait and run time are also recorded in Micrometer timers with
         * percentiles and a percentile histogram (backplane.action.queue.time, backplane.action.run.time).
         */
        private boolean histograms = false;

        /** The percentiles the histogram timers publish, each in [0, 1]. */
        private List<Double> percentiles = new ArrayList<>(List.of(0.5, 0.95, 0.99));

        public boolean isEnabled() {
            return enabled;
        }

        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }

        public boolean isHistograms() {
            return histograms;
        }

        public void setHistograms(boolean histograms) {
            this.histograms = histograms;
        }

        public List<Double> getPercentiles() {
            return percentiles;
        }

        public void setPercentiles(List<Double> percentiles) {
            this.percentiles = percentiles;
        }
    }

    /** Micrometer Observation settings. */
    public static class Observations {

        /**
         * Whether each action gets a Micrometer Observation for its queue wait (backplane.action.queue,
         * started on the submitting thread under its current observation) and one for its run
         * (backplane.action.run), so traces show both as spans. Needs an ObservationRegistry bean.
         */
        private boolean enabled = false;

        public boolean isEnabled() {
            return enabled;
        }

        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }
    }
}
