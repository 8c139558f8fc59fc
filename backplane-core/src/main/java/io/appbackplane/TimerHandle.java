package io.appbackplane;

/** A scheduled one-shot or repeating timer. Thread-safe. */
public interface TimerHandle {

    /** Stops future firings; a firing already queued still runs. Idempotent. */
    void cancel();

    /** Whether the timer was cancelled (or its backplane shut down). */
    boolean isCancelled();

    /** Firings queued as actions so far. */
    long firings();

    /** Firings skipped because the previous one was still queued (repeating timers only). */
    long skippedFirings();
}
