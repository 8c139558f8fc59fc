package io.appbackplane;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Overload: bulk work offered at well over ten times what the backplane can run, for 5 s
 * (60 s under -Pstress). The excess is rejected with {@link BackplaneRejectedException}
 * (COMPONENT_LIMIT, retryable), outstanding work never exceeds the operation limits, the heap does
 * not grow with the offered load, and urgent work keeps running.
 */
class OverloadTest {

    private static final int BULK_LIMIT = 5_000;

    /**
     * CPU per bulk action: 200 µs, so the two workers run a few thousand a second while the two
     * producers' submit-and-be-rejected loop offers 100,000 or more a second even when they get
     * only part of the cores they share with the workers: the test's ten-times-capacity
     * precondition holds with a wide margin.
     */
    private static final long BULK_ACTION_NANOS = 200_000;

    @Test
    void fiveSecondsAtTenTimesCapacityRejectTheExcessAndKeepUrgentWorkRunning() throws Exception {
        overload(Duration.ofSeconds(5));
    }

    @Test
    @Tag("stress")
    void sixtySecondsAtTenTimesCapacity() throws Exception {
        overload(Duration.ofSeconds(60));
    }

    private void overload(Duration duration) throws Exception {
        Backplane backplane = Backplane.builder("overload")
                .policy(BackplanePolicy.builder().threads(2).priorities(4).build())
                .build();
        BackplaneComponent bulk = backplane.install(ComponentSpec.named("bulk").withOperationLimit(BULK_LIMIT));
        BackplaneComponent urgent = backplane.install(ComponentSpec.named("urgent").withOperationLimit(1_000));
        ExecutorService producers = Executors.newFixedThreadPool(3);
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        AtomicBoolean running = new AtomicBoolean(true);
        LongAdder offered = new LongAdder();
        LongAdder rejected = new LongAdder();
        LongAdder otherRejections = new LongAdder();
        AtomicInteger maxOutstanding = new AtomicInteger();
        List<Long> urgentLatencies = java.util.Collections.synchronizedList(new ArrayList<>());
        AtomicLong urgentSubmitted = new AtomicLong();
        try {
            System.gc();
            long heapBefore = memory.getHeapMemoryUsage().getUsed();
            long start = System.nanoTime();
            List<CompletableFuture<Void>> load = new ArrayList<>();
            for (int p = 0; p < 2; p++) {
                int producer = p;
                load.add(CompletableFuture.runAsync(() -> {
                    long n = 0;
                    while (running.get()) {
                        offered.increment();
                        try {
                            bulk.execute(producer + "-" + (n++ % 1_000), 3, ctx -> spin(BULK_ACTION_NANOS));
                        } catch (BackplaneRejectedException e) {
                            if (e.reason() != BackplaneRejectedException.Reason.COMPONENT_LIMIT || !e.isRetryable()) {
                                otherRejections.increment();
                            }
                            rejected.increment();
                        }
                        maxOutstanding.accumulateAndGet(bulk.outstanding(), Math::max);
                    }
                }, producers));
            }
            load.add(CompletableFuture.runAsync(() -> { // one urgent tiny action per millisecond
                while (running.get()) {
                    long submitted = System.nanoTime();
                    urgentSubmitted.incrementAndGet();
                    urgent.submit("desk", 0, ctx -> urgentLatencies.add(System.nanoTime() - submitted));
                    LockSupport.parkNanos(1_000_000); // pacing the urgent stream, not synchronization
                }
            }, producers));
            await().pollDelay(duration).atMost(duration.plusSeconds(5)).until(() -> true);
            running.set(false);
            CompletableFuture.allOf(load.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);
            double seconds = (System.nanoTime() - start) / 1e9;
            await().atMost(Duration.ofSeconds(60)).until(backplane::isIdle);

            System.gc();
            long heapGrowth = memory.getHeapMemoryUsage().getUsed() - heapBefore;
            ActionCounts bulkCounts = bulk.statistics().counts();
            long[] latencies = urgentLatencies.stream().mapToLong(Long::longValue).sorted().toArray();
            double p50 = latencies[latencies.length / 2] / 1e6;
            double p99 = latencies[(int) (latencies.length * 0.99)] / 1e6;
            double max = latencies[latencies.length - 1] / 1e6;
            System.out.printf("overload %s: offered=%d (%.0f/s) bulk completed=%d (%.0f/s, %.1fx offered) rejected=%d"
                            + " maxOutstanding=%d/%d urgent=%d p50=%.3fms p99=%.3fms max=%.1fms heapGrowth=%dKiB%n",
                    duration, offered.sum(), offered.sum() / seconds, bulkCounts.completed(), bulkCounts.completed() / seconds,
                    (double) offered.sum() / Math.max(1, bulkCounts.completed()), rejected.sum(), maxOutstanding.get(),
                    BULK_LIMIT, latencies.length, p50, p99, max, heapGrowth / 1024);

            assertThat((double) offered.sum() / bulkCounts.completed()).as("offered / capacity").isGreaterThanOrEqualTo(10);
            assertThat(otherRejections.sum()).as("rejections other than COMPONENT_LIMIT").isZero();
            assertThat(bulkCounts.rejected()).isEqualTo(rejected.sum());
            assertThat(bulkCounts.completed() + bulkCounts.rejected()).isEqualTo(offered.sum());
            assertThat(maxOutstanding.get()).isLessThanOrEqualTo(BULK_LIMIT);
            assertThat(latencies).as("every urgent action ran").hasSize((int) urgentSubmitted.get());
            assertThat(max).as("urgent work kept running (loose bound, not a latency target)").isLessThan(5_000);
            assertThat(heapGrowth).as("heap growth after GC").isLessThan(64L * 1024 * 1024);
            assertThat(Arrays.stream(latencies).count()).isPositive();
        } finally {
            running.set(false);
            producers.shutdownNow();
            backplane.shutdown(Duration.ofSeconds(5)).get(30, TimeUnit.SECONDS);
        }
    }

    /** Busy-spins for about {@code nanos}: CPU-bound bulk work. */
    private static Object spin(long nanos) {
        long end = System.nanoTime() + nanos;
        long x = 0;
        while (System.nanoTime() < end) {
            x++;
        }
        return x;
    }
}
