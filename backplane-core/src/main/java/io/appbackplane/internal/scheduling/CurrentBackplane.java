package io.appbackplane.internal.scheduling;

import io.appbackplane.Backplane;

/**
 * Which backplane's actions the current thread runs: set by a worker for its whole life and by the
 * step driver for one step, so that a backplane can tell its own actions (whose follow-up work it
 * admits while draining) from work that comes from outside.
 */
public final class CurrentBackplane {

    private static final ThreadLocal<Backplane> CURRENT = new ThreadLocal<>();

    private CurrentBackplane() {
    }

    /** Whether the current thread runs {@code backplane}'s actions. */
    public static boolean is(Backplane backplane) {
        return CURRENT.get() == backplane;
    }

    /** The backplane whose actions the current thread runs, or null. */
    static Backplane get() {
        return CURRENT.get();
    }

    /** From now on the current thread runs {@code backplane}'s actions (null: none). */
    static void set(Backplane backplane) {
        if (backplane == null) {
            CURRENT.remove();
        } else {
            CURRENT.set(backplane);
        }
    }
}
