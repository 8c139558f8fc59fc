package io.appbackplane.internal.objects;

import static org.assertj.core.api.Assertions.assertThat;

import io.appbackplane.Backplane;
import io.appbackplane.BackplaneComponent;
import io.appbackplane.ComponentSpec;
import io.appbackplane.ManualClock;
import io.appbackplane.internal.DefaultBackplane;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The timer tasks of {@link IdleObjectSweep} on a manual clock: scheduled only while objects are
 * listed (it adds no wake-ups to an idle backplane), and at most {@value IdleObjectSweep#OBJECTS_PER_TASK}
 * objects visited per task, so other timers due at the same instant are not held up.
 */
class IdleObjectSweepTest {

    private static final long RETENTION = ComponentSpec.DEFAULT_IDLE_OBJECT_RETENTION.toNanos();

    private final ManualClock clock = new ManualClock();
    private final DefaultBackplane backplane = (DefaultBackplane) Backplane.builder("sweep")
            .clock(clock)
            .stepMode()
            .build();
    private final BackplaneComponent app = backplane.install(ComponentSpec.named("app"));

    @AfterEach
    void close() {
        backplane.close();
    }

    private void runKeys(int count) {
        runKeys(0, count);
    }

    @Test
    void theSweepIsScheduledOnlyWhileObjectsAreListed() {
        int before = backplane.timers().pending(); // the real tick
        runKeys(3);
        assertThat(backplane.timers().pending()).as("one sweep for the three listings").isEqualTo(before + 1);

        clock.advanceNanos(2 * RETENTION);

        assertThat(app.objectCount()).isZero();
        assertThat(backplane.timers().pending()).as("nothing listed: no sweep").isEqualTo(before);
        runKeys(1);
        assertThat(backplane.timers().pending()).as("listed again: a sweep again").isEqualTo(before + 1);
    }

    @Test
    void aSweepVisitsAtMostOneTasksWorthOfObjects_thenLetsTheOtherTimersDueNowRunBeforeItGoesOn() {
        int objects = 2 * IdleObjectSweep.OBJECTS_PER_TASK + 1;
        runKeys(objects); // listed at t = 0: marked by the sweep at R, released by the one at 2R
        clock.advanceNanos(RETENTION);
        int[] seen = new int[1];
        // Scheduled after the sweep at 2R was: due at the same instant, it runs after the sweep's first task.
        backplane.timers().schedule(2 * RETENTION, () -> seen[0] = app.objectCount());

        clock.advanceNanos(RETENTION);

        assertThat(seen[0]).isEqualTo(objects - IdleObjectSweep.OBJECTS_PER_TASK);
        assertThat(app.objectCount()).as("the rest of the sweep ran at the same instant").isZero();
    }

    private void runKeys(int from, int count) {
        for (int i = from; i < from + count; i++) {
            app.execute(i, 1, ctx -> null);
        }
        assertThat(backplane.stepper().runUntilIdle()).isEqualTo(count);
    }

    @Test
    void keysThatDoNotComeBack_shrinkTheRoomForIdleObjects_soAFloodOfNewKeysIsReleasedAtOnce() {
        int batch = 5000;
        runKeys(0, batch);
        clock.advanceNanos(RETENTION); // marks batch 1; nothing kept before: nothing to learn yet
        runKeys(batch, batch);
        assertThat(app.objectCount()).as("room for both batches").isEqualTo(2 * batch);

        clock.advanceNanos(RETENTION); // releases batch 1, none of it used again: the room falls to the least
        assertThat(app.objectCount()).isEqualTo(batch);
        runKeys(2 * batch, batch);

        assertThat(app.objectCount()).as("batch 3 released at once: batch 2 fills more than the room")
                .isEqualTo(batch);
    }

    @Test
    void keysThatComeBack_getTheirRoomBack_andKeepTheirObjects() {
        int flood = 5000;
        runKeys(1_000_000, flood);
        clock.advanceNanos(RETENTION);
        runKeys(2_000_000, flood);
        clock.advanceNanos(RETENTION); // nothing used again: the least room
        clock.advanceNanos(RETENTION); // the flood gone
        assertThat(app.objectCount()).isZero();

        int hot = 3 * IdleObjectSweep.MIN_ROOM;
        int[] keptAfterSweep = new int[8];
        for (int round = 0; round < keptAfterSweep.length; round++) {
            runKeys(0, hot); // the same keys every retention
            clock.advanceNanos(RETENTION);
            keptAfterSweep[round] = app.objectCount();
        }
        assertThat(keptAfterSweep[0]).as("the least room at first").isLessThan(hot);
        assertThat(keptAfterSweep[keptAfterSweep.length - 1]).as("every hot key's object kept").isEqualTo(hot);
    }

    @Test
    void aRetentionOfZeroReleasesAtOnceAndNeverSchedulesASweep() {
        BackplaneComponent atOnce = backplane.install(ComponentSpec.named("at-once").withIdleObjectRetention(Duration.ZERO));
        int before = backplane.timers().pending();
        atOnce.execute("k", 1, ctx -> null);
        backplane.stepper().runUntilIdle();

        assertThat(atOnce.objectCount()).isZero();
        assertThat(backplane.timers().pending()).isEqualTo(before);
    }
}
