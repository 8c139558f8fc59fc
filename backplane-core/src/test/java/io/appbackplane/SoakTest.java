package io.appbackplane;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A randomized soak: many producers, random keys and priorities, replies with and without
 * timeouts (some never arrive), throwing actions, timers, worker resizing, quota and CPU-limit
 * changes while running. Afterwards every accepted request finished exactly once (completed, or
 * failed with a reported cause), per-key order held, every future completed, and the statistics add
 * up. 5 s of load in the default build; 5 minutes under -Pstress.
 */
class SoakTest {

    private static final int PRODUCERS = 4;
    private static final int KEYS_PER_PRODUCER = 500;

    @Test
    void soakForFiveSecondsLosesDuplicatesAndReordersNothing() throws Exception {
        soak(Duration.ofSeconds(5));
    }

    @Test
    @Tag("stress")
    void soakForFiveMinutes() throws Exception {
        soak(Duration.ofMinutes(5));
    }

    private void soak(Duration duration) throws Exception {
        Backplane backplane = Backplane.builder("soak")
                .policy(BackplanePolicy.builder()
                        .threads(2)
                        .priorities(4)
                        .quotas(BackplanePolicy.UNLIMITED_QUOTA, 50, 20, 12)
                        .integrationPeriod(Duration.ofMillis(100))
                        .operationLimit(50_000)
                        .build())
                .build();
        BackplaneComponent app = backplane.install(ComponentSpec.named("app").withOperationLimit(20_000));
        ScheduledExecutorService replies = Executors.newScheduledThreadPool(2);
        ExecutorService producers = Executors.newFixedThreadPool(PRODUCERS + 1);
        AtomicBoolean running = new AtomicBoolean(true);
        // Runs are counted per request in a counter its action holds (a map of every id would hold
        // hundreds of millions of entries in the five-minute soak and thrash the heap), checked when
        // the request finishes; the total then shows that no action ran again after its request finished.
        LongAdder actionRuns = new LongAdder();
        LongAdder requestsNotRunOnce = new LongAdder();
        Map<String, AtomicLong> lastSeqByKey = new ConcurrentHashMap<>();
        LongAdder orderViolations = new LongAdder();
        LongAdder accepted = new LongAdder();
        LongAdder rejected = new LongAdder();
        LongAdder timerFirings = new LongAdder();
        // Outcomes are counted as futures complete (holding millions of futures would only test the GC).
        LongAdder pending = new LongAdder();
        LongAdder completed = new LongAdder();
        LongAdder plannedFailures = new LongAdder();
        LongAdder timeouts = new LongAdder();
        List<Throwable> unexpected = java.util.Collections.synchronizedList(new ArrayList<>());
        AtomicLong nextId = new AtomicLong();
        TimerHandle timer = app.scheduleAtFixedRate("timer", 1, Duration.ZERO, Duration.ofMillis(5), ctx -> {
            timerFirings.increment();
            return null;
        });
        try {
            List<CompletableFuture<?>> workers = new ArrayList<>();
            for (int p = 0; p < PRODUCERS; p++) {
                int producer = p;
                workers.add(CompletableFuture.runAsync(() -> {
                    ThreadLocalRandom random = ThreadLocalRandom.current();
                    long[] seq = new long[KEYS_PER_PRODUCER];
                    while (running.get()) {
                        int k = random.nextInt(KEYS_PER_PRODUCER);
                        String key = producer + "-" + k; // each key belongs to one producer: its order is defined
                        long s = ++seq[k];
                        long id = nextId.incrementAndGet();
                        AtomicInteger runs = new AtomicInteger();
                        int priority = random.nextInt(4);
                        int kind = random.nextInt(10);
                        Action<Long> action = ctx -> {
                            runs.incrementAndGet();
                            actionRuns.increment();
                            AtomicLong last = lastSeqByKey.computeIfAbsent(key, x -> new AtomicLong());
                            if (last.getAndSet(s) != s - 1) {
                                orderViolations.increment();
                            }
                            switch (kind) {
                                case 0:
                                    throw new IllegalStateException("planned failure " + id);
                                case 1, 2: { // a reply that arrives, with or without a timeout
                                    CompletableFuture<Long> reply = new CompletableFuture<>();
                                    replies.schedule(() -> reply.complete(id), random.nextInt(3), TimeUnit.MILLISECONDS);
                                    return kind == 1
                                            ? ctx.awaitReply(reply, (c, v, e) -> v)
                                            : ctx.awaitReply(reply, Duration.ofSeconds(30), (c, v, e) -> v);
                                }
                                case 3: // a reply that never arrives: its timeout fails the request
                                    return ctx.awaitReply(new CompletableFuture<Long>(), Duration.ofMillis(20), (c, v, e) -> {
                                        throw (Exception) e;
                                    });
                                default:
                                    return id;
                            }
                        };
                        try {
                            CompletableFuture<Long> future = app.submit(key, priority, action);
                            accepted.increment();
                            pending.increment();
                            future.whenComplete((value, failure) -> {
                                if (runs.get() != 1) {
                                    requestsNotRunOnce.increment();
                                }
                                if (failure == null) {
                                    completed.increment();
                                } else if (failure instanceof IllegalStateException
                                        && failure.getMessage().startsWith("planned failure")) {
                                    plannedFailures.increment();
                                } else if (failure instanceof TimeoutException) {
                                    timeouts.increment();
                                } else {
                                    unexpected.add(failure);
                                }
                                pending.decrement();
                            });
                        } catch (BackplaneRejectedException e) {
                            rejected.increment();
                            seq[k]--; // not accepted: the key's next request reuses the number
                            LockSupport.parkNanos(100_000); // back off, as the rejection asks
                        }
                    }
                }, producers));
            }
            // Resize workers, change quotas and the CPU limit while the producers run.
            workers.add(CompletableFuture.runAsync(() -> {
                ThreadLocalRandom random = ThreadLocalRandom.current();
                long deadline = System.nanoTime() + duration.toNanos();
                while (System.nanoTime() < deadline) {
                    backplane.setThreads(1 + random.nextInt(4));
                    backplane.setQuota(1 + random.nextInt(3), 12 + random.nextInt(100));
                    backplane.setCpuLimit(random.nextBoolean() ? CpuLimit.UNLIMITED : CpuLimit.ofCores(0.5 + random.nextDouble()));
                    await().pollDelay(Duration.ofMillis(50)).atMost(Duration.ofSeconds(1)).until(() -> true);
                }
                running.set(false);
            }, producers));
            CompletableFuture.allOf(workers.toArray(CompletableFuture[]::new)).get(duration.toSeconds() + 60, TimeUnit.SECONDS);
            backplane.setCpuLimit(CpuLimit.UNLIMITED);
            backplane.setThreads(2);
            timer.cancel();

            // Every future completes.
            await().atMost(Duration.ofSeconds(60)).until(() -> pending.sum() == 0);
            assertThat(unexpected).as("failures other than the planned ones and reply timeouts").isEmpty();
            await().atMost(Duration.ofSeconds(30)).until(backplane::isIdle);
            // Rule 16: the idle objects go once the idle sweep has found them idle twice.
            await().atMost(Duration.ofSeconds(30)).until(() -> app.objectCount() == 0);
            BackplaneStatistics stats = backplane.statistics();
            ComponentStatistics component = stats.components().get(1);
            System.out.printf("soak %s: accepted=%d rejected=%d completed=%d failed=%d (planned %d, reply timeouts %d)"
                            + " actionsRun=%d timerFirings=%d virtualTicks=%d realTicks=%d throttled=%s%n",
                    duration, accepted.sum(), rejected.sum(), completed.sum(), plannedFailures.sum() + timeouts.sum(),
                    plannedFailures.sum(), timeouts.sum(),
                    stats.totals().actionsRun(), timerFirings.sum(), stats.virtualTicks(), stats.realTicks(),
                    stats.cpu().throttledTime());

            assertThat(orderViolations.sum()).as("per-key order violations").isZero();
            assertThat(requestsNotRunOnce.sum()).as("requests whose action had not run exactly once when they finished").isZero();
            assertThat(actionRuns.sum()).as("action runs, one per accepted request").isEqualTo(accepted.sum());
            assertThat(completed.sum() + plannedFailures.sum() + timeouts.sum()).isEqualTo(accepted.sum());
            ActionCounts counts = component.counts();
            assertThat(counts.submitted()).isEqualTo(counts.rejected() + counts.completed() + counts.failed());
            // The component also counts the timer's firings: those accepted completed, those that met the
            // operation limit were rejected (and skipped by the timer).
            long timerRejections = counts.rejected() - rejected.sum();
            assertThat(timerRejections).isBetween(0L, timer.skippedFirings());
            assertThat(counts.completed()).isEqualTo(completed.sum() + timerFirings.sum());
            assertThat(counts.failed()).isEqualTo(plannedFailures.sum() + timeouts.sum());
            assertThat(stats.outstanding()).isZero();
            assertThat(stats.readyObjects()).isZero();
            assertThat(stats.waitingObjects()).isZero();
            assertThat(component.objects()).isZero();
            assertThat(accepted.sum()).as("the soak did real work").isGreaterThan(10_000);
            assertThat(timerFirings.sum()).isPositive();
        } finally {
            running.set(false);
            producers.shutdownNow();
            replies.shutdownNow();
            backplane.shutdown(Duration.ofSeconds(5)).get(30, TimeUnit.SECONDS);
        }
    }
}
