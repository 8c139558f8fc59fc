package io.appbackplane.internal;

import io.appbackplane.BackplaneClock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Releases a component's keyed objects once they have stayed idle for its idle-object retention
 * (DESIGN rule 16; {@link io.appbackplane.ComponentSpec#withIdleObjectRetention}). An object that
 * goes IDLE and unpinned is listed here by whoever made it so (a worker, an unpin, a
 * cancellation). A sweep, one retention period after the first listing and then every period
 * while objects are listed, visits each listed object under its monitor ({@link
 * WorkObject#sweepIdle}): found idle, it is marked; found still idle and marked by the sweep
 * before, it is RELEASED and removed from the table; found in use (or pinned), it is unlisted, and
 * listed again when it next goes idle. So an object is released after between one and two
 * retention periods of idleness, and a key whose requests come more often than that keeps its
 * object: no new object, no table insert and removal per request.
 *
 * <p>Why a list and not a walk over the table: a sweep costs in proportion to the objects that
 * went idle, not to every object (100,000 objects waiting for replies are never visited).
 *
 * <p>Runs on the backplane's timer thread (or the thread advancing a {@link
 * io.appbackplane.ManualClock}), at most {@value #OBJECTS_PER_TASK} objects per timer task, so that a
 * sweep of a million objects does not hold up ticks and reply timeouts.
 *
 * <p>Invariants: an object's LISTED flag ({@link ObjectStateWord}, set and cleared under its
 * monitor) is set iff the object is in {@code listed}, {@code visiting} or {@code kept}, or is the
 * one being visited; while any object is listed, a sweep is scheduled or running ({@code armed}:
 * set by whoever schedules one, cleared by a sweep that leaves nothing listed, which then looks
 * again). {@code visiting}, {@code visited} and {@code kept} are confined to the sweep: its timer
 * tasks run one after another and each schedules the next.
 */
final class IdleObjectSweep {

    /** Objects visited per timer task; the rest of a sweep follows in another task at once. */
    static final int OBJECTS_PER_TASK = 4096;

    /** What a sweep's visit did with an object. */
    enum Visit {
        /** Idle and marked since the last sweep: now RELEASED; the sweep removes it from the table. */
        RELEASED,
        /** Idle, now marked: visited again by the next sweep. */
        KEPT,
        /** In use, pinned or gone: no longer listed. */
        UNLISTED
    }

    /** A node of the lock-free stack of newly listed objects (taken whole by a sweep). */
    private static final class Listed {
        final WorkObject object;
        Listed next;

        Listed(WorkObject object) {
            this.object = object;
        }
    }

    private final KeyedObjects table;
    private final TimerService timers;
    private final BackplaneClock clock;
    private final long retentionNanos;
    private final AtomicReference<Listed> listed = new AtomicReference<>();
    private final AtomicBoolean armed = new AtomicBoolean();
    /** The objects this sweep visits: those kept by the last sweep, then those listed since. */
    private List<WorkObject> visiting;
    private int visited;
    /** The objects this sweep found idle and marked, for the next sweep. */
    private List<WorkObject> kept = new ArrayList<>();

    IdleObjectSweep(KeyedObjects table, TimerService timers, BackplaneClock clock, long retentionNanos) {
        this.table = table;
        this.timers = timers;
        this.clock = clock;
        this.retentionNanos = retentionNanos;
    }

    /** Lists {@code object}, which its caller has just flagged LISTED under its monitor. */
    void list(WorkObject object) {
        Listed node = new Listed(object);
        Listed head;
        do {
            head = listed.get();
            node.next = head;
        } while (!listed.compareAndSet(head, node));
        arm();
    }

    /** Schedules a sweep one retention period from now, unless one is scheduled or running. */
    private void arm() {
        if (!armed.get() && armed.compareAndSet(false, true)) {
            timers.schedule(clock.nanoTime() + retentionNanos, this::startSweep);
        }
    }

    private void startSweep() {
        List<WorkObject> toVisit = kept;
        kept = new ArrayList<>(); // not cleared and reused: a burst's capacity is not kept forever
        for (Listed node = listed.getAndSet(null); node != null; node = node.next) {
            toVisit.add(node.object);
        }
        visiting = toVisit;
        visited = 0;
        continueSweep();
    }

    private void continueSweep() {
        int end = Math.min(visiting.size(), visited + OBJECTS_PER_TASK);
        for (; visited < end; visited++) {
            visit(visiting.get(visited));
        }
        if (visited < visiting.size()) {
            timers.schedule(clock.nanoTime(), this::continueSweep); // after the other timers due now
            return;
        }
        visiting = null;
        if (!kept.isEmpty()) {
            timers.schedule(clock.nanoTime() + retentionNanos, this::startSweep); // armed stays set
            return;
        }
        armed.set(false);
        if (listed.get() != null) {
            arm(); // listed after this sweep took the list, by a caller that saw it armed
        }
    }

    private void visit(WorkObject object) {
        switch (object.sweepIdle()) {
            case RELEASED -> table.forgetReleased(object);
            case KEPT -> kept.add(object);
            case UNLISTED -> {
                // listed again when it next goes idle
            }
        }
    }
}
