package io.appbackplane;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link ActionContext#offload} under real concurrency: producers on several threads, two workers,
 * offload threads fewer than the calls in flight (so the queue and its rejections are exercised),
 * and a shutdown racing the offloads. Per-key order holds and every accepted request finishes:
 * with its value, or told why (a rejection or the shutdown), never left hanging.
 */
class OffloadConcurrencyTest {

    private static final int KEYS = 16;
    private static final int PER_PRODUCER = 500;
    private static final int PRODUCERS = 4;
    private static final long WAIT = 60;

    private Backplane backplane;

    @AfterEach
    void close() {
        if (backplane != null) {
            backplane.close();
        }
    }

    @Test
    void perKeyOrderHolds_andEveryRequestCompletes_withManyOffloadsInFlight() throws Exception {
        backplane = Backplane.builder("stress")
                .policy(BackplanePolicy.builder().threads(2).offloadThreads(4).offloadQueue(100_000).build()).build();
        BackplaneComponent app = backplane.install(ComponentSpec.named("app"));
        // per key: the sequence number the next handler must see, checked on the object (one action at a time)
        AtomicIntegerArray nextSeen = new AtomicIntegerArray(KEYS);
        AtomicLong outOfOrder = new AtomicLong();
        List<List<CompletableFuture<Integer>>> byProducer = new ArrayList<>();
        CountDownLatch go = new CountDownLatch(1);
        List<Thread> producers = new ArrayList<>();
        // each producer owns KEYS / PRODUCERS keys, so its submission order is the key's order
        for (int p = 0; p < PRODUCERS; p++) {
            int producer = p;
            List<CompletableFuture<Integer>> mine = new ArrayList<>();
            byProducer.add(mine);
            producers.add(new Thread(() -> {
                awaitQuietly(go);
                int[] seq = new int[KEYS];
                for (int i = 0; i < PER_PRODUCER; i++) {
                    int key = producer + PRODUCERS * (i % (KEYS / PRODUCERS));
                    int mySeq = seq[key]++;
                    mine.add(app.submit(key, 1 + (i % 3), ctx -> ctx.offload(() -> mySeq, (c, value, failure) -> {
                        if (failure != null) {
                            throw (Exception) failure;
                        }
                        if (nextSeen.getAndIncrement(key) != value) {
                            outOfOrder.incrementAndGet();
                        }
                        return value;
                    })));
                }
            }));
        }
        producers.forEach(Thread::start);
        go.countDown();
        for (Thread t : producers) {
            t.join(TimeUnit.SECONDS.toMillis(WAIT));
        }
        for (List<CompletableFuture<Integer>> futures : byProducer) {
            CompletableFuture.allOf(futures.toArray(CompletableFuture[]::new)).get(WAIT, TimeUnit.SECONDS);
        }
        assertThat(outOfOrder).hasValue(0);
        int total = 0;
        for (int k = 0; k < KEYS; k++) {
            total += nextSeen.get(k);
        }
        assertThat(total).isEqualTo(PRODUCERS * PER_PRODUCER);
    }

    @Test
    void aShutdownRacingOffloads_leavesNoRequestHanging() throws Exception {
        backplane = Backplane.builder("race")
                .policy(BackplanePolicy.builder().threads(2).offloadThreads(2).offloadQueue(8).build()).build();
        BackplaneComponent app = backplane.install(ComponentSpec.named("app"));
        List<CompletableFuture<Integer>> futures = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            int n = i;
            futures.add(app.submit(i % 32, 1, ctx -> ctx.offload(() -> n, (c, value, failure) -> {
                if (failure != null) {
                    throw (Exception) failure;
                }
                return value;
            })));
        }
        backplane.shutdown(Duration.ofMillis(1), Duration.ofSeconds(WAIT));
        for (CompletableFuture<Integer> f : futures) {
            try {
                f.get(WAIT, TimeUnit.SECONDS); // a hang fails here with a TimeoutException
            } catch (ExecutionException e) {
                // told why: the offload queue was full, or the backplane shut down before the request finished
                assertThat(e.getCause()).isInstanceOfAny(RejectedExecutionException.class, BackplaneShutdownException.class);
            }
        }
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await(WAIT, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
