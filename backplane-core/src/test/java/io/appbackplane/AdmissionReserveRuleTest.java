package io.appbackplane;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.appbackplane.BackplaneRejectedException.Reason;
import io.appbackplane.internal.components.AdmissionThresholds;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Rule 11, priority-aware admission: less urgent priorities fill an outstanding-operation limit
 * only up to a reserve kept for more urgent ones, so a flood of less urgent work alone never gets a
 * more urgent request rejected.
 */
class AdmissionReserveRuleTest {

    private final ManualClock clock = new ManualClock();
    private Backplane backplane;

    @AfterEach
    void close() {
        if (backplane != null) {
            backplane.close();
        }
    }

    private Backplane start(BackplanePolicy policy) {
        backplane = Backplane.builder("test").policy(policy).clock(clock).stepMode().build();
        return backplane;
    }

    /** Submits at {@code priority} until the component rejects; returns how many it admitted. */
    private static int flood(BackplaneComponent component, int priority) {
        int admitted = 0;
        while (true) {
            try {
                component.submit("bulk-" + admitted + "-" + priority, priority, ctx -> "bulk");
                admitted++;
            } catch (BackplaneRejectedException e) {
                assertThat(e.reason()).isIn(Reason.COMPONENT_LIMIT, Reason.BACKPLANE_LIMIT);
                return admitted;
            }
        }
    }

    @Test
    void aLowPriorityFloodThatFillsTheLimitNeverGetsAnUrgentRequestRejected() {
        // The scenario, scaled: a limit, a bulk flood at the least urgent priority that keeps
        // offering more than fits, and urgent requests arriving in between: every urgent one is admitted.
        start(BackplanePolicy.defaults()); // 8 priorities, default reserve 0.1
        BackplaneComponent search = backplane.install(ComponentSpec.named("search").withOperationLimit(100));

        int bulk = flood(search, 7);
        assertThat(bulk).isEqualTo(90); // 100 - ceil(100 * 0.1 * 7/7)
        List<CompletableFuture<String>> urgent = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            assertThat(flood(search, 7)).as("the flood never takes the reserve").isZero();
            urgent.add(search.submit("urgent-" + i, 0, ctx -> "urgent"));
        }

        assertThat(search.outstanding()).isEqualTo(100);
        PriorityStatistics p0 = backplane.statistics().priorities().get(0);
        PriorityStatistics p7 = backplane.statistics().priorities().get(7);
        assertThat(p0.counts().rejected()).as("urgent rejections").isZero();
        assertThat(p7.counts().rejected()).as("bulk rejections, counted by priority").isEqualTo(11);
        backplane.stepper().runUntilIdle();
        assertThat(urgent).allSatisfy(f -> assertThat(f.join()).isEqualTo("urgent"));
    }

    @Test
    void everyPriorityKeepsRoomForEveryMoreUrgentOneWhenTheLimitIsLargeEnough() {
        start(BackplanePolicy.defaults());
        BackplaneComponent app = backplane.install(ComponentSpec.named("app").withOperationLimit(70)); // (P-1)/0.1
        for (int low = 7; low >= 1; low--) {
            int before = app.outstanding();
            flood(app, low); // fills up to low's threshold
            assertThat(app.outstanding()).isEqualTo(app.admissionThreshold(low)).isGreaterThanOrEqualTo(before);
            app.submit("one-more-urgent-" + low, low - 1, ctx -> "ok"); // the next more urgent priority still gets in
        }
        flood(app, 0);
        assertThat(app.outstanding()).as("priority 0 may use the whole limit").isEqualTo(70);
    }

    /** Rule 11's threshold of priority {@code p} of {@code priorities} under {@code limit} with {@code reserve}. */
    private static int threshold(int limit, double reserve, int p, int priorities) {
        return AdmissionThresholds.of(limit, reserve, priorities).of(p);
    }

    @Test
    void thresholdsAtTheEdges() {
        // priority 0 always gets the whole limit
        assertThat(threshold(100, 0.1, 0, 8)).isEqualTo(100);
        // the least urgent leaves exactly the reserve, computed exactly (5000 * 0.1 is not 500.0000001)
        assertThat(threshold(5000, 0.1, 7, 8)).isEqualTo(4500);
        assertThat(threshold(100, 0.1, 1, 8)).isEqualTo(98); // ceil(1.43) kept
        // any reserve keeps at least one slot, but never the last one: a limit of 1 admits one at any priority
        assertThat(threshold(2, 0.1, 1, 8)).isEqualTo(1);
        assertThat(threshold(1, 0.1, 7, 8)).isEqualTo(1);
        assertThat(threshold(10, 0.99, 7, 8)).isEqualTo(1);
        // no reserve, or a single priority: the whole limit
        assertThat(threshold(100, 0, 7, 8)).isEqualTo(100);
        assertThat(threshold(100, 0.5, 0, 1)).isEqualTo(100);
        // the largest limit and most priorities do not overflow
        assertThat(threshold(Integer.MAX_VALUE, 0.999999, 63, 64)).isEqualTo(2147);
        assertThat(threshold(Integer.MAX_VALUE, 0.5, 32, 64))
                .isEqualTo(Integer.MAX_VALUE - (int) Math.ceil(Integer.MAX_VALUE * 0.5 * 32 / 63));
        // never increasing towards less urgent priorities, for any limit
        for (int limit = 1; limit <= 200; limit++) {
            for (int p = 1; p < 8; p++) {
                assertThat(threshold(limit, 0.1, p, 8))
                        .isLessThanOrEqualTo(threshold(limit, 0.1, p - 1, 8))
                        .isPositive();
            }
            if (limit >= 2) { // any lower priority leaves priority 0 at least one slot
                assertThat(threshold(limit, 0.1, 1, 8)).isLessThan(limit);
            }
        }
    }

    @Test
    void aBadReserveIsRejectedNamingTheValueAndTheAllowedRange() {
        for (double bad : new double[] {-0.1, 1.0, 1.5, Double.NaN}) {
            assertThatThrownBy(() -> BackplanePolicy.builder().admissionReserve(bad))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContainingAll("admission-reserve", String.valueOf(bad), "allowed: 0");
            assertThatThrownBy(() -> ComponentSpec.named("c").withAdmissionReserve(bad))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContainingAll("admission-reserve", "'c'", String.valueOf(bad), "allowed: 0");
        }
    }

    @Test
    void aComponentUsesItsOwnReserveOrElseItsBackplanes() {
        start(BackplanePolicy.builder().admissionReserve(0.5).build());
        BackplaneComponent inherits = backplane.install(ComponentSpec.named("inherits").withOperationLimit(10));
        BackplaneComponent own = backplane.install(ComponentSpec.named("own").withOperationLimit(10).withAdmissionReserve(0));

        assertThat(inherits.admissionReserve()).isEqualTo(0.5);
        assertThat(inherits.admissionThreshold(7)).isEqualTo(5);
        assertThat(own.admissionReserve()).isZero();
        assertThat(own.admissionThreshold(7)).isEqualTo(10);
        assertThat(flood(own, 7)).isEqualTo(10);
        assertThatThrownBy(() -> inherits.admissionThreshold(8)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("allowed: 0..7");
    }

    @Test
    void theRejectionSaysWhichShareOfTheLimitThePriorityMayFill() {
        start(BackplanePolicy.defaults());
        BackplaneComponent app = backplane.install(ComponentSpec.named("app").withOperationLimit(100));
        flood(app, 7);

        Throwable rejected = catchThrowable(() -> app.submit("x", 7, ctx -> "x"));

        assertThat(rejected).isInstanceOfSatisfying(BackplaneRejectedException.class, e -> {
            assertThat(e.reason()).isEqualTo(Reason.COMPONENT_LIMIT);
            assertThat(e.isRetryable()).isTrue();
        }).hasMessageContainingAll("'app'", "90", "priority 7", "limit (100", "admission reserve 0.1", "back off");
    }

    @Test
    void theBackplaneTotalKeepsTheSameReserve() {
        start(BackplanePolicy.builder().operationLimit(20).build());
        BackplaneComponent bulk = backplane.install(ComponentSpec.named("bulk").withOperationLimit(1000));
        BackplaneComponent orders = backplane.install(ComponentSpec.named("orders").withOperationLimit(1000));

        assertThat(backplane.policy().admissionThreshold(7)).isEqualTo(18);
        assertThat(flood(bulk, 7)).isEqualTo(18);
        Throwable rejected = catchThrowable(() -> orders.submit("late-bulk", 7, ctx -> "x"));
        assertThat(rejected).isInstanceOfSatisfying(BackplaneRejectedException.class,
                e -> assertThat(e.reason()).isEqualTo(Reason.BACKPLANE_LIMIT))
                .hasMessageContainingAll("'test'", "18", "priority 7", "limit (20");
        orders.submit("urgent-1", 0, ctx -> "u1");
        orders.submit("urgent-2", 0, ctx -> "u2");
        assertThat(backplane.statistics().outstanding()).isEqualTo(20);
    }

    @Test
    void theMakeRoomHookIsAskedWithTheRequestsPriorityWhenItsShareIsFull() {
        List<Integer> askedFor = new ArrayList<>();
        start(BackplanePolicy.defaults());
        BackplaneComponent app = backplane.install(ComponentSpec.named("app").withOperationLimit(10)
                .withMakeRoom(new ComponentSpec.MakeRoom() {
                    @Override
                    public boolean makeRoom(BackplaneComponent component) {
                        throw new AssertionError("the priority-aware overload is called");
                    }

                    @Override
                    public boolean makeRoom(BackplaneComponent component, int priority) {
                        askedFor.add(priority);
                        // shed queued bulk work only for requests more urgent than it
                        return priority < 7 && component.cancelQueued("bulk-0-7") > 0;
                    }
                }));
        assertThat(flood(app, 7)).isEqualTo(9); // 10 - ceil(10 * 0.1)
        assertThat(askedFor).containsExactly(7); // asked below the limit: the bulk share was full

        app.submit("urgent", 0, ctx -> "u"); // the reserve: no hook needed
        assertThat(askedFor).containsExactly(7);
        CompletableFuture<String> second = app.submit("urgent-2", 0, ctx -> "u2"); // at the limit: the hook sheds bulk

        assertThat(askedFor).containsExactly(7, 0);
        assertThat(app.outstanding()).isEqualTo(10);
        assertThat(backplane.statistics().priorities().get(0).counts().rejected()).isZero();
        backplane.stepper().runUntilIdle();
        assertThat(second.join()).isEqualTo("u2");
    }

    @Test
    void underRealThreadsAnUrgentCallerNeverMeetsARejectionWhileABulkFloodHammersTheLimit() throws Exception {
        backplane = Backplane.builder("threaded").policy(BackplanePolicy.builder().threads(2).build()).build();
        BackplaneComponent search = backplane.install(ComponentSpec.named("search").withOperationLimit(200));
        AtomicBoolean flooding = new AtomicBoolean(true);
        AtomicLong bulkRejected = new AtomicLong();
        CountDownLatch full = new CountDownLatch(1);
        CompletableFuture<String> release = new CompletableFuture<>(); // bulk requests wait for it without a thread
        List<Thread> flooders = new ArrayList<>();
        for (int t = 0; t < 2; t++) {
            int id = t;
            Thread flooder = new Thread(() -> {
                for (long i = 0; flooding.get(); i++) {
                    try {
                        // bulk requests wait for a reply the test holds back, so the limit stays full
                        search.submit("bulk-" + id + "-" + (i % 1000), 7,
                                ctx -> ctx.awaitReply(release, (c, value, failure) -> value));
                    } catch (BackplaneRejectedException e) {
                        bulkRejected.incrementAndGet();
                        full.countDown();
                        Thread.onSpinWait();
                    }
                }
            }, "flooder-" + t);
            flooder.start();
            flooders.add(flooder);
        }
        try {
            assertThat(full.await(30, TimeUnit.SECONDS)).isTrue();
            int urgentRejected = 0;
            for (int i = 0; i < 1_000; i++) {
                try {
                    search.submit("urgent-" + i, 0, ctx -> "ok").get(30, TimeUnit.SECONDS);
                } catch (BackplaneRejectedException e) {
                    urgentRejected++;
                }
            }
            assertThat(urgentRejected).as("urgent requests rejected").isZero();
            assertThat(bulkRejected.get()).as("the flood was at the limit throughout").isPositive();
            assertThat(backplane.statistics().priorities().get(0).counts().rejected()).isZero();
        } finally {
            flooding.set(false);
            for (Thread flooder : flooders) {
                flooder.join(TimeUnit.SECONDS.toMillis(30));
            }
            release.complete("released");
        }
        backplane.shutdown(Duration.ofSeconds(30)).get(60, TimeUnit.SECONDS);
    }
}
