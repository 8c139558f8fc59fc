package io.appbackplane;

import java.util.concurrent.CompletableFuture;

/**
 * A pinned reference to one object of a component: while the handle is held the object is not
 * released when idle (see {@link ComponentSpec#withIdleObjectRetention}). Submitting through a released handle fails with {@link
 * ObjectReleasedException}. Thread-safe.
 */
public interface ObjectHandle extends AutoCloseable {

    /** The object's key. */
    Object key();

    /** The component that owns the object. */
    BackplaneComponent component();

    /** Queues {@code action} to this object at {@code priority}; see {@link BackplaneComponent#submit}. */
    <T> CompletableFuture<T> submit(int priority, Action<T> action);

    /** Unpins the object; it is released once idle, for the idle-object retention, and no other handle pins it. Idempotent. */
    void release();

    /** Whether {@link #release()} was called. */
    boolean isReleased();

    /** Same as {@link #release()}. */
    @Override
    default void close() {
        release();
    }
}
