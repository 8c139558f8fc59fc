package io.appbackplane.internal.components;

import io.appbackplane.BackplaneComponent;
import io.appbackplane.BackplaneRejectedException;
import io.appbackplane.PublishResult;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Publish/subscribe inside one backplane (docs/scheduling.md, modules and states): a published event becomes one action per
 * subscriber whose event type matches, queued through the subscriber's endpoint in the
 * publisher's thread — so each subscriber sees one publisher's events in publication order, on its
 * own object and at its own priority.
 */
public final class Topics {

    private final ConcurrentHashMap<String, CopyOnWriteArrayList<Subscription<?>>> subscribers = new ConcurrentHashMap<>();

    <E> BackplaneComponent.Subscription subscribe(String topic, Class<E> type, DefaultEndpoint<? super E, ?> endpoint) {
        Subscription<E> subscription = new Subscription<>(topic, type, endpoint);
        subscribers.computeIfAbsent(topic, t -> new CopyOnWriteArrayList<>()).add(subscription);
        return subscription;
    }

    public PublishResult publish(String topic, Object event) {
        List<Subscription<?>> list = subscribers.getOrDefault(topic, new CopyOnWriteArrayList<>());
        int delivered = 0;
        List<BackplaneRejectedException> rejections = new ArrayList<>();
        List<RuntimeException> failures = new ArrayList<>();
        for (Subscription<?> subscription : list) {
            try {
                if (subscription.deliver(event)) {
                    delivered++;
                }
            } catch (BackplaneRejectedException e) {
                rejections.add(e);
            } catch (RuntimeException e) { // a subscriber's key function (or hook) threw: the others still get the event
                failures.add(e);
            }
        }
        return new PublishResult(topic, delivered, rejections, failures);
    }

    int subscriberCount(String topic) {
        return subscribers.getOrDefault(topic, new CopyOnWriteArrayList<>()).size();
    }

    private final class Subscription<E> implements BackplaneComponent.Subscription {
        private final String topic;
        private final Class<E> type;
        private final DefaultEndpoint<? super E, ?> endpoint;

        Subscription(String topic, Class<E> type, DefaultEndpoint<? super E, ?> endpoint) {
            this.topic = topic;
            this.type = type;
            this.endpoint = endpoint;
        }

        /** Queues the event to the endpoint if its type matches; returns whether it did. */
        boolean deliver(Object event) {
            if (!type.isInstance(event)) {
                return false;
            }
            endpoint.send(type.cast(event));
            return true;
        }

        @Override
        public String topic() {
            return topic;
        }

        @Override
        public void cancel() {
            CopyOnWriteArrayList<Subscription<?>> list = subscribers.get(topic);
            if (list != null) {
                list.remove(this);
            }
        }

        @Override
        public String toString() {
            return "Subscription{" + topic + " → " + endpoint + "}";
        }
    }
}
