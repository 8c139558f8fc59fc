package io.appbackplane.internal.components;

import io.appbackplane.internal.base.WorkerTallies;
import io.appbackplane.internal.base.WorkerThread;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;

/**
 * Outstanding requests under a limit (scheduling rule 11), counted as {@code admitted − finished} in
 * two counters, so that submitters (who admit) and workers (who finish) do not write the same
 * cache line for every request, as they would with one outstanding counter. A worker counts a
 * finish in its own tally ({@link WorkerTallies}: a plain store, no atomic update); other threads
 * (a reply's completer, a timer, the shutdown sweep) in a shared adder.
 *
 * <h2>Concurrency</h2>
 * {@code admitted} only grows (a CAS, so admission under the limit is exact); {@code finished} only
 * grows (the adder plus the workers' tallies; a reading is at least its value when the reading
 * began, see {@link WorkerTallies}). {@code finishedSeen} is some earlier reading of {@code finished}, so it never
 * exceeds it, and {@code admitted − finishedSeen ≥ outstanding}: {@link #tryAdmit} admits when that
 * conservative estimate is under the limit, and reads {@code finished} again only when it is not, so
 * the limit is never exceeded and a submitter reads the workers' counter about once per
 * {@code limit − outstanding} admissions. Reading both counters is not one atomic snapshot, so the
 * two readers order their reads for what they promise: {@link #outstanding} (statistics) reads
 * {@code admitted} first, so it never shows more than the limit; {@link #isZero} (shutdown's
 * drained check) reads {@code finished} first, so it never says 0 while a request is outstanding.
 */
public final class AdmissionCounter {

    /**
     * Where {@code admitted} lives in {@link #padded}: 7 unused longs on either side, so no other
     * object's fields share its cache line (64 bytes) and the submitters' CAS does not collide
     * with writes elsewhere.
     */
    private static final int ADMITTED = 7;

    private final AtomicLongArray padded = new AtomicLongArray(2 * ADMITTED + 1);
    /** Finishes counted by threads that are not workers. */
    private final LongAdder finishedElsewhere = new LongAdder();
    /** Finishes counted by workers, value 0 of each worker's tally. */
    private final WorkerTallies finishedByWorkers = new WorkerTallies(1);
    /** An earlier reading of {@code finished} (racy; may even go back, which only makes it more conservative). */
    private volatile long finishedSeen;

    /** Admits one request if fewer than {@code limit} are outstanding; false (nothing counted) if not. */
    public boolean tryAdmit(long limit) {
        while (true) {
            long admitted = padded.get(ADMITTED);
            if (admitted - finishedSeen >= limit) {
                long seen = finished();
                finishedSeen = seen;
                if (admitted - seen >= limit) {
                    return false;
                }
            }
            if (padded.compareAndSet(ADMITTED, admitted, admitted + 1)) {
                return true;
            }
            // CAS lost to another submitter: re-read
        }
    }

    /** Admits one request regardless of any limit (a state transition, exempt from limits). */
    public void admit() {
        padded.incrementAndGet(ADMITTED);
    }

    /** One admitted request finished, or was turned away after all (it no longer counts). */
    public void finish() {
        finish(WorkerThread.currentSlot());
    }

    /** {@link #finish()} by the holder of worker slot {@code slot} (or {@link WorkerThread#NO_SLOT}). */
    public void finish(int slot) {
        long[] tally = finishedByWorkers.of(slot);
        if (tally == null) {
            finishedElsewhere.increment();
        } else {
            WorkerTallies.add(tally, 0, 1);
        }
    }

    private long finished() {
        return finishedElsewhere.sum() + finishedByWorkers.sum(0);
    }

    /**
     * Requests admitted and not finished: exact while nothing changes; while requests come and go,
     * a value the count had during the call or less, never below 0 (see the class comment).
     */
    public int outstanding() {
        long admitted = padded.get(ADMITTED); // first: see the class comment
        return (int) Math.max(0, Math.min(Integer.MAX_VALUE, admitted - finished()));
    }

    /**
     * Whether no request is outstanding: true only if the count was 0 at a moment during the call
     * ({@code finished} is read first, and everything admitted by then is counted in {@code admitted}).
     */
    public boolean isZero() {
        long done = finished(); // first: see the class comment
        return padded.get(ADMITTED) == done;
    }
}
