package io.appbackplane.internal;

/**
 * A cache line (64 bytes) of padding ahead of the fields of a subclass whose instances belong to
 * one worker and are written by it on every action or turn ({@link RunContext}, {@link CpuMeter},
 * a worker's {@link WorkerPool.Parker} with its busy flag). Such
 * objects of different workers are created one after the other and may end up side by side
 * wherever the garbage collector copies them; without padding, two workers' per-action writes
 * could then land on one cache line and every action would pay for moving it between cores. A
 * subclass's fields are laid out after its superclass's, and the int fills the gap after the
 * object header that a subclass field could otherwise take.
 *
 * <p>Measured (W1 tiny, 1 producer, 2 workers, 10 forks × 10 one-second iterations, twice): without
 * the padding 33 and 40 of 100 iterations ran in the fast mode (about 3.3 M tasks/s; the slow one
 * is about 1.2 M), and the mode changed only at garbage collections; with it, 87 and 60.
 */
@SuppressWarnings("unused")
abstract class WorkerLocalPadding {
    private int p0;
    private long p1, p2, p3, p4, p5, p6, p7, p8;
}
