package io.appbackplane;

import java.util.List;

/**
 * What a {@link Backplane#publish} did: one action queued per subscriber that accepted the event,
 * and the rejection of each that did not (at its limit, or not in an accepting state).
 *
 * @param topic the topic
 * @param delivered subscribers that queued an action for the event
 * @param rejections why the others did not
 */
public record PublishResult(String topic, int delivered, List<BackplaneRejectedException> rejections) {

    public PublishResult {
        rejections = List.copyOf(rejections);
    }

    /** Whether every subscriber accepted the event. */
    public boolean allDelivered() {
        return rejections.isEmpty();
    }
}
