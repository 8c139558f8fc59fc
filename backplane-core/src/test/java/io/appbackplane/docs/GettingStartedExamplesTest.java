package io.appbackplane.docs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.appbackplane.ActionEndpoint;
import io.appbackplane.Backplane;
import io.appbackplane.BackplaneComponent;
import io.appbackplane.BackplaneListener;
import io.appbackplane.BackplanePolicy;
import io.appbackplane.BackplaneRejectedException;
import io.appbackplane.BackplaneStatistics;
import io.appbackplane.ComponentSpec;
import io.appbackplane.ComponentState;
import io.appbackplane.ComponentStatistics;
import io.appbackplane.CpuLimit;
import io.appbackplane.EndpointSpec;
import io.appbackplane.ManualClock;
import io.appbackplane.PriorityStatistics;
import io.appbackplane.ReplyTimeoutException;
import io.appbackplane.Stepper;
import io.appbackplane.TimerHandle;
import io.appbackplane.TimerSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The plain-Java snippets of docs/getting-started.md: each marked region is shown verbatim on the
 * page (DocsSnippetsTest checks that), and each test runs it and checks what the page says it does.
 */
class GettingStartedExamplesTest {

    /** The asynchronous service of the examples: answers later, on another thread. */
    interface Payments {
        CompletableFuture<String> charge(String order);
    }

    private final Payments payments = order -> CompletableFuture.supplyAsync(() -> "receipt-" + order);

    /** A payment service that never answers. */
    private final Payments silentPayments = order -> new CompletableFuture<>();

    @Test
    void buildSubmitAwaitAndStatistics() throws Exception {
        // docs:getting-started:build BEGIN
        BackplanePolicy policy = BackplanePolicy.builder()
                .threads(4)                                      // worker threads shared by all components
                .priorities(4)                                   // 0 (most urgent) .. 3
                .quotas(BackplanePolicy.UNLIMITED_QUOTA, 200, 50, 12)
                .cpuLimit(CpuLimit.parse("500m"))                // half a core of worker CPU time per second
                .slowActionThreshold(Duration.ofMillis(50))
                .build();
        Backplane backplane = Backplane.builder("shop")
                .policy(policy)
                .listener(new BackplaneListener() {
                    @Override
                    public void onSlowAction(BackplaneListener.SlowAction slow) {
                        System.err.println("slow: " + slow);
                    }
                })
                .build();
        BackplaneComponent orders = backplane.install(ComponentSpec.named("orders").withOperationLimit(10_000));
        // docs:getting-started:build END
        try {
            // docs:getting-started:submit BEGIN
            // One object per key: its actions run one at a time, in submission order.
            CompletableFuture<String> placed = orders.submit("order-42", 1, ctx -> "placed " + ctx.objectKey());
            CompletableFuture<Integer> counted = orders.submit("order-42", 2, ctx -> 1);
            // Without a future: a failure is counted, logged and passed to the listeners.
            orders.execute("order-7", 3, ctx -> {
                System.out.println("audit " + ctx.objectKey() + " at priority " + ctx.priority());
                return null;
            });
            // docs:getting-started:submit END
            assertThat(placed.get(10, TimeUnit.SECONDS)).isEqualTo("placed order-42");
            assertThat(counted.get(10, TimeUnit.SECONDS)).isEqualTo(1);

            // docs:getting-started:await-reply BEGIN
            CompletableFuture<String> paid = orders.submit("order-42", 1, ctx -> ctx.awaitReply(
                    payments.charge("order-42"),                 // asynchronous work started by the action
                    Duration.ofSeconds(2),                       // then a ReplyTimeoutException
                    (c, receipt, failure) -> failure == null ? "paid: " + receipt : "not paid: " + failure.getMessage()));
            // docs:getting-started:await-reply END
            assertThat(paid.get(10, TimeUnit.SECONDS)).isEqualTo("paid: receipt-order-42");

            // docs:getting-started:statistics BEGIN
            BackplaneStatistics stats = backplane.statistics();
            System.out.println(stats.totals().completed() + " completed, " + stats.totals().failed() + " failed, "
                    + stats.cpu().usedLastPeriod().toMillis() + " ms CPU in the last period");
            for (PriorityStatistics p : stats.priorities()) {
                System.out.println("priority " + p.priority() + ": " + p.readyDepth() + " ready, "
                        + p.usedThisPeriod() + " of " + (p.unlimited() ? "unlimited" : p.quota()) + " used");
            }
            ComponentStatistics orderStats = orders.statistics();
            System.out.println(orderStats.outstanding() + " of " + orderStats.operationLimit() + " outstanding, mean run "
                    + orderStats.counts().meanRunTime().toNanos() / 1000 + " µs");
            // docs:getting-started:statistics END
            assertThat(stats.priorities()).hasSize(4);
            assertThat(stats.totals().submitted()).isEqualTo(4);
            assertThat(orderStats.operationLimit()).isEqualTo(10_000);
        } finally {
            backplane.close();
        }
        assertThat(backplane.statistics().totals().completed()).isEqualTo(4);
    }

    @Test
    void aReplyThatNeverComesTimesOut() throws Exception {
        ManualClock clock = new ManualClock();
        try (Backplane backplane = Backplane.builder("shop").clock(clock).stepMode().build()) {
            BackplaneComponent orders = backplane.install(ComponentSpec.named("orders"));
            Payments payments = silentPayments;
            CompletableFuture<String> paid = orders.submit("order-42", 1, ctx -> ctx.awaitReply(
                    payments.charge("order-42"),
                    Duration.ofSeconds(2),
                    (c, receipt, failure) -> failure == null ? "paid: " + receipt : "not paid: " + failure.getMessage()));
            backplane.stepper().runUntilIdle();
            assertThat(backplane.statistics().waitingObjects()).isEqualTo(1);
            clock.advance(Duration.ofSeconds(2));
            backplane.stepper().runUntilIdle();
            assertThat(paid.get()).startsWith("not paid: no reply within PT2S");
            assertThat(new ReplyTimeoutException("orders", "order-42", Duration.ofSeconds(2)).getMessage())
                    .isEqualTo("no reply within PT2S for object 'order-42' of component 'orders'");
        }
    }

    @Test
    void componentsEndpointsAndStates() throws Exception {
        try (Backplane backplane = Backplane.builder("shop").policy(BackplanePolicy.builder().threads(2).build()).build()) {
            List<String> started = new ArrayList<>();
            // docs:getting-started:modules BEGIN
            backplane.install(ComponentSpec.named("inventory")
                    .onEnter(ComponentState.PRIMARY, (ctx, from, to) -> started.add("inventory")));
            BackplaneComponent orders = backplane.install(ComponentSpec.named("orders")
                    .dependsOn("inventory")                      // enters each state after inventory
                    .onEnter(ComponentState.PRIMARY, (ctx, from, to) -> started.add("orders")));
            ActionEndpoint<String, String> place = orders.endpoint(
                    EndpointSpec.<String, String>named("place", (ctx, orderId) -> "placed " + orderId)
                            .keyedBy(orderId -> orderId)             // the object for each order id
                            .withPriority(1));                       // accepts work in PRIMARY (the default)

            backplane.moveTo(ComponentState.PRIMARY).join();     // START → INITIALIZING → PRIMARY, in order
            CompletableFuture<String> placed = place.call("order-42");
            // docs:getting-started:modules END
            assertThat(started).containsExactly("inventory", "orders");
            assertThat(placed.get(10, TimeUnit.SECONDS)).isEqualTo("placed order-42");
            backplane.moveTo(ComponentState.DOWN).join();
            assertThatThrownBy(() -> place.call("order-43"))
                    .isInstanceOfSatisfying(BackplaneRejectedException.class,
                            e -> assertThat(e.reason()).isEqualTo(BackplaneRejectedException.Reason.STATE));
        }
    }

    @Test
    void backPressure() {
        try (Backplane backplane = Backplane.builder("shop").stepMode().build()) {
            BackplaneComponent orders = backplane.install(ComponentSpec.named("orders").withOperationLimit(1));
            orders.submit("order-1", 1, ctx -> "placed");
            String key = "order-2";
            List<String> outcomes = new ArrayList<>();
            // docs:getting-started:rejection BEGIN
            try {
                orders.submit(key, 1, ctx -> "placed");
            } catch (BackplaneRejectedException busy) {
                // busy.reason(): COMPONENT_LIMIT, BACKPLANE_LIMIT, CLOSED, STATE or OFFLOAD_LIMIT
                if (busy.isRetryable()) {
                    outcomes.add("retry later: " + busy.getMessage());
                }
            }
            // docs:getting-started:rejection END
            assertThat(outcomes).hasSize(1);
            assertThat(outcomes.get(0)).contains("orders");
        }
    }

    @Test
    void timers() {
        ManualClock clock = new ManualClock();
        try (Backplane backplane = Backplane.builder("shop").clock(clock).stepMode().build()) {
            BackplaneComponent orders = backplane.install(ComponentSpec.named("orders"));
            List<String> ran = new ArrayList<>();
            // docs:getting-started:timers BEGIN
            // One-shot and repeating timers: each firing is an action on the object for the key.
            TimerHandle reminder = orders.schedule("order-42", 2, Duration.ofMinutes(15), ctx -> ran.add("remind"));
            TimerHandle sweeper = orders.scheduleAtFixedRate("sweeper", 3, Duration.ofSeconds(1), Duration.ofSeconds(1),
                    ctx -> ran.add("sweep"));
            // A timer endpoint runs only while the component is in an accepting state (default PRIMARY).
            orders.timer(TimerSpec.fixedDelay("report", Duration.ZERO, Duration.ofSeconds(10), ctx -> ran.add("report"))
                    .withPriority(3));
            // docs:getting-started:timers END
            clock.advance(Duration.ofSeconds(3));
            // The fixed-rate timer never has more than one firing pending: 1 queued, 2 skipped.
            assertThat(sweeper.firings()).isEqualTo(1);
            assertThat(sweeper.skippedFirings()).isEqualTo(2);
            backplane.stepper().runUntilIdle();
            assertThat(ran).containsExactly("sweep"); // the component is in START: the timer endpoint waits
            backplane.moveTo(ComponentState.PRIMARY);
            backplane.stepper().runUntilIdle(); // the transitions run: the timer endpoint starts, due at once
            assertThat(ran).containsExactly("sweep");
            clock.advance(Duration.ZERO); // on a manual clock, even a due timer fires only inside advance()
            backplane.stepper().runUntilIdle();
            assertThat(ran).containsExactly("sweep", "report");
            reminder.cancel();
            clock.advance(Duration.ofMinutes(15));
            backplane.stepper().runUntilIdle();
            assertThat(ran).doesNotContain("remind");
            sweeper.cancel();
        }
    }

    // docs:getting-started:step-mode BEGIN
    @Test
    void urgentWorkRunsFirstAndTimersFireOnlyWhenTheClockMoves() {
        ManualClock clock = new ManualClock();
        try (Backplane backplane = Backplane.builder("test").clock(clock).stepMode().build()) {
            BackplaneComponent app = backplane.install(ComponentSpec.named("app"));
            List<String> ran = new ArrayList<>();
            app.submit("bulk", 3, ctx -> ran.add("bulk"));
            app.submit("urgent", 0, ctx -> ran.add("urgent"));
            TimerHandle timer = app.schedule("later", 1, Duration.ofSeconds(5), ctx -> ran.add("timer"));

            assertThat(backplane.stepper().runUntilIdle()).isEqualTo(2);   // nothing ran before this call
            assertThat(ran).containsExactly("urgent", "bulk");

            clock.advance(Duration.ofSeconds(5));                          // the timer queues its action here
            assertThat(backplane.stepper().runNext()).isEqualTo(new Stepper.Step(Stepper.Kind.RAN, "app", "later", 1));
            assertThat(ran).containsExactly("urgent", "bulk", "timer");
            assertThat(timer.firings()).isEqualTo(1);
            assertThat(backplane.stepper().runNext()).isEqualTo(Stepper.Step.IDLE);
        }
    }
    // docs:getting-started:step-mode END
}
