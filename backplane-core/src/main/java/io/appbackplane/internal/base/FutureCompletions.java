package io.appbackplane.internal.base;

import java.util.Arrays;
import java.util.concurrent.CompletableFuture;

/**
 * Submitters' futures that a turn finished, completed only once the turn's object has left
 * RUNNING. Completing a future runs its dependants ({@code thenApply},
 * {@code whenComplete}, ...) on the completing thread; done inside the turn, a caller's callback would run while the object is still held, and
 * one that blocks, or that submits to the same key and waits for it, would stall or deadlock the
 * object. The worker (or stepping thread) flushes this after the object's next state is decided and
 * acted upon, times the flush, and charges it to the CPU budget and the statistics ({@link
 * Scheduler#completeFutures}).
 *
 * <p>No allocation in the common case: a turn usually finishes one request, kept in the three
 * {@code first*} fields; more go to arrays that grow once and are reused by this thread's later
 * turns. Every slot is cleared when flushed, so a parked worker keeps no result or future reachable.
 *
 * <p>A shutdown sweep also collects the futures it fails in one, so that a sweep on the timer
 * thread can hand them whole to another thread ({@code ShutdownSequence.completeOffTimerThread}).
 *
 * <p>Confined to one thread at a time: its worker's (or the stepping thread), like its {@link
 * RunContext}; a sweep's, until it hands it over.
 */
public final class FutureCompletions {

    private CompletableFuture<Object> firstFuture;
    private Object firstValue;
    private Throwable firstFailure;
    private CompletableFuture<?>[] moreFutures;
    private Object[] moreValues;
    private Throwable[] moreFailures;
    private int more;

    /** Remembers {@code future}'s outcome, to be completed by {@link #completeAll}. */
    public void add(CompletableFuture<Object> future, Object value, Throwable failure) {
        if (firstFuture == null) {
            firstFuture = future;
            firstValue = value;
            firstFailure = failure;
            return;
        }
        if (moreFutures == null || more == moreFutures.length) {
            int capacity = moreFutures == null ? 8 : moreFutures.length * 2;
            moreFutures = moreFutures == null ? new CompletableFuture<?>[capacity] : Arrays.copyOf(moreFutures, capacity);
            moreValues = moreValues == null ? new Object[capacity] : Arrays.copyOf(moreValues, capacity);
            moreFailures = moreFailures == null ? new Throwable[capacity] : Arrays.copyOf(moreFailures, capacity);
        }
        moreFutures[more] = future;
        moreValues[more] = value;
        moreFailures[more] = failure;
        more++;
    }

    public boolean isEmpty() {
        return firstFuture == null;
    }

    /**
     * Completes every remembered future, in the order its request finished, and forgets them. A
     * dependant's failure stays in its own stage ({@link CompletableFuture} catches it); should
     * completing one throw anyway, the rest are still completed and the first such throwable is
     * rethrown at the end.
     */
    public void completeAll() {
        CompletableFuture<Object> future = firstFuture;
        if (future == null) {
            return;
        }
        Throwable escaped = complete(future, firstValue, firstFailure, null);
        firstFuture = null;
        firstValue = null;
        firstFailure = null;
        for (int i = 0; i < more; i++) {
            @SuppressWarnings("unchecked")
            CompletableFuture<Object> next = (CompletableFuture<Object>) moreFutures[i];
            escaped = complete(next, moreValues[i], moreFailures[i], escaped);
            moreFutures[i] = null;
            moreValues[i] = null;
            moreFailures[i] = null;
        }
        more = 0;
        if (escaped instanceof RuntimeException runtime) {
            throw runtime;
        }
        if (escaped instanceof Error error) {
            throw error;
        }
    }

    private static Throwable complete(CompletableFuture<Object> future, Object value, Throwable failure, Throwable escaped) {
        try {
            if (failure == null) {
                future.complete(value);
            } else {
                future.completeExceptionally(failure);
            }
            return escaped;
        } catch (RuntimeException | Error e) {
            return escaped != null ? escaped : e;
        }
    }
}
