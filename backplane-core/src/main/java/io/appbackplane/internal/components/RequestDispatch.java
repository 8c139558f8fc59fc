package io.appbackplane.internal.components;

import io.appbackplane.Action;
import io.appbackplane.ActionTracer;
import io.appbackplane.ObjectHandle;
import io.appbackplane.internal.base.ActionCounters;
import io.appbackplane.internal.objects.ActionNode;
import io.appbackplane.internal.objects.KeyedObjects;
import io.appbackplane.internal.objects.ObservedActions;
import io.appbackplane.internal.objects.PooledObjects;
import io.appbackplane.internal.objects.PooledWorkObject;
import io.appbackplane.internal.objects.ReadyEntry;
import io.appbackplane.internal.objects.Refusal;
import io.appbackplane.internal.objects.Request;
import io.appbackplane.internal.objects.WorkObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * The dispatch of one component's requests in the caller's thread (scheduling rule 10): make the
 * request, count it, admit it, queue its first action on its object and make the object READY.
 *
 * <p>Thread-safe: any thread may dispatch. A dispatch takes no lock of its own (only its object's
 * monitor, in {@link WorkObject#enqueue}) and reaches its collaborators through final fields; it
 * allocates its request, its action node, its future if it has one, and an object for a new key.
 */
final class RequestDispatch {

    private final DefaultComponent component;
    private final ComponentHost backplane;
    /** The backplane's counters, taken once: a request reaches them in one field read, not via the backplane. */
    private final RequestCounting backplaneCounters;
    private final ActionCounters counters;
    private final ComponentAdmission admission;
    private final KeyedObjects keyedObjects;
    /** The backplane's action tracer, or null: one check per request when none. */
    private final ActionTracer tracer;

    RequestDispatch(DefaultComponent component, ComponentHost backplane, ActionCounters counters, ComponentAdmission admission,
            KeyedObjects keyedObjects) {
        this.component = component;
        this.backplane = backplane;
        this.backplaneCounters = backplane.requestCounting();
        this.counters = counters;
        this.admission = admission;
        this.keyedObjects = keyedObjects;
        this.tracer = backplane.tracer();
    }

    /**
     * A request of this component, not yet admitted.
     *
     * @param timer the timer it is a firing of, or null
     * @param endpoint the counters of the endpoint it came through, or null
     * @param system whether it is exempt from operation limits and accepted while draining (a state transition)
     */
    Request request(Object key, int priority, CompletableFuture<Object> future, ScheduledTimer timer,
            ActionCounters endpoint, boolean system) {
        Objects.requireNonNull(key, "object key must not be null");
        // Checked here, before the request exists: a Request holds only a valid priority (in 16 bits).
        int checked = backplane.policy().checkPriority(priority);
        return new Request(component, key, checked, future, timer, endpoint, system);
    }

    /**
     * Admits a request and queues its first action, in the caller's thread (rule 10).
     *
     * <p>Whatever throws between admission and the object accepting the action (the key's {@code
     * hashCode} or {@code equals}, the clock, an allocation) un-counts the request and counts it as
     * failed ({@link Request#failUnqueued}), and the failure is thrown to the caller: nothing stays
     * counted that will never finish.
     *
     * @param pinned the object of an {@link ObjectHandle} or pool, or null to look the key up
     */
    void dispatch(WorkObject pinned, Request request, Action<?> action) {
        ActionNode node = admit(request, action);
        WorkObject object;
        WorkObject.Enqueued offered;
        try {
            while (true) {
                object = pinned != null ? pinned : keyedObjects.objectFor(request.key);
                if (object instanceof PooledWorkObject member) {
                    // A pool member's key (ctx.objectKey() in a pool's action) names its pool: the
                    // request joins the pool as any other, so the pool's places stay exact.
                    handToPool(member.pool(), node);
                    return;
                }
                offered = object.enqueue(node);
                if (offered != Refusal.RELEASED) {
                    break;
                }
                keyedObjects.forgetReleased(object); // released concurrently: help remove it, then look again
                pinned = null; // a handle released while we dispatched: the key's current object serves
            }
        } catch (RuntimeException | Error e) {
            failedUnqueued(node, e);
            throw e;
        }
        queued(object, node, offered);
    }

    /**
     * Admits a request to {@code pool} and hands its first action to the pool, in the caller's
     * thread (rule 10): the pool queues it on a member ({@link #queueOnMember}) or backlogs it.
     */
    void dispatchToPool(PooledObjects pool, Request request, Action<?> action) {
        handToPool(pool, admit(request, action));
    }

    /** Hands an admitted request's node to {@code pool}; fails what the backlog holds if shutdown's sweep has passed. */
    private void handToPool(PooledObjects pool, ActionNode node) {
        pool.accept(node);
        if (backplane.isStopped()) {
            // Admitted before shutdown, backlogged after its sweep (which may have missed it): fail
            // what the backlog holds, as the sweep would have.
            failLeftBehind(pool::abandonBacklog);
        }
    }

    /**
     * Queues {@code node} on the pool member claimed for it; a member released meanwhile (its pool
     * released) gives way to a fresh object for its key, as a released handle's object does.
     */
    void queueOnMember(PooledWorkObject member, ActionNode node) {
        WorkObject.Enqueued offered;
        try {
            offered = member.enqueue(node);
        } catch (RuntimeException | Error e) { // no user code here: a VM error, say; the request is failed, not lost
            member.pool().giveBack(member);
            node.request.fail(e);
            throw e;
        }
        if (offered instanceof Refusal) {
            member.pool().giveBack(member); // it will not run the request: its claim goes back
        }
        if (offered != Refusal.RELEASED) {
            queued(member, node, offered);
            return;
        }
        // Its pool was released and it went idle: a fresh object for its key runs the request (as
        // for a released handle's object), then goes as any idle object.
        keyedObjects.forgetReleased(member);
        WorkObject object;
        while ((offered = (object = keyedObjects.objectFor(member.key)).enqueue(node)) == Refusal.RELEASED) {
            keyedObjects.forgetReleased(object);
        }
        queued(object, node, offered);
    }

    /**
     * Counts and admits {@code request} and makes its first action's node. Whatever throws after
     * admission un-counts the request and is thrown to the caller ({@link #failedUnqueued}).
     */
    private ActionNode admit(Request request, Action<?> action) {
        Objects.requireNonNull(action, "action must not be null");
        int priority = request.priority(); // checked when the request was made
        counters.submitted.increment();
        backplaneCounters.priority(priority).submitted.increment();
        ActionCounters endpoint = request.endpoint();
        if (endpoint != null) {
            endpoint.submitted.increment();
        }
        admission.admit(request);
        try {
            long enqueuedAt = backplane.clock().nanoTime();
            return ActionNode.create(action, request, enqueuedAt, tracer == null ? null : ObservedActions.queued(tracer, component, priority));
        } catch (RuntimeException | Error e) {
            request.failUnqueued();
            throw e;
        }
    }

    /** Un-counts the request of a node no object accepted (its caller gets {@code e}) and ends its trace. */
    private void failedUnqueued(ActionNode node, Throwable e) {
        node.request.failUnqueued();
        if (node.trace() != null) {
            ObservedActions.dropped(tracer, List.of(node), () -> e);
        }
    }

    /** After {@code object} took (or refused) {@code node}: fail it if abandoned, push the object if it became READY. */
    private void queued(WorkObject object, ActionNode node, WorkObject.Enqueued offered) {
        if (offered == Refusal.ABANDONED) {
            node.request.abandon();
            if (node.trace() != null) {
                ObservedActions.dropped(tracer, List.of(node), component::shutDownBeforeItRan);
            }
        } else if (offered instanceof ReadyEntry entry) {
            backplane.scheduler().push(entry);
        }
        if (backplane.isStopped()) {
            // Admitted before shutdown, queued after its sweep (which may have missed this object):
            // fail what the object holds, as the sweep would have, so no request stays pending.
            failLeftBehind(object::abandon);
        }
    }

    /**
     * Fails, as shutdown, the requests {@code sweep} removes (it is given the list for their actions,
     * whose traces then end as dropped, or null without a tracer).
     */
    private void failLeftBehind(Function<List<ActionNode>, List<Request>> sweep) {
        List<ActionNode> dropped = tracer != null ? new ArrayList<>() : null;
        for (Request left : sweep.apply(dropped)) {
            left.abandon();
        }
        if (dropped != null) {
            ObservedActions.dropped(tracer, dropped, component::shutDownBeforeItRan);
        }
    }
}
