package io.appbackplane.spring.autoconfigure;

import io.appbackplane.BackplanePolicy;
import io.appbackplane.CpuLimit;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Turns {@code backplane.configs} and {@code backplane.instances} into core {@link
 * BackplanePolicy policies}: the instance's values over its template's over the core defaults.
 * Each value goes through the core's own validation; a failure is re-raised as an {@link
 * InvalidBackplanePropertyException} naming the full property that supplied the value.
 */
final class PolicyFactory {

    static final String DEFAULT = "default";

    private final BackplaneProperties properties;
    private final io.appbackplane.OffloadThreads offloadThreadKind; // when no property sets it; null: the core's default

    PolicyFactory(BackplaneProperties properties) {
        this(properties, null);
    }

    PolicyFactory(BackplaneProperties properties, io.appbackplane.OffloadThreads offloadThreadKind) {
        this.properties = properties;
        this.offloadThreadKind = offloadThreadKind;
    }

    /** The names of the configured backplanes, "default" always included. */
    List<String> backplaneNames() {
        LinkedHashSet<String> names = new LinkedHashSet<>();
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
        Values values = new Values(name, instance, template, base);
        BackplanePolicy.Builder builder = BackplanePolicy.builder();
        values.apply("priorities", BackplaneProperties.Policy::getPriorities, builder::priorities); // quotas are checked against them
        values.apply("threads", BackplaneProperties.Policy::getThreads, builder::threads);
        values.apply("cpu-limit", BackplaneProperties.Policy::getCpuLimit, text -> builder.cpuLimit(CpuLimit.parse(text)));
        values.apply("integration-period", BackplaneProperties.Policy::getIntegrationPeriod, builder::integrationPeriod);
        values.apply("cpu-budget-slices", BackplaneProperties.Policy::getCpuBudgetSlices, builder::cpuBudgetSlices);
        values.apply("slow-action-threshold", BackplaneProperties.Policy::getSlowActionThreshold, builder::slowActionThreshold);
        values.apply("actions-per-turn", BackplaneProperties.Policy::getActionsPerTurn, builder::actionsPerTurn);
        values.apply("operation-limit", BackplaneProperties.Policy::getOperationLimit, builder::operationLimit);
        values.apply("admission-reserve", BackplaneProperties.Policy::getAdmissionReserve, builder::admissionReserve);
        values.apply("offload-threads", BackplaneProperties.Policy::getOffloadThreads, builder::offloadThreads);
        values.apply("offload-queue", BackplaneProperties.Policy::getOffloadQueue, builder::offloadQueue);
        values.apply("offload-thread-kind", BackplaneProperties.Policy::getOffloadThreadKind, builder::offloadThreadKind);
        if (offloadThreadKind != null && values.pick(BackplaneProperties.Policy::getOffloadThreadKind) == null) {
            builder.offloadThreadKind(offloadThreadKind);
        }
        List<String> quotas = values.pick(BackplaneProperties.Policy::getQuotas);
        if (quotas != null) {
            String property = values.property("quotas", BackplaneProperties.Policy::getQuotas);
            for (int p = 0; p < quotas.size(); p++) {
                int priority = p;
                set(property + "[" + p + "]", quotas.get(p), text -> builder.quota(priority, parseQuota(text)));
            }
        }
        try {
            return builder.build();
        } catch (IllegalArgumentException e) { // a quota for a priority the policy does not have
            throw new InvalidBackplanePropertyException(values.property("quotas", BackplaneProperties.Policy::getQuotas),
                    quotas, allowedPart(e.getMessage()), e);
        }
    }

    /** Where one backplane's values come from: its instance properties, else its template's. */
    private record Values(String name, BackplaneProperties.Instance instance, String template, BackplaneProperties.Policy base) {

        /** Sets a value on the builder if the instance or the template has one. */
        <T> void apply(String key, Function<BackplaneProperties.Policy, T> getter, Consumer<T> setter) {
            T value = pick(getter);
            if (value != null) {
                set(property(key, getter), value, setter);
            }
        }

        <T> T pick(Function<BackplaneProperties.Policy, T> getter) {
            T own = instance == null ? null : getter.apply(instance);
            return own != null ? own : base == null ? null : getter.apply(base);
        }

        /** The full name of the property that supplies the value: the instance's own, or its template's. */
        String property(String key, Function<BackplaneProperties.Policy, ?> getter) {
            boolean fromInstance = instance != null && getter.apply(instance) != null;
            return fromInstance ? "backplane.instances." + name + "." + key : "backplane.configs." + template + "." + key;
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
