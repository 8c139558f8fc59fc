package io.appbackplane.spring.autoconfigure;

import io.appbackplane.BackplaneRejectedException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.ApplicationEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.context.PayloadApplicationEvent;

/**
 * Delivers Spring application events to {@code @EventEndpoint} methods as actions, in the
 * publisher's thread (scheduling rule 10). Rejections (the component is not in an accepting state, or
 * at its limit) are counted by the endpoint and logged at debug level.
 */
final class EventEndpointRouter implements ApplicationListener<ApplicationEvent> {

    private static final Logger LOG = LoggerFactory.getLogger(EventEndpointRouter.class);

    private final AppComponentPostProcessor components;

    EventEndpointRouter(AppComponentPostProcessor components) {
        this.components = components;
    }

    @Override
    public void onApplicationEvent(ApplicationEvent event) {
        Object payload = event instanceof PayloadApplicationEvent<?> p ? p.getPayload() : event;
        for (ComponentInstaller.Installed component : components.installed()) {
            for (ComponentInstaller.EventBinding binding : component.events()) {
                if (binding.type().isInstance(payload)) {
                    try {
                        binding.endpoint().endpoint().send(EndpointCall.of(new Object[] {payload}));
                    } catch (BackplaneRejectedException e) {
                        LOG.debug("Event {} not delivered to {}: {}", payload.getClass().getSimpleName(),
                                binding.endpoint().endpoint(), e.getMessage());
                    }
                }
            }
        }
    }
}
