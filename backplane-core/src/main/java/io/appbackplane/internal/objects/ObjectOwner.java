package io.appbackplane.internal.objects;

import io.appbackplane.Action;
import io.appbackplane.BackplaneComponent;
import java.util.concurrent.CompletableFuture;

/**
 * The component as its work objects, its keyed table, its pools and handles and its pending
 * replies see it: where the objects are counted while READY or WAITING, what happens to one that
 * went idle, where a reply is delivered, and submission to a pinned object. Implemented by the
 * component. Any thread may call every method; only {@link #ready()} (and the ready structure's
 * methods), {@link #waitingChanged} and {@link #keepsIdleObjects} are called under an object's
 * monitor, and they take no lock.
 */
public interface ObjectOwner extends BackplaneComponent {

    /** The backplane's ready structure, which this component's objects join when READY. Never changes. */
    ReadyMembership ready();

    /** An object of this component entered ({@code +1}) or left ({@code -1}) WAITING. */
    void waitingChanged(int delta);

    /** Whether an object going idle now is kept for the idle-object retention, not released at once (rule 16). */
    boolean keepsIdleObjects();

    /**
     * Acts on an object's {@link AfterAction} after it left RUNNING, or after an unpin or a
     * cancellation: removes it from the table if RELEASE, lists it for the idle sweep if LIST_IDLE.
     */
    void settled(WorkObject object, AfterAction after);

    /**
     * Delivers a reply (or its timeout) to the object that waits for it, if it still does, and
     * pushes the object if that made it READY; called by whichever thread completed the reply
     * stage, or by the timeout's timer.
     */
    void deliverReply(PendingReply reply, WorkObject object, Object value, Throwable failure);

    /** Submits to a pinned object (a handle's): no key lookup. */
    <T> CompletableFuture<T> submitTo(WorkObject object, int priority, Action<T> action);

    /** Submits to a pool: admitted here, then handed to a member or backlogged ({@link PooledObjects#accept}). */
    <T> CompletableFuture<T> submitToPool(PooledObjects pool, int priority, Action<T> action);

    /** Executes on a pool: as {@link #submitToPool}, without a future. */
    void executeOnPool(PooledObjects pool, int priority, Action<?> action);

    /**
     * Queues an admitted request's action on a pool member the pool claimed for it, and pushes the
     * member if that made it READY; called by the submitter or, for a backlogged request, by the
     * thread whose member left its place. A failure there (no user code runs: a VM error) fails
     * the request and gives the claim back before it is thrown on.
     */
    void queueOnMember(PooledWorkObject member, ActionNode node);

    /** The backplane's number of priorities. Never changes. */
    int priorities();

    /** The backplane's worker threads now (the policy's, which may change at run time). */
    int workerThreads();
}
