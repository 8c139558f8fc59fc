package io.appbackplane.kafka;

import io.appbackplane.Backplane;
import io.appbackplane.ComponentState;
import io.appbackplane.spring.autoconfigure.BackplaneRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.ApplicationListener;
import org.springframework.integration.leader.event.AbstractLeaderEvent;
import org.springframework.integration.leader.event.OnGrantedEvent;
import org.springframework.integration.leader.event.OnRevokedEvent;

/**
 * Lets the node's role follow an existing leader election: Spring Integration's {@link
 * OnGrantedEvent} moves every backplane's components to PRIMARY, {@link OnRevokedEvent} to
 * SECONDARY. With {@code @ScheduledEndpoint}s and endpoints accepting only PRIMARY (the default),
 * that makes cluster-wide singletons without a lock of our own: the election engine (for example
 * {@code LockRegistryLeaderInitiator} over a {@code JdbcLockRegistry}) decides who leads.
 */
public final class LeaderElectionRoles implements ApplicationListener<AbstractLeaderEvent> {

    private static final Logger LOG = LoggerFactory.getLogger(LeaderElectionRoles.class);

    private final BackplaneRegistry registry;

    public LeaderElectionRoles(BackplaneRegistry registry) {
        this.registry = registry;
    }

    @Override
    public void onApplicationEvent(AbstractLeaderEvent event) {
        ComponentState target;
        if (event instanceof OnGrantedEvent) {
            target = ComponentState.PRIMARY;
        } else if (event instanceof OnRevokedEvent) {
            target = ComponentState.SECONDARY;
        } else {
            return;
        }
        LOG.info("Leadership of role '{}' {}: moving components to {}", event.getRole(),
                target == ComponentState.PRIMARY ? "granted" : "revoked", target);
        for (Backplane backplane : registry.all().values()) {
            if (backplane.isShutdown() || backplane.state() == ComponentState.DOWN) {
                continue; // the node is going down: leadership is revoked as part of it, nothing to move
            }
            try {
                backplane.moveTo(target).whenComplete((ignored, failure) -> {
                    if (failure != null) {
                        LOG.warn("Backplane '{}' did not move to {}: {}", backplane.name(), target, failure.toString());
                    }
                });
            } catch (RuntimeException e) { // raced with the shutdown: components already DOWN
                LOG.debug("Backplane '{}' cannot move to {}: {}", backplane.name(), target, e.toString());
            }
        }
    }
}
