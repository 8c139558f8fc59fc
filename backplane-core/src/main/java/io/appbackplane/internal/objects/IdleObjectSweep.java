package io.appbackplane.internal.objects;

import io.appbackplane.BackplaneClock;
import io.appbackplane.internal.base.TimerService;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Releases a component's keyed objects once they have stayed idle for its idle-object retention
 * (scheduling rule 16; {@link io.appbackplane.ComponentSpec#withIdleObjectRetention}). An object that
 * goes IDLE and unpinned is listed here by whoever made it so (a worker, an unpin, a
 * cancellation). A sweep, one retention period after the first listing and then every period
 * while objects are listed, visits each listed object under its monitor ({@link
 * WorkObject#sweepIdle}): found idle, it is marked; found still idle and marked by the sweep
 * before, it is RELEASED and removed from the table; found in use (or pinned), it is unlisted, and
 * listed again when it next goes idle. So an object is released after between one and two
 * retention periods of idleness (plus the time a sweep takes, as the next is scheduled one
 * retention after the last one ends), and a key whose requests come more often than that keeps its
 * object: no new object, no table insert and removal per request.
 *
 * <p>Why a list and not a walk over the table: a sweep costs in proportion to the objects that
 * went idle, not to every object (100,000 objects waiting for replies are never visited).
 *
 * <p>Runs on the backplane's timer thread (or the thread advancing a {@link
 * io.appbackplane.ManualClock}), at most {@value #OBJECTS_PER_TASK} objects per timer task, so that
 * a long sweep does not hold up ticks and reply timeouts.
 *
 * <p>Invariants: an object that is IDLE, unpinned, not abandoned by shutdown and was not released at
 * once for want of {@code room} has its LISTED flag ({@link ObjectStateWord}, set and cleared under
 * its monitor) and is in {@code listed}, {@code kept} or the part of {@code keptBefore} and {@code
 * nextListed} not yet visited — or is about to be pushed by whoever just flagged it; it is in one
 * of them only once. While anything is listed, a sweep is scheduled or running ({@code
 * armed}: set by whoever schedules one, cleared by a sweep that leaves nothing listed, which then
 * looks again). The sweep's fields but {@code listed} and {@code armed} are confined to it: its
 * timer tasks run one after another and each schedules the next. Once the backplane has stopped,
 * its timers no longer fire: objects listed then stay in the table with it.
 */
final class IdleObjectSweep {

    /** Objects visited per timer task; the rest of a sweep follows in another task at once. */
    static final int OBJECTS_PER_TASK = 4096;
    /** The most objects listed at once; see {@link #room}. */
    static final int MAX_LISTED = 65_536;
    /** The least room: enough to find out whether the objects kept are used again. */
    static final int MIN_ROOM = 1024;

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
    /**
     * Objects with the LISTED flag, about: counted up by {@link #list}, down by the sweep as it
     * unlists or releases them.
     */
    private final AtomicInteger listedCount = new AtomicInteger();
    /**
     * How many objects may be listed (a soft limit: racing listers may pass it by a few); an
     * object going idle beyond it is released at once. Set by each sweep to twice the kept objects
     * it found used again, plus {@value #MIN_ROOM}, at most {@value #MAX_LISTED}: keeping objects
     * pays only when their keys come back. A flood of distinct keys thus costs about what it did
     * without a retention, instead of keeping every key of the last two retentions and visiting
     * each twice (docs/benchmarks.md has the measurement).
     */
    private volatile int room = MAX_LISTED;
    /** Of the objects the sweep before kept: how many this sweep found used since (confined to the sweep). */
    private int usedAgain;
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

    /** Whether an object going idle may be listed: fewer than {@link #room} are. */
    boolean hasRoom() {
        return listedCount.get() < room;
    }

    /** Lists {@code object}, which its caller has just flagged LISTED under its monitor. */
    void list(WorkObject object) {
        listedCount.incrementAndGet();
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
        usedAgain = 0;
        continueSweep();
    }

    /**
     * Visits up to {@value #OBJECTS_PER_TASK} objects, then schedules the rest of the sweep, or
     * the next sweep. Should a visit fail (say, out of memory), the sweep goes on one retention
     * later from the object it failed on, so no listed object is dropped and the sweep never stops.
     */
    private void continueSweep() {
        int unlisted = 0;
        try {
            int budget = OBJECTS_PER_TASK;
            for (; budget > 0 && nextKept < keptBefore.size(); budget--) {
                Visit result = visit(keptBefore.get(nextKept));
                nextKept++;
                if (result != Visit.KEPT) {
                    unlisted++;
                }
                if (result != Visit.RELEASED) {
                    usedAgain++; // marked by the sweep before, and used since (else it would be released now)
                }
            }
            for (; budget > 0 && nextListed != null; budget--) {
                if (visit(nextListed.object) != Visit.KEPT) {
                    unlisted++;
                }
                nextListed = nextListed.next;
            }
        } catch (RuntimeException | Error e) {
            timers.schedule(clock.nanoTime() + retentionNanos, this::continueSweep); // armed stays set
            throw e; // the timer service logs it
        } finally {
            listedCount.addAndGet(-unlisted);
        }
        if (nextKept < keptBefore.size() || nextListed != null) {
            timers.schedule(clock.nanoTime(), this::continueSweep); // after the other timers due now
            return;
        }
        if (!keptBefore.isEmpty()) { // else nothing was kept to learn from: the room stays
            room = (int) Math.min(MAX_LISTED, 2L * usedAgain + MIN_ROOM);
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

    /** Visits one object: releases it, keeps it for the next sweep, or (in use) unlists it. */
    private Visit visit(WorkObject object) {
        Visit result = object.sweepIdle();
        if (result == Visit.RELEASED) {
            table.forgetReleased(object);
        } else if (result == Visit.KEPT) {
            kept.add(object);
        }
        return result;
    }
}
