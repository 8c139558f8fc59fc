package io.appbackplane.internal.scheduling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.appbackplane.internal.objects.ReadyEntry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntToLongFunction;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The wake-up hand-over of {@link IdleWorkers} ("spinning workers take over the producer's wake-up"),
 * driven one step at a time: producers that see a spinning worker wake nobody, and the spinner,
 * once it has taken an entry, wakes a parked worker for what is left.
 *
 * <p>The test thread plays the spinning worker ({@code startSpinning}, then {@code select} and
 * {@code tookWorkAfterIdle}, the steps of {@code spinForWork} and the worker loop); a second thread
 * is a worker parked in {@code awaitWork} with {@link WorkerParkingLincheckTest.StandIn}'s park,
 * which never wakes spuriously, so only a signal can wake it. With {@code tookWorkAfterIdle} a no-op
 * the second entry waits beside a parked worker and the test fails. A worker yielding before it
 * parks ({@code yieldForWork}) is neither idle nor spinning, and a producer with a parked worker
 * wakes it rather than leave the work to the yielder: counting the yields inside {@code
 * yieldForWork} as spinning fails both yielding tests.
 */
class WorkerWakeCascadeTest {

    private final IdleWorkersHarness parts = new IdleWorkersHarness();
    private final Scheduler scheduler = parts.scheduler;
    private final WorkerPool pool = parts.pool;
    private final IdleWorkers workers = parts.workers;
    private final AtomicReference<Parker> parkedWorker = new AtomicReference<>();
    private final AtomicReference<ReadyEntry> takenByParkedWorker = new AtomicReference<>();
    private volatile boolean done;
    /** The test's stand-in worker threads (parked and yielding ones), ended and joined after each test. */
    private final List<Thread> standIns = new ArrayList<>();

    @AfterEach
    void endTheStandInWorkers() throws InterruptedException {
        done = true;
        pool.stop(); // wakes a parked one; one about to park, or yielding, sees the stop
        for (Thread worker : standIns) {
            worker.join(10_000);
            assertThat(worker.isAlive()).as(worker.getName() + " ended").isFalse();
        }
    }

    @Test
    void producersLeaveTheirWakeUpToASpinner_whichWakesAParkedWorkerForWhatIsLeft() {
        startParkedWorker();

        workers.startSpinning(); // this thread now spins, as a worker that has just found nothing
        parts.submit(1, 0);
        parts.submit(2, 0);
        assertThat(parkedWorker.get().parked.get())
                .as("a producer that saw a spinning worker unparked nobody").isTrue();

        workers.stopSpinning(); // the spin saw work
        ReadyEntry taken = (ReadyEntry) scheduler.select();
        assertThat(taken.object).isNotNull();
        workers.tookWorkAfterIdle();

        await().atMost(Duration.ofSeconds(10)).until(() -> takenByParkedWorker.get() != null);
        assertThat(takenByParkedWorker.get().object).isNotSameAs(taken.object);
        assertThat(workers.idle()).isZero();
        assertThat(workers.spinning()).isZero();
    }

    @Test
    void withNoSpinner_aProducerWakesTheParkedWorkerItself() {
        startParkedWorker();

        parts.submit(1, 0);

        await().atMost(Duration.ofSeconds(10)).until(() -> takenByParkedWorker.get() != null);
        assertThat(workers.idle()).isZero();
    }

    @Test
    void aSpinnerThatTookTheOnlyEntry_wakesNobody() {
        startParkedWorker();

        workers.startSpinning();
        parts.submit(1, 0);
        workers.stopSpinning();
        assertThat(scheduler.select()).isInstanceOf(ReadyEntry.class);
        workers.tookWorkAfterIdle();

        assertThat(parkedWorker.get().parked.get()).as("nothing left, so no wake-up").isTrue();
        assertThat(workers.idle()).isEqualTo(1);
    }

    @Test
    void spinForWork_returnsAtOnceWhenWorkIsReady_andCountsItselfOnlyWhileSpinning() {
        assertThat(workers.spinForWork(1_000)).as("nothing ready: spun out").isFalse();
        parts.submit(1, 0);
        assertThat(workers.spinForWork(Integer.MAX_VALUE)).as("work ready").isTrue();
        assertThat(workers.spinning()).isZero();
    }

    @Test
    void aYieldingWorkerIsNeitherIdleNorSpinning_andSeesWorkPushedWhileItYields() throws Exception {
        CompletableFuture<Boolean> sawWork = startYieldingWorker();
        assertThat(workers.idle()).as("idle").isZero();
        assertThat(workers.spinning()).as("spinning").isZero();

        parts.submit(1, 0);

        assertThat(sawWork.get(10, TimeUnit.SECONDS)).as("the yielding worker saw the work").isTrue();
        assertThat(scheduler.select()).as("still there for it to take").isInstanceOf(ReadyEntry.class);
    }

    @Test
    void aProducerDoesNotLeaveItsWakeUpToAYieldingWorker_itWakesAParkedOne() throws Exception {
        startParkedWorker();
        CompletableFuture<Boolean> sawWork = startYieldingWorker(); // looks, never takes

        parts.submit(1, 0);

        await().atMost(Duration.ofSeconds(10)).until(() -> takenByParkedWorker.get() != null);
        parts.submit(2, 0); // the yielder may have missed the first entry (taken at once): this one ends its yields
        assertThat(sawWork.get(10, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void yieldForWork_withNothingReady_yieldsOutAndReportsNoWork() {
        assertThat(workers.yieldForWork(1_000)).isFalse();
        assertThat(workers.spinning()).isZero();
        assertThat(workers.idle()).isZero();
    }

    @Test
    void yieldForWork_aYieldThatKeptTheWorkerAwayLongEndsTheYields() {
        // the third yield keeps the worker away over 50 us: it parks rather than yield on
        assertThat(yieldsMade(yield -> yield == 3 ? IdleWorkers.LONG_YIELD_NANOS + 1 : 1_000)).isEqualTo(3);
    }

    @Test
    void yieldForWork_yieldsOfUpToTheCapEachGoOnToTheirCount() {
        // long, but not over the cap: not a contended processor
        assertThat(yieldsMade(yield -> IdleWorkers.LONG_YIELD_NANOS)).isEqualTo(IdleWorkers.YIELDS_BEFORE_PARK);
    }

    /**
     * The yields {@code yieldForWork} makes with nothing ready when yield i (from 1) keeps the
     * worker away for {@code nanosOfYield(i)} on the wall clock it is given.
     */
    private int yieldsMade(IntToLongFunction nanosOfYield) {
        AtomicLong wallClock = new AtomicLong();
        AtomicInteger yields = new AtomicInteger();
        boolean sawWork = workers.yieldForWork(IdleWorkers.YIELDS_BEFORE_PARK,
                () -> wallClock.addAndGet(nanosOfYield.applyAsLong(yields.incrementAndGet())), wallClock::get);
        assertThat(sawWork).isFalse();
        return yields.get();
    }

    /**
     * A worker that ran dry and yields until it sees work, then stops without taking it (again and
     * again: a yield that took long ends one call, see {@code LONG_YIELD_NANOS}); returned once its
     * thread is inside {@code yieldForWork}, so that the test's checks see it yielding.
     */
    private CompletableFuture<Boolean> startYieldingWorker() {
        CompletableFuture<Boolean> sawWork = new CompletableFuture<>();
        Thread yielding = new Thread(() -> {
            boolean saw = false;
            while (!saw && !done) {
                saw = workers.yieldForWork(Integer.MAX_VALUE);
            }
            sawWork.complete(saw);
        }, "yielding-worker");
        yielding.setDaemon(true);
        standIns.add(yielding);
        yielding.start();
        await().atMost(Duration.ofSeconds(10)).until(() -> Arrays.stream(yielding.getStackTrace())
                .anyMatch(frame -> frame.getMethodName().equals("yieldForWork")));
        return sawWork;
    }

    /** A worker that found nothing and parked: it takes one entry when woken, then leaves. */
    private void startParkedWorker() {
        Thread parked = new Thread(() -> {
            WorkerParkingLincheckTest.StandIn me = new WorkerParkingLincheckTest.StandIn();
            parkedWorker.set(me);
            workers.enlist(me);
            try {
                while (!done) {
                    if (scheduler.select() instanceof ReadyEntry entry) {
                        takenByParkedWorker.set(entry);
                        return;
                    }
                    workers.awaitWork(me, 0);
                }
            } finally {
                workers.delist(me);
            }
        }, "parked-worker");
        parked.setDaemon(true);
        standIns.add(parked);
        parked.start();
        await().atMost(Duration.ofSeconds(10)).until(() -> workers.idle() == 1);
    }
}
