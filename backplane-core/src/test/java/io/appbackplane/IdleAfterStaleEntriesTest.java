package io.appbackplane;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.lang.ref.WeakReference;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Rules 7 and 9 with real workers: an object's old ready entry, left behind
 * when its priority rises or its queued work is cancelled, is no work. Idle workers park, use no
 * CPU, and the entry keeps nothing reachable.
 */
class IdleAfterStaleEntriesTest {

    private static final AtomicInteger BACKPLANES = new AtomicInteger();
    private static final Duration WAIT = Duration.ofSeconds(20);

    private Backplane backplane;

    @AfterEach
    void close() {
        if (backplane != null) {
            backplane.close();
        }
    }

    private BackplaneComponent start() {
        BackplanePolicy policy = BackplanePolicy.builder()
                .threads(2)
                .integrationPeriod(Duration.ofHours(1)) // no real tick: its wake-up would hide the defect
                .slowActionThreshold(Duration.ofMinutes(1))
                .build();
        backplane = Backplane.builder("stale-" + BACKPLANES.incrementAndGet()).policy(policy).build();
        return backplane.install(ComponentSpec.named("app"));
    }

    /** Keeps both workers busy until the returned latch is counted down. */
    private static CountDownLatch occupyBothWorkers(BackplaneComponent app, List<CompletableFuture<?>> futures)
            throws InterruptedException {
        CountDownLatch started = new CountDownLatch(2);
        CountDownLatch release = new CountDownLatch(1);
        for (int k = 0; k < 2; k++) {
            futures.add(app.submit("busy-" + k, 0, ctx -> {
                started.countDown();
                return release.await(WAIT.toSeconds(), SECONDS);
            }));
        }
        assertThat(started.await(WAIT.toSeconds(), SECONDS)).as("both workers busy").isTrue();
        return release;
    }

    @Test
    void afterAPriorityRise_idleWorkersParkAndUseNoCpu() throws Exception {
        BackplaneComponent app = start();
        List<CompletableFuture<?>> futures = new ArrayList<>();
        CountDownLatch release = occupyBothWorkers(app, futures);
        futures.add(app.submit("o", 6, ctx -> "bulk"));
        futures.add(app.submit("o", 1, ctx -> "urgent")); // o leaves ready queue 6 for ready queue 1
        release.countDown();
        for (CompletableFuture<?> f : futures) {
            f.get(WAIT.toSeconds(), SECONDS);
        }

        IdleWorkers.assertParkedAndIdle(backplane);
    }

    @Test
    void afterCancelQueued_idleWorkersParkAndUseNoCpu() throws Exception {
        BackplaneComponent app = start();
        List<CompletableFuture<?>> futures = new ArrayList<>();
        CountDownLatch release = occupyBothWorkers(app, futures);
        CompletableFuture<String> cancelled = app.submit("o", 3, ctx -> "never");
        assertThat(app.cancelQueued("o")).isEqualTo(1);
        release.countDown();
        for (CompletableFuture<?> f : futures) {
            f.get(WAIT.toSeconds(), SECONDS);
        }
        assertThat(cancelled).isCompletedExceptionally();

        IdleWorkers.assertParkedAndIdle(backplane);
    }

    @Test
    void aStaleEntry_keepsNoReleasedObjectReachable() throws Exception {
        BackplaneComponent app = start();
        List<CompletableFuture<?>> futures = new ArrayList<>();
        CountDownLatch release = occupyBothWorkers(app, futures);
        Object risingKey = new Object();
        Object cancelledKey = new Object();
        WeakReference<Object> rising = new WeakReference<>(risingKey);
        WeakReference<Object> cancelled = new WeakReference<>(cancelledKey);
        futures.add(app.submit(risingKey, 6, ctx -> null));
        futures.add(app.submit(risingKey, 1, ctx -> null));
        app.submit(cancelledKey, 5, ctx -> null).exceptionally(failure -> null);
        app.cancelQueued(cancelledKey);
        risingKey = null;
        cancelledKey = null;
        release.countDown();
        for (CompletableFuture<?> f : futures) {
            f.get(WAIT.toSeconds(), SECONDS);
        }
        futures.clear();
        await().atMost(WAIT).until(() -> app.objectCount() == 0);

        await().atMost(WAIT).until(() -> {
            System.gc();
            return rising.get() == null && cancelled.get() == null;
        });
    }
}
