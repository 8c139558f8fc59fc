package io.appbackplane.internal;

/**
 * What {@link WorkObject#afterAction} decided when the object is not READY again (then it hands
 * back the object's new {@link ReadyEntry} instead, which the worker must push; see {@link
 * WorkObject.TurnEnd}).
 */
enum AfterAction implements WorkObject.TurnEnd {
    /** The object stays RUNNING: its worker runs its next action, in the same turn. */
    CONTINUE,
    /** The object is WAITING for a reply; the reply's delivery makes it READY. */
    WAIT,
    /** The object is IDLE: no work. */
    NO_WORK,
    /** The object is IDLE, unpinned and now RELEASED: the worker removes it from its component. */
    RELEASE
}
