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
 * retention periods of idleness (plus the time a sweep takes, as the next is scheduled one retention
 * after the last one ends), and a key whose requests come more often than that keeps its object:
 * no new object, no table insert and removal per request.
 *
 * <p>Why a list and not a walk over the table: a sweep costs in proportion to the objects that
 * went idle, not to every object (100,000 objects waiting for replies are never visited).
 *
 * <p>Runs on the backplane's timer thread (or the thread advancing a {@link
 * io.appbackplane.ManualClock}), at most {@value #OBJECTS_PER_TASK} objects per timer task, so that a
 * sweep of a million objects does not hold up ticks and reply timeouts.
 *
 * <p>Invariants: an object that is IDLE and unpinned (and not abandoned by shutdown) has its LISTED flag ({@link
 * ObjectStateWord}, set and cleared under its monitor) and is in {@code listed}, {@code kept} or
 * the part of {@code keptBefore} and {@code nextListed} not yet visited — or is about to be pushed
 * by whoever just flagged it. While anything is listed, a sweep is scheduled or running ({@code
 * armed}: set by whoever schedules one, cleared by a sweep that leaves nothing listed, which then
 * looks again). The sweep's fields but {@code listed} and {@code armed} are confined to it: its
 * timer tasks run one after another and each schedules the next. Once the backplane has stopped,
 * its timers no longer fire: objects listed then stay in the table with it.
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
    /** The objects the sweep before found idle and marked: visited first by this sweep. */
    private List<WorkObject> keptBefore = List.of();
    /** The index in {@code keptBefore} of the next object to visit. */
    private int nextKept;
    /** The rest of the objects listed since the sweep before, taken whole when this sweep started. */
    private Listed nextListed;
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
        keptBefore = kept;
        nextKept = 0;
        kept = new ArrayList<>(); // not cleared and reused: a burst's capacity is not kept forever
        nextListed = listed.getAndSet(null);
        continueSweep();
    }

    /**
     * Visits up to {@value #OBJECTS_PER_TASK} objects, then schedules the rest of the sweep, or
     * the next sweep. Should a visit fail (say, out of memory), the sweep goes on one retention
     * later from the object it failed on, so no listed object is dropped and the sweep never stops.
     */
    private void continueSweep() {
        try {
            int budget = OBJECTS_PER_TASK;
            for (; budget > 0 && nextKept < keptBefore.size(); budget--) {
                visit(keptBefore.get(nextKept));
                nextKept++;
            }
            for (; budget > 0 && nextListed != null; budget--) {
                visit(nextListed.object);
                nextListed = nextListed.next;
            }
        } catch (RuntimeException | Error e) {
            timers.schedule(clock.nanoTime() + retentionNanos, this::continueSweep); // armed stays set
            throw e; // the timer service logs it
        }
        if (nextKept < keptBefore.size() || nextListed != null) {
            timers.schedule(clock.nanoTime(), this::continueSweep); // after the other timers due now
            return;
        }
        keptBefore = List.of();
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
