package io.appbackplane.spring.actuate;

import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.health.actuate.endpoint.AdditionalHealthEndpointPath;
import org.springframework.boot.health.actuate.endpoint.HealthEndpointGroup;
import org.springframework.boot.health.actuate.endpoint.HealthEndpointGroups;
import org.springframework.boot.health.actuate.endpoint.HealthEndpointGroupsPostProcessor;
import org.springframework.boot.health.actuate.endpoint.HttpCodeStatusMapper;
import org.springframework.boot.health.actuate.endpoint.StatusAggregator;

/**
 * Makes the {@code backplane} health indicator a member of the {@code readiness} health group: a
 * stalled backplane (or one whose components are not in their target state) takes the instance
 * out of the load balancer; it does not fail the {@code liveness} group, so Kubernetes does not
 * restart a JVM whose backplane is only slow. Acts on a {@code readiness} group that exists
 * (configured, or Boot's availability probes, which then keep it); creates none. Turned off with
 * {@code backplane.health.readiness=false}.
 */
final class BackplaneReadinessGroup implements HealthEndpointGroupsPostProcessor {

    static final String READINESS = "readiness";
    static final String INDICATOR = "backplane";
    private static final String READINESS_STATE = "readinessState";

    private final boolean probesEnabled;

    /** @param probesEnabled whether Boot's availability probes add a {@code readiness} group */
    BackplaneReadinessGroup(boolean probesEnabled) {
        this.probesEnabled = probesEnabled;
    }

    @Override
    public HealthEndpointGroups postProcessHealthEndpointGroups(HealthEndpointGroups groups) {
        HealthEndpointGroup readiness = groups.get(READINESS);
        if (readiness == null && !probesEnabled) {
            return groups;
        }
        if (readiness != null && readiness.isMember(INDICATOR)) {
            return groups;
        }
        // Boot's probes post-processor may run before or after this one; it keeps a readiness group
        // it finds, so the one made here (with the probes' default member) serves in both orders.
        HealthEndpointGroup base = readiness != null ? readiness : groups.getPrimary();
        HealthEndpointGroup withBackplane = readiness != null
                ? new WithMember(base, readiness::isMember)
                : new WithMember(base, READINESS_STATE::equals, null);
        Map<String, HealthEndpointGroup> all = new LinkedHashMap<>();
        for (String name : groups.getNames()) {
            all.put(name, groups.get(name));
        }
        all.put(READINESS, withBackplane);
        return HealthEndpointGroups.of(groups.getPrimary(), all);
    }

    /** A group with the members of {@code members} plus the backplane indicator. */
    private static final class WithMember implements HealthEndpointGroup {
        private final HealthEndpointGroup base;
        private final java.util.function.Predicate<String> members;
        private final AdditionalHealthEndpointPath additionalPath;

        WithMember(HealthEndpointGroup base, java.util.function.Predicate<String> members) {
            this(base, members, base.getAdditionalPath());
        }

        WithMember(HealthEndpointGroup base, java.util.function.Predicate<String> members, AdditionalHealthEndpointPath path) {
            this.base = base;
            this.members = members;
            this.additionalPath = path;
        }

        @Override
        public boolean isMember(String name) {
            return INDICATOR.equals(name) || members.test(name);
        }

        @Override
        public boolean showComponents(SecurityContext securityContext) {
            return base.showComponents(securityContext);
        }

        @Override
        public boolean showDetails(SecurityContext securityContext) {
            return base.showDetails(securityContext);
        }

        @Override
        public StatusAggregator getStatusAggregator() {
            return base.getStatusAggregator();
        }

        @Override
        public HttpCodeStatusMapper getHttpCodeStatusMapper() {
            return base.getHttpCodeStatusMapper();
        }

        @Override
        public AdditionalHealthEndpointPath getAdditionalPath() {
            return additionalPath;
        }
    }
}
