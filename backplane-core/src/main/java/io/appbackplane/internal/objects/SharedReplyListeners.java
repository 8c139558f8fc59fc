package io.appbackplane.internal.objects;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.BiConsumer;

/**
 * Keeps the listeners that waits leave on a long-lived reply stage bounded.
 *
 * <p>A {@link CompletableFuture} cannot remove a dependent, so every wait that registers its own
 * {@link PendingReply} on a stage and ends without the stage completing (a timeout) leaves a dead
 * completion on it, until the stage completes; waits repeated with timeouts on one stage that
 * never completes would grow it without bound. So once a wait on a stage has timed out while the
 * stage was still pending, the stage gets one shared listener, and later waits on it join that
 * listener's list instead of registering on the stage. A stage then holds at most the records of
 * the waits that registered before its first timeout, plus the shared listener.
 *
 * <p>The map is keyed weakly by the stage and nothing in a value reaches the stage, so a stage the
 * user drops is not kept by it. The map is consulted only once some stage has a shared listener
 * ({@link #any}): a backplane whose waits never time out on pending stages pays one volatile read
 * per wait.
 *
 * <p>A stage is used only through {@link CompletionStage} methods ({@code whenComplete}), whatever
 * its class: the JDK's own minimal stages ({@code completedStage}, {@code failedStage}, {@code
 * minimalCompletionStage}) are {@code CompletableFuture} subclasses whose other methods, {@code
 * isDone} among them, throw. So whether a stage has completed is never asked:
 * a stage that completed has a shared listener that no longer takes waits ({@link Listener#add}
 * says so), and a stage that completed before its timeout's listener was registered runs that
 * listener at once, which removes it again. Only {@code CompletableFuture}s (minimal stages
 * included) are shared: they are map keys by identity, which a foreign stage's {@code equals} may
 * not be.
 */
public final class SharedReplyListeners {

    /** Guarded by itself (a synchronized map; compound actions synchronize on it). */
    private final Map<CompletableFuture<?>, Listener> byStage = Collections.synchronizedMap(new WeakHashMap<>());
    /** Whether any stage ever got a shared listener; until then {@link #listen} skips the map. */
    private volatile boolean any;

    /** Starts delivering {@code stage}'s outcome to {@code reply}: through the stage's shared listener if it has one. */
    void listen(PendingReply reply, CompletionStage<?> stage) {
        if (any && stage instanceof CompletableFuture<?> future) {
            Listener shared = byStage.get(future);
            if (shared != null && shared.add(reply)) { // false once the stage completed
                return;
            }
        }
        stage.whenComplete(reply);
    }

    /**
     * A wait on {@code stage} timed out: later waits on it share one listener (the timed-out record
     * stays on the stage, cleared, until the stage completes). Called on the timer thread; what it
     * registers runs only this class's code, on whichever thread completes the stage (on this one
     * if the stage has completed already: then the listener removes itself at once).
     */
    void timedOut(CompletionStage<?> stage) {
        if (!(stage instanceof CompletableFuture<?> future)) {
            return; // a foreign stage keeps one completion per wait: its equals may not be identity
        }
        Listener shared;
        synchronized (byStage) {
            if (byStage.containsKey(future)) {
                return;
            }
            shared = new Listener();
            byStage.put(future, shared);
            any = true;
        }
        future.whenComplete((value, failure) -> {
            byStage.remove(future); // the lambda reaches the stage; the map's value (shared) does not
            shared.accept(value, failure);
        });
    }

    /**
     * The shared listener of one stage: the records of the waits that joined it. Ended records
     * (timed out, abandoned) hold nothing (see {@link PendingReply}) and are dropped from the list
     * whenever it has doubled since the last purge, so it stays within twice the live waits (plus
     * {@value #FIRST_PURGE}), at amortized constant cost per wait.
     */
    static final class Listener implements BiConsumer<Object, Throwable> {

        private static final int FIRST_PURGE = 16;

        /** Guarded by this; null once the stage completed. */
        private List<PendingReply> waiting = new ArrayList<>();
        private int purgeAt = FIRST_PURGE;

        /** Adds {@code reply} to the waits; false if the stage has completed (then the caller listens on the stage itself). */
        synchronized boolean add(PendingReply reply) {
            if (waiting == null) {
                return false;
            }
            waiting.add(reply);
            if (waiting.size() >= purgeAt) {
                waiting.removeIf(PendingReply::hasEnded);
                purgeAt = Math.max(FIRST_PURGE, 2 * waiting.size());
            }
            return true;
        }

        /** The stage completed: delivers its outcome to every wait that joined (ended ones ignore it). */
        @Override
        public void accept(Object value, Throwable failure) {
            List<PendingReply> joined;
            synchronized (this) {
                joined = waiting;
                waiting = null;
            }
            RuntimeException first = null;
            for (PendingReply reply : joined) {
                try {
                    reply.accept(value, failure);
                } catch (RuntimeException e) { // one failed delivery must not stop the others'
                    if (first == null) {
                        first = e;
                    } else {
                        first.addSuppressed(e);
                    }
                }
            }
            if (first != null) {
                throw first;
            }
        }
    }
}
