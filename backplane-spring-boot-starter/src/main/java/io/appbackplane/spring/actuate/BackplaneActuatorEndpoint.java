package io.appbackplane.spring.actuate;

import io.appbackplane.Backplane;
import io.appbackplane.ComponentState;
import io.appbackplane.CpuLimit;
import io.appbackplane.spring.autoconfigure.BackplaneRegistry;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.springframework.boot.actuate.endpoint.Access;
import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;
import org.jspecify.annotations.Nullable;

/**
 * The {@code backplane} Actuator endpoint: {@code GET /actuator/backplane} lists every backplane,
 * {@code /actuator/backplane/{name}} one of them. The write operation (threads, a quota, the CPU
 * limit, the role) is read-only by default — a POST answers 405 — until the user grants access
 * ({@code management.endpoint.backplane.access=unrestricted}); its inputs are validated (400, and
 * nothing changes, on a bad one). Modules add sections to each backplane's entry through {@link
 * BackplaneEndpointContributor} beans.
 */
@Endpoint(id = "backplane", defaultAccess = Access.READ_ONLY)
public class BackplaneActuatorEndpoint {

    private final BackplaneRegistry registry;
    private final List<BackplaneEndpointContributor> contributors;

    public BackplaneActuatorEndpoint(BackplaneRegistry registry) {
        this(registry, List.of());
    }

    /** @param contributors add their sections under each backplane's {@code extensions} */
    public BackplaneActuatorEndpoint(BackplaneRegistry registry, List<BackplaneEndpointContributor> contributors) {
        this.registry = registry;
        this.contributors = List.copyOf(contributors);
    }

    /** Every backplane, by name. */
    @ReadOperation
    public Map<String, BackplaneDescriptor> backplanes() {
        Map<String, BackplaneDescriptor> all = new LinkedHashMap<>();
        registry.all().forEach((name, backplane) -> all.put(name, describe(backplane)));
        return all;
    }

    /** One backplane, or 404 when there is none of that name. */
    @ReadOperation
    public BackplaneDescriptor backplane(@Selector String name) {
        Backplane backplane = registry.all().get(name);
        return backplane == null ? null : describe(backplane);
    }

    /**
     * Changes one backplane at run time: worker threads, the quota of one priority, the CPU limit,
     * and/or the components' role. All inputs are checked before anything changes.
     */
    @WriteOperation
    public BackplaneDescriptor update(@Selector String name, @Nullable Integer threads, @Nullable Integer priority,
            @Nullable String quota, @Nullable String cpuLimit, @Nullable String role) {
        Backplane backplane = registry.all().get(name);
        if (backplane == null) { // returning null would answer 204 No Content, as if the write had succeeded
            String message = "no backplane named '" + name + "'; known: " + registry.all().keySet();
            throw new InvalidEndpointRequestException(message, message);
        }
        if ((priority == null) != (quota == null)) {
            throw new InvalidEndpointRequestException("priority and quota must be given together",
                    "priority and quota must be given together");
        }
        if (threads != null) {
            check(threads >= 1 && threads <= 4096, "threads = " + threads + " is invalid; allowed: 1..4096");
        }
        Integer quotaValue = null;
        if (priority != null) {
            int priorities = backplane.policy().priorities();
            check(priority >= 0 && priority < priorities, "priority " + priority + " is invalid; allowed: 0.." + (priorities - 1));
            quotaValue = parseQuota(quota);
        }
        CpuLimit limit = null;
        if (cpuLimit != null) {
            try {
                limit = CpuLimit.parse(cpuLimit);
            } catch (IllegalArgumentException e) {
                throw new InvalidEndpointRequestException(e.getMessage(), e.getMessage());
            }
        }
        ComponentState target = null;
        if (role != null) {
            String r = role.trim().toUpperCase(Locale.ROOT);
            check(r.equals("PRIMARY") || r.equals("SECONDARY"), "role '" + role + "' is invalid; allowed: primary, secondary");
            target = ComponentState.valueOf(r);
        }
        if (target != null) {
            try { // first: its validation can still refuse the request before anything changed
                backplane.moveTo(target);
            } catch (IllegalArgumentException | IllegalStateException e) {
                throw new InvalidEndpointRequestException(e.getMessage(), "the role cannot be changed now");
            }
        }
        if (threads != null) {
            backplane.setThreads(threads);
        }
        if (quotaValue != null) {
            backplane.setQuota(priority, quotaValue);
        }
        if (limit != null) {
            backplane.setCpuLimit(limit);
        }
        return describe(backplane);
    }

    private static int parseQuota(String quota) {
        if (quota.trim().equalsIgnoreCase("unlimited")) {
            return io.appbackplane.BackplanePolicy.UNLIMITED_QUOTA;
        }
        try {
            int value = Integer.parseInt(quota.trim());
            check(value >= 1, "quota " + value + " is invalid; allowed: 1.." + Integer.MAX_VALUE + " or 'unlimited'");
            return value;
        } catch (NumberFormatException e) {
            throw new InvalidEndpointRequestException("quota '" + quota + "' is invalid; allowed: a positive number or 'unlimited'",
                    "quota is not a number");
        }
    }

    private static void check(boolean condition, String message) {
        if (!condition) {
            throw new InvalidEndpointRequestException(message, message);
        }
    }

    private BackplaneDescriptor describe(Backplane backplane) {
        Map<String, Object> extensions = new LinkedHashMap<>();
        for (BackplaneEndpointContributor contributor : contributors) {
            Object section = contributor.describe(backplane);
            if (section != null) {
                extensions.put(contributor.name(), section);
            }
        }
        return BackplaneDescriptor.of(backplane.state().name(), backplane.statistics(), extensions);
    }
}
