package io.appbackplane.internal.objects;

/**
 * What {@link WorkObject#afterAction} decided when the object is not READY again (then it hands
 * back the object's new {@link ReadyEntry} instead, which the worker must push; see {@link
 * WorkObject.TurnEnd}); also what {@link WorkObject#settleIfIdle} decided after an unpin or a
 * cancellation. The caller acts on RELEASE and LIST_IDLE: {@link DefaultComponent#settled}.
 */
public enum AfterAction implements WorkObject.TurnEnd {
    /** The object stays RUNNING: its worker runs its next action, in the same turn. */
    CONTINUE,
    /** The object is WAITING for a reply; the reply's delivery makes it READY. */
    WAIT,
    /** The object is IDLE (pinned, or listed for the idle sweep already), or not idle at all after a settle. */
    NO_WORK,
    /** The object is IDLE, unpinned and now RELEASED (a retention of zero): the caller removes it from its component. */
    RELEASE,
    /** The object is IDLE, unpinned and now flagged LISTED: the caller lists it for its component's {@link IdleObjectSweep}. */
    LIST_IDLE
}
