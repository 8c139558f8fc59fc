package io.appbackplane;

/**
 * One endpoint's counts and times.
 *
 * @param component the component's name
 * @param name the endpoint's name
 * @param counts its requests (rejections include those refused for the component's state) and
 *     their actions
 */
public record EndpointStatistics(String component, String name, ActionCounts counts) {}
