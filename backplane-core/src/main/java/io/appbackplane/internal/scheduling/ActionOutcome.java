package io.appbackplane.internal.scheduling;

import io.appbackplane.internal.base.SafeText;
import io.appbackplane.internal.objects.ActionNode;
import io.appbackplane.internal.objects.PendingReply;
import io.appbackplane.internal.objects.Request;
import io.appbackplane.internal.objects.WorkObject;
import java.util.concurrent.CompletionStage;

/**
 * What an action that ran leaves behind (rules 8, 14, 15), handed to its request and object: a
 * failure fails the request; a reply it awaits makes the object WAITING and starts listening on the
 * reply's stage; a continuation it yielded to goes to the object's front; otherwise its result
 * completes the request. The request's future completes after the turn ({@link
 * Scheduler#completeFutures}), never here. Called by the thread that ran the action, which still
 * holds the object.
 */
final class ActionOutcome {

    private ActionOutcome() {
    }

    /**
     * Settles the action that {@code context} just ran on {@code object} for {@code request}, which
     * returned {@code result} or threw {@code failure}, and ended at {@code end}.
     */
    static void settle(RunContext context, WorkObject object, Request request, Object result, Throwable failure, long end) {
        PendingReply reply = context.takeReply();
        ActionNode continuation = context.takeContinuation();
        CompletionStage<?> replyStage = context.takeReplyStage(); // a parked worker keeps no user stage reachable
        if (failure == null && result != null && (reply != null || continuation != null)) {
            failure = new IllegalStateException("an action that calls awaitReply or yieldTo must return that call's value"
                    + " (null), but the action on object '" + SafeText.of(object.key) + "' returned " + SafeText.of(result));
        }
        if (failure != null) {
            request.fail(failure, context.completions); // an awaited reply or continuation of a failed action is dropped
        } else if (reply != null) {
            if (object.startWaiting(reply)) {
                context.listen(reply, replyStage, end);
            } else {
                request.abandon(context.completions);
            }
        } else if (continuation != null) {
            if (!object.pushFront(continuation)) {
                request.abandon(context.completions);
            }
        } else {
            request.complete(result, context.completions); // completed after the turn: completeFutures
        }
        if (failure != null || reply != null) {
            context.userCodeRan(); // an unobserved-failure listener's, or the reply's listener's
        }
    }
}
