package io.appbackplane.internal.objects;

import static io.appbackplane.internal.objects.ObjectActionQueue.require;

import io.appbackplane.internal.LincheckScenarios;
import java.util.ArrayDeque;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Validate;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Lincheck tests of {@link PoolPlaces}, the lock-free count of a pool's idle members and taken
 * places: claims (at most {@value #CAP} places), members going idle, waiting (freeing their place)
 * and resuming, in any interleaving. A claim succeeds exactly when a sequential history says a
 * member was idle and a place free; no member is claimed twice; at rest the idle count matches the
 * idle bits and the places match the members holding one.
 */
public class PoolPlacesLincheckTest {

    static final int MEMBERS = 3;
    static final int CAP = 2;

    public static class Harness {

        private final PooledWorkObject[] members = new PooledWorkObject[MEMBERS];
        private final PoolPlaces places;
        /**
         * Stands in for the members' monitors, under which a member's returns are made in
         * production: a member-side operation's move between the harness's lists and its call on
         * {@link PoolPlaces} are one step, as a member's own state and its call are under its
         * monitor (without it a member moving between the lists was in neither, and a concurrent
         * operation saw histories no order explains). One lock for all members is stricter than a
         * monitor each: member-side calls race with claims here, not with each other. Claims take
         * no lock, as a submitter's do not.
         */
        private final Object lock = new Object();
        /**
         * Claims between their {@link PoolPlaces#claim} and their member's entry in {@code running}.
         * A member-side operation starts only when there is none: a claimed member missing from the
         * list would make it answer for a history in which the claim had not happened although
         * PoolPlaces already counted it. A claim that begins later still races with its call.
         */
        private final AtomicInteger claimsInFlight = new AtomicInteger();
        /** Claimed members holding a place, oldest first. */
        private final ArrayDeque<PooledWorkObject> running = new ArrayDeque<>();
        /** Claimed members waiting for a reply (their place freed), oldest first. */
        private final ArrayDeque<PooledWorkObject> waiting = new ArrayDeque<>();

        public Harness() {
            for (int i = 0; i < MEMBERS; i++) {
                members[i] = new PooledWorkObject(null, "member-" + i);
                members[i].joined(null, i);
            }
            places = new PoolPlaces(members);
        }

        @Operation
        public boolean claim() {
            claimsInFlight.incrementAndGet();
            try {
                PooledWorkObject member = places.claim(CAP);
                if (member == null) {
                    return false;
                }
                synchronized (running) {
                    running.add(member);
                }
                return true;
            } finally {
                claimsInFlight.decrementAndGet();
            }
        }

        /** Under {@code lock}: waits for claims in flight to enter their member (see {@link #claimsInFlight}). */
        private void awaitClaimsInFlight() {
            while (claimsInFlight.get() > 0) {
                Thread.onSpinWait();
            }
        }

        /** The oldest running member goes idle; false if none runs. */
        @Operation
        public boolean idle() {
            synchronized (lock) {
                awaitClaimsInFlight();
                PooledWorkObject member = pollRunning();
                if (member == null) {
                    return false;
                }
                places.idled(member, true);
                return true;
            }
        }

        /** The oldest running member begins to wait for a reply; false if none runs. */
        @Operation
        public boolean startWaiting() {
            synchronized (lock) {
                awaitClaimsInFlight();
                PooledWorkObject member = pollRunning();
                if (member == null) {
                    return false;
                }
                places.placeFreed();
                waiting.add(member);
                return true;
            }
        }

        /** The oldest waiting member resumes; false if none waits. */
        @Operation
        public boolean resume() {
            synchronized (lock) {
                awaitClaimsInFlight();
                PooledWorkObject member = waiting.poll();
                if (member == null) {
                    return false;
                }
                places.placeRetaken();
                synchronized (running) {
                    running.add(member);
                }
                return true;
            }
        }

        private PooledWorkObject pollRunning() {
            synchronized (running) {
                return running.poll();
            }
        }

        @Validate
        public void validate() {
            Set<PooledWorkObject> claimed = new HashSet<>(running);
            claimed.addAll(waiting);
            require(claimed.size() == running.size() + waiting.size(), "a member was claimed twice");
            require(places.idleMembers() == places.idleBits(), places.idleMembers() + " idle counted, " + places.idleBits() + " idle bits");
            require(places.idleMembers() + claimed.size() == MEMBERS, places.idleMembers() + " idle and " + claimed.size() + " claimed of " + MEMBERS);
            require(places.placesTaken() == running.size(), places.placesTaken() + " places taken by " + running.size() + " running members");
        }
    }

    /**
     * The sequential specification: counts only. Lincheck compares the harness's results with it,
     * not with the harness run alone, so a rule the code gets wrong in every order (the cap, say) fails too.
     */
    public static class Spec {
        private int idle = MEMBERS;
        private int running;
        private int waiting;

        public boolean claim() {
            if (idle == 0 || running >= CAP) {
                return false;
            }
            idle--;
            running++;
            return true;
        }

        public boolean idle() {
            if (running == 0) {
                return false;
            }
            running--;
            idle++;
            return true;
        }

        public boolean startWaiting() {
            if (running == 0) {
                return false;
            }
            running--;
            waiting++;
            return true;
        }

        public boolean resume() {
            if (waiting == 0) {
                return false;
            }
            waiting--;
            running++;
            return true;
        }
    }

    @Test
    public void stress() {
        LincheckScenarios.quick(LincheckScenarios.stress(1, 1_000)).sequentialSpecification(Spec.class).check(Harness.class);
    }

    @Test
    public void modelChecking() {
        LincheckScenarios.quick(modelChecking(1)).check(Harness.class);
    }

    @Test
    @Tag("stress")
    public void longRun() {
        LincheckScenarios.stress(10, 1_000).sequentialSpecification(Spec.class).check(Harness.class);
        modelChecking(10).check(Harness.class);
        LincheckScenarios.stress(5, 1_000).threads(3).sequentialSpecification(Spec.class).check(Harness.class);
        modelChecking(5).threads(3).check(Harness.class);
    }

    static ModelCheckingOptions modelChecking(int scale) {
        return LincheckScenarios.modelChecking(scale, 300).sequentialSpecification(Spec.class);
    }
}
