package io.appbackplane.internal.objects;

/**
 * Why {@link WorkObject#enqueue} did not queue an action (see {@link WorkObject.Enqueued}). Both
 * are final: a RELEASED object stays released and an abandoned one abandoned.
 */
public enum Refusal implements WorkObject.Enqueued {
    /** The object was released: the submitter removes it from the map and looks the key up again. */
    RELEASED,
    /** Shutdown abandoned the object: the submitter fails the request. */
    ABANDONED
}
