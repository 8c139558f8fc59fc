package io.appbackplane.internal.objects;

/**
 * What {@code Scheduler.select} hands back: a taken entry, whose object the caller must run, or a
 * {@link NothingTaken}.
 */
public sealed interface Selection permits ReadyEntry, NothingTaken {}
