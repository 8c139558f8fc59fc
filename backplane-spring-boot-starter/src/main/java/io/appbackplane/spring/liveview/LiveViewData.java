package io.appbackplane.spring.liveview;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The live view's data, as {@code GET /actuator/backplaneview/data} answers it.
 *
 * @param instance an id that changes when the application restarts (the page then starts afresh)
 * @param historySeconds how many seconds of frames are kept
 * @param backplanes every backplane, in configuration order
 */
record LiveViewData(String instance, long historySeconds, List<BackplaneView> backplanes) {

    /**
     * One backplane.
     *
     * @param name its name
     * @param state its module state ({@code null} before the first sample)
     * @param priorities its number of priorities
     * @param components its components with their state and dependencies, as last sampled
     * @param slowActions the slowest actions over the slow-action threshold within the history, slowest first
     * @param frames one per second, oldest first
     */
    record BackplaneView(String name, @Nullable String state, int priorities, List<ComponentView> components,
            List<SlowActionView> slowActions, List<LiveViewFrame> frames) {}

    /** A component: its module state, dependencies and load. */
    record ComponentView(String name, String state, List<String> dependencies, int outstanding, int operationLimit) {}

    /** A slow action: when it was reported, where it ran and how long. */
    record SlowActionView(long at, String component, String object, int priority, double runMs, double thresholdMs) {}
}
