package io.appbackplane.internal.base;

import java.util.BitSet;

/**
 * A backplane worker's thread, with a small slot number unique among the worker threads alive in
 * this JVM (of every backplane). {@link ActionCounters} keeps one tally per slot, written only by
 * the thread that holds the slot, so that counting an action costs plain writes rather than
 * contended atomic updates.
 *
 * <p>Invariant: a slot is held by at most one live worker thread; it is taken when the thread is
 * created and given back when its {@code run} ends, or at once if the thread could not be started. Taking and giving back synchronize on one
 * lock, so everything the previous holder wrote to its tallies happens-before the next holder's
 * first write.
 */
public final class WorkerThread extends Thread {

    /** The slot of a thread that is not a worker: its counts go to the shared striped counters. */
    public static final int NO_SLOT = -1;

    private static final BitSet SLOTS = new BitSet();

    public final int slot;

    public WorkerThread(Runnable body, String name) {
        super(body, name);
        this.slot = takeSlot();
    }

    /** The calling thread's slot, or {@link #NO_SLOT}. Cheap: {@code currentThread} is an intrinsic. */
    public static int currentSlot() {
        return Thread.currentThread() instanceof WorkerThread worker ? worker.slot : NO_SLOT;
    }

    @Override
    public void run() {
        try {
            super.run();
        } finally {
            giveBack(slot);
        }
    }

    /** Gives the slot back for a thread that was never started (its {@code run}, which would, never runs). */
    public void neverStarted() {
        giveBack(slot);
    }

    /** Whether a live worker thread holds {@code slot} (the class invariant, checked by tests). */
    public static boolean isSlotTaken(int slot) {
        synchronized (SLOTS) {
            return SLOTS.get(slot);
        }
    }

    private static int takeSlot() {
        synchronized (SLOTS) {
            int slot = SLOTS.nextClearBit(0);
            SLOTS.set(slot);
            return slot;
        }
    }

    private static void giveBack(int slot) {
        synchronized (SLOTS) {
            SLOTS.clear(slot);
        }
    }
}
