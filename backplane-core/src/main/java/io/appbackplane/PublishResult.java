package io.appbackplane;

import java.util.List;

/**
 * What a {@link Backplane#publish} did: one action queued per subscriber that accepted the event,
 * the rejection of each that did not (at its limit, or not in an accepting state), and the failure
 * of each whose own code threw while the event was dispatched (its key or priority function, its
 * make-room hook). One subscriber's failure never keeps the event from the others.
 *
 * @param topic the topic
 * @param delivered subscribers that queued an action for the event
 * @param rejections why some did not: rejected
 * @param failures why the rest did not: their dispatch code threw
 */
public record PublishResult(String topic, int delivered, List<BackplaneRejectedException> rejections,
        List<RuntimeException> failures) {

    public PublishResult {
        rejections = List.copyOf(rejections);
        failures = List.copyOf(failures);
    }

    /** A result without dispatch failures. */
    public PublishResult(String topic, int delivered, List<BackplaneRejectedException> rejections) {
        this(topic, delivered, rejections, List.of());
    }

    /** Whether every subscriber accepted the event. */
    public boolean allDelivered() {
        return rejections.isEmpty() && failures.isEmpty();
    }
}
