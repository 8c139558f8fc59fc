package io.appbackplane.spring.autoconfigure;

import io.appbackplane.BackplanePolicy;
import io.appbackplane.CpuLimit;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * Turns {@code backplane.configs} and {@code backplane.instances} into core {@link
 * BackplanePolicy policies}: the instance's values over its template's over the core defaults.
 * Each value goes through the core's own validation; a failure is re-raised as an {@link
 * InvalidBackplanePropertyException} naming the full property.
 */
final class PolicyFactory {

    static final String DEFAULT = "default";

    private final BackplaneProperties properties;

    PolicyFactory(BackplaneProperties properties) {
        this.properties = properties;
    }

    /** The names of the configured backplanes, "default" always included. */
    List<String> backplaneNames() {
        java.util.LinkedHashSet<String> names = new java.util.LinkedHashSet<>();
        names.add(DEFAULT);
        names.addAll(properties.getInstances().keySet());
        return List.copyOf(names);
    }

    /** The policy of backplane {@code name}. */
    BackplanePolicy policyOf(String name) {
        BackplaneProperties.Instance instance = properties.getInstances().get(name);
        String template = instance != null && instance.getBaseConfig() != null ? instance.getBaseConfig() : DEFAULT;
        BackplaneProperties.Policy base = properties.getConfigs().get(template);
        if (base == null && !template.equals(DEFAULT)) {
            throw new UnknownBackplaneException("template", template, "backplane.instances." + name + ".base-config",
                    properties.getConfigs().keySet());
        }
        BackplanePolicy.Builder builder = BackplanePolicy.builder();
        // priorities first: quotas are checked against them
        Integer priorities = pick(instance, base, BackplaneProperties.Policy::getPriorities);
        if (priorities != null) {
            set(prefix(name, instance, template, "priorities", instance != null && instance.getPriorities() != null),
                    priorities, builder::priorities);
        }
        apply(builder, name, instance, template, base);
        try {
            return builder.build();
        } catch (IllegalArgumentException e) {
            // the quotas may come from the template: name the property that actually set them
            throw new InvalidBackplanePropertyException(
                    prefix(name, instance, template, "quotas", instance != null && instance.getQuotas() != null),
                    pick(instance, base, BackplaneProperties.Policy::getQuotas), e.getMessage(), e);
        }
    }

    private void apply(BackplanePolicy.Builder builder, String name, BackplaneProperties.Instance instance,
            String template, BackplaneProperties.Policy base) {
        Integer threads = pick(instance, base, BackplaneProperties.Policy::getThreads);
        if (threads != null) {
            set(prefix(name, instance, template, "threads", instance != null && instance.getThreads() != null), threads, builder::threads);
        }
        String cpu = pick(instance, base, BackplaneProperties.Policy::getCpuLimit);
        if (cpu != null) {
            set(prefix(name, instance, template, "cpu-limit", instance != null && instance.getCpuLimit() != null), cpu,
                    value -> builder.cpuLimit(CpuLimit.parse(value)));
        }
        var period = pick(instance, base, BackplaneProperties.Policy::getIntegrationPeriod);
        if (period != null) {
            set(prefix(name, instance, template, "integration-period", instance != null && instance.getIntegrationPeriod() != null),
                    period, builder::integrationPeriod);
        }
        Integer slices = pick(instance, base, BackplaneProperties.Policy::getCpuBudgetSlices);
        if (slices != null) {
            set(prefix(name, instance, template, "cpu-budget-slices", instance != null && instance.getCpuBudgetSlices() != null),
                    slices, builder::cpuBudgetSlices);
        }
        var slow = pick(instance, base, BackplaneProperties.Policy::getSlowActionThreshold);
        if (slow != null) {
            set(prefix(name, instance, template, "slow-action-threshold", instance != null && instance.getSlowActionThreshold() != null),
                    slow, builder::slowActionThreshold);
        }
        Integer perTurn = pick(instance, base, BackplaneProperties.Policy::getActionsPerTurn);
        if (perTurn != null) {
            set(prefix(name, instance, template, "actions-per-turn", instance != null && instance.getActionsPerTurn() != null),
                    perTurn, builder::actionsPerTurn);
        }
        Integer limit = pick(instance, base, BackplaneProperties.Policy::getOperationLimit);
        if (limit != null) {
            set(prefix(name, instance, template, "operation-limit", instance != null && instance.getOperationLimit() != null),
                    limit, builder::operationLimit);
        }
        List<String> quotas = pick(instance, base, BackplaneProperties.Policy::getQuotas);
        if (quotas != null) {
            String property = prefix(name, instance, template, "quotas", instance != null && instance.getQuotas() != null);
            for (int p = 0; p < quotas.size(); p++) {
                int priority = p;
                set(property + "[" + p + "]", quotas.get(p), value -> builder.quota(priority, parseQuota(value)));
            }
        }
    }

    private static int parseQuota(String value) {
        String v = value == null ? "" : value.trim().toLowerCase(Locale.ROOT);
        if (v.equals("unlimited")) {
            return BackplanePolicy.UNLIMITED_QUOTA;
        }
        try {
            return Integer.parseInt(v);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("quota '" + value + "' is not a number; allowed: 1.." + Integer.MAX_VALUE
                    + " or 'unlimited'", e);
        }
    }

    /** The full name of the property that supplied a value: the instance's own, or its template's. */
    private static String prefix(String name, BackplaneProperties.Instance instance, String template, String key,
            boolean fromInstance) {
        return fromInstance ? "backplane.instances." + name + "." + key : "backplane.configs." + template + "." + key;
    }

    private static <T> T pick(BackplaneProperties.Policy instance, BackplaneProperties.Policy base,
            java.util.function.Function<BackplaneProperties.Policy, T> getter) {
        T own = instance == null ? null : getter.apply(instance);
        return own != null ? own : base == null ? null : getter.apply(base);
    }

    private static <T> void set(String property, T value, Consumer<T> setter) {
        try {
            setter.accept(value);
        } catch (IllegalArgumentException e) {
            throw new InvalidBackplanePropertyException(property, value, allowedPart(e.getMessage()), e);
        }
    }

    /** The core's messages end with "allowed: ..."; keep that part. */
    private static String allowedPart(String message) {
        int i = message == null ? -1 : message.indexOf("allowed:");
        return i < 0 ? String.valueOf(message) : message.substring(i);
    }
}
