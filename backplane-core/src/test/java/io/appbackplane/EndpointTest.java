package io.appbackplane;

import static io.appbackplane.ComponentState.DOWN;
import static io.appbackplane.ComponentState.INITIALIZING;
import static io.appbackplane.ComponentState.PRIMARY;
import static io.appbackplane.ComponentState.SECONDARY;
import static io.appbackplane.ComponentState.START;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.appbackplane.BackplaneRejectedException.Reason;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Modules and states (docs/scheduling.md) and rules 10, 12, 17 for {@link ActionEndpoint}s: accepting states, routing (component
 * object, key, fixed object, pool, digester), per-request priorities, per-endpoint statistics. In
 * step mode on a manual clock unless a test says otherwise.
 */
class EndpointTest {

    private final ManualClock clock = new ManualClock();
    private final List<String> ran = new ArrayList<>();
    private Backplane backplane = Backplane.builder("t")
            .policy(BackplanePolicy.builder().priorities(3).build())
            .clock(clock)
            .stepMode()
            .build();
    // no admission reserve: the statistics test fills a limit of 2 at the endpoints' priority 1
    private final BackplaneComponent app = backplane.install(ComponentSpec.named("app").withAdmissionReserve(0));

    @AfterEach
    void close() {
        backplane.close();
    }

    /** Moves every component to {@code target} and runs the transitions. */
    private void moveTo(ComponentState target) {
        CompletableFuture<Void> moved = backplane.moveTo(target);
        backplane.stepper().runUntilIdle();
        assertThat(moved).isCompletedWithValue(null);
        assertThat(app.state()).isEqualTo(target);
    }

    /** A handler that records "request@objectKey/pPriority" and returns the request. */
    private EndpointHandler<String, String> recording() {
        return (ctx, request) -> {
            ran.add(request + "@" + ctx.objectKey() + "/p" + ctx.priority());
            return request;
        };
    }

    private static Duration ms(long millis) {
        return Duration.ofMillis(millis);
    }

    // ------------------------------------------------------------------ accepting states

    @Test
    void call_outsideTheAcceptingStates_isRejectedWithReasonStateNamingEndpointStatesAndCurrentState_thenAcceptedInPrimary() {
        ActionEndpoint<String, String> orders = app.endpoint(EndpointSpec.named("orders", recording()));
        assertThat(orders.acceptingStates()).containsExactly(PRIMARY);
        assertThat(app.state()).isEqualTo(START);

        assertThatThrownBy(() -> orders.call("o1"))
                .isInstanceOfSatisfying(BackplaneRejectedException.class, e -> {
                    assertThat(e.reason()).isEqualTo(Reason.STATE);
                    assertThat(e.backplane()).isEqualTo("t");
                    assertThat(e.component()).isEqualTo("app");
                    assertThat(e.isRetryable()).isTrue();
                })
                .hasMessageContainingAll("'orders'", "'app'", "[PRIMARY]", "START");
        assertThatThrownBy(() -> orders.send("o2")) // send() is rejected synchronously too
                .isInstanceOf(BackplaneRejectedException.class)
                .hasMessageContaining("START");

        CompletableFuture<Void> initializing = backplane.moveTo(INITIALIZING);
        backplane.stepper().runUntilIdle();
        assertThat(initializing).isCompleted();
        assertThatThrownBy(() -> orders.call("o3"))
                .isInstanceOfSatisfying(BackplaneRejectedException.class, e -> assertThat(e.reason()).isEqualTo(Reason.STATE))
                .hasMessageContainingAll("'orders'", "[PRIMARY]", "INITIALIZING");
        assertThat(backplane.stepper().runUntilIdle()).isZero(); // nothing was queued

        moveTo(PRIMARY);
        CompletableFuture<String> accepted = orders.call("o4");
        assertThat(backplane.stepper().runUntilIdle()).isEqualTo(1);
        assertThat(accepted).isCompletedWithValue("o4");
        assertThat(ran).containsExactly("o4@<component>/p1"); // default: the component's object, priority 1

        moveTo(DOWN);
        assertThatThrownBy(() -> orders.call("o5"))
                .isInstanceOfSatisfying(BackplaneRejectedException.class, e -> assertThat(e.reason()).isEqualTo(Reason.STATE))
                .hasMessageContainingAll("'orders'", "[PRIMARY]", "DOWN");
        assertThat(orders.statistics().counts().rejected()).isEqualTo(4);
        assertThat(orders.statistics().counts().completed()).isEqualTo(1);
    }

    @Test
    void acceptingInPrimaryAndSecondary_keepsAcceptingAcrossARoleSwitch_whileAPrimaryOnlyEndpointRejectsInSecondary() {
        ActionEndpoint<String, String> both = app.endpoint(
                EndpointSpec.named("both", recording()).acceptingIn(PRIMARY, SECONDARY));
        ActionEndpoint<String, String> primaryOnly = app.endpoint(EndpointSpec.named("primary-only", recording()));
        ActionEndpoint<String, String> standby = app.endpoint(EndpointSpec.named("standby", recording()).acceptingIn(SECONDARY));
        assertThat(both.acceptingStates()).containsExactlyInAnyOrder(PRIMARY, SECONDARY);

        moveTo(PRIMARY);
        both.call("b1");
        primaryOnly.call("p1");
        assertThatThrownBy(() -> standby.call("s1"))
                .isInstanceOf(BackplaneRejectedException.class)
                .hasMessageContainingAll("'standby'", "[SECONDARY]", "PRIMARY");
        backplane.stepper().runUntilIdle();

        moveTo(SECONDARY); // the role switch at run time
        both.call("b2");
        standby.call("s2");
        assertThatThrownBy(() -> primaryOnly.call("p2"))
                .isInstanceOfSatisfying(BackplaneRejectedException.class, e -> assertThat(e.reason()).isEqualTo(Reason.STATE))
                .hasMessageContainingAll("'primary-only'", "[PRIMARY]", "SECONDARY");
        backplane.stepper().runUntilIdle();

        moveTo(PRIMARY); // and back
        both.call("b3");
        primaryOnly.call("p3");
        backplane.stepper().runUntilIdle();

        assertThat(ran).extracting(s -> s.substring(0, s.indexOf('@')))
                .containsExactly("b1", "p1", "b2", "s2", "b3", "p3");
        assertThat(both.statistics().counts().rejected()).isZero();
        assertThat(primaryOnly.statistics().counts().rejected()).isEqualTo(1);
        assertThat(standby.statistics().counts().rejected()).isEqualTo(1);
    }

    // ------------------------------------------------------------------ routing and priority

    @Test
    void keyedBy_runsEachRequestOnTheObjectForItsKey_inPerKeyOrder() {
        ActionEndpoint<String, String> keyed = app.endpoint(
                EndpointSpec.named("keyed", recording()).keyedBy(request -> request.substring(0, 1)));
        moveTo(PRIMARY);
        for (String request : List.of("a1", "b1", "a2", "c1", "b2", "a3", "c2")) {
            keyed.call(request);
        }
        assertThat(backplane.stepper().runUntilIdle()).isEqualTo(7);

        assertThat(ran).hasSize(7).allSatisfy(entry -> assertThat(entry).matches("(.)\\d@\\1/p1")); // on the key's object
        assertThat(ran).filteredOn(s -> s.startsWith("a")).containsExactly("a1@a/p1", "a2@a/p1", "a3@a/p1");
        assertThat(ran).filteredOn(s -> s.startsWith("b")).containsExactly("b1@b/p1", "b2@b/p1");
        assertThat(ran).filteredOn(s -> s.startsWith("c")).containsExactly("c1@c/p1", "c2@c/p1");
    }

    @Test
    void onObject_runsEveryRequestOnThatOneObject_inSubmissionOrderWhateverItsPriority() {
        ActionEndpoint<String, String> journal = app.endpoint(EndpointSpec.named("journal", recording())
                .onObject("journal")
                .withPriority(request -> request.startsWith("urgent") ? 0 : 2));
        moveTo(PRIMARY);
        journal.call("bulk1");
        journal.call("urgent1");
        journal.call("bulk2");

        backplane.stepper().runUntilIdle();

        // One object: its actions run one at a time in FIFO order (rule 7), each at its own priority.
        assertThat(ran).containsExactly("bulk1@journal/p2", "urgent1@journal/p0", "bulk2@journal/p2");
        assertThat(app.objectCount()).isLessThanOrEqualTo(2); // the component's object and "journal" at most
    }

    @Test
    void withPriorityFunction_decidesTheServiceOrderOfEachRequest() {
        ActionEndpoint<String, String> work = app.endpoint(EndpointSpec.named("work", recording())
                .keyedBy(request -> request) // one object per request: only priorities decide the order
                .withPriority(request -> switch (request.charAt(0)) {
                    case 'u' -> 0;
                    case 'n' -> 1;
                    default -> 2;
                }));
        moveTo(PRIMARY);
        for (String request : List.of("bulk1", "normal1", "bulk2", "urgent1", "normal2", "urgent2")) {
            work.call(request);
        }

        assertThat(backplane.stepper().runNext()).isEqualTo(new Stepper.Step(Stepper.Kind.RAN, "app", "urgent1", 0));
        work.call("urgent3"); // urgent work arriving now is served at the next action boundary (rule 3)
        backplane.stepper().runUntilIdle();

        assertThat(ran).containsExactly(
                "urgent1@urgent1/p0", "urgent2@urgent2/p0", "urgent3@urgent3/p0",
                "normal1@normal1/p1", "normal2@normal2/p1",
                "bulk1@bulk1/p2", "bulk2@bulk2/p2");
    }

    @Test
    void anInvalidComputedPriorityOrANullKey_failsWithIllegalArgumentExceptionNamingTheEndpoint_andQueuesNothing() {
        ActionEndpoint<Integer, Integer> prioritized = app.endpoint(
                EndpointSpec.<Integer, Integer>named("prioritized", (ctx, request) -> request).withPriority(request -> request));
        ActionEndpoint<String, String> keyed = app.endpoint(
                EndpointSpec.named("keyed", recording()).keyedBy(request -> request.isEmpty() ? null : request));
        moveTo(PRIMARY);

        assertThatThrownBy(() -> prioritized.call(3))
                .isExactlyInstanceOf(IllegalArgumentException.class)
                .hasMessageContainingAll("'prioritized'", "'app'", "priority 3", "0..2");
        assertThatThrownBy(() -> prioritized.send(-1))
                .isExactlyInstanceOf(IllegalArgumentException.class)
                .hasMessageContainingAll("'prioritized'", "priority -1", "0..2");
        assertThatThrownBy(() -> keyed.call(""))
                .isExactlyInstanceOf(IllegalArgumentException.class)
                .hasMessageContainingAll("'keyed'", "'app'", "null object key");

        assertThat(backplane.stepper().runUntilIdle()).isZero();
        assertThat(app.outstanding()).isZero();
        assertThat(prioritized.call(2)).isNotDone(); // the endpoint still works
        backplane.stepper().runUntilIdle();
        assertThat(prioritized.statistics().counts().completed()).isEqualTo(1);
    }

    // ------------------------------------------------------------------ digester

    @Test
    void digestedBy_runsTheRawRequestOnTheDigesterObjectAtPriority0_whichDecidesObjectAndPriority_soUrgentWorkOvertakesBulk() {
        List<String> digested = new ArrayList<>();
        ActionEndpoint<String, String> inbox = app.endpoint(EndpointSpec.named("inbox", recording())
                .withPriority(1) // ignored: the digester decides
                .digestedBy((ctx, request) -> {
                    digested.add(request + "@" + ctx.objectKey() + "/p" + ctx.priority());
                    return request.startsWith("urgent") ? Route.to("fast", 0) : Route.to("slow", 2);
                }));
        moveTo(PRIMARY);

        CompletableFuture<String> bulk1 = inbox.call("bulk1");
        CompletableFuture<String> bulk2 = inbox.call("bulk2");
        assertThat(backplane.stepper().runNext().objectKey()).isSameAs(BackplaneComponent.DIGESTER_KEY);
        assertThat(backplane.stepper().runNext().objectKey()).isSameAs(BackplaneComponent.DIGESTER_KEY);
        assertThat(ran).isEmpty(); // both bulk requests are now queued on "slow" at priority 2

        CompletableFuture<String> urgent = inbox.call("urgent1"); // arrives later
        assertThat(backplane.stepper().runNext())
                .isEqualTo(new Stepper.Step(Stepper.Kind.RAN, "app", BackplaneComponent.DIGESTER_KEY, 0));
        assertThat(backplane.stepper().runNext()).isEqualTo(new Stepper.Step(Stepper.Kind.RAN, "app", "fast", 0));
        backplane.stepper().runUntilIdle();

        assertThat(digested).containsExactly("bulk1@<digester>/p0", "bulk2@<digester>/p0", "urgent1@<digester>/p0");
        assertThat(ran).containsExactly("urgent1@fast/p0", "bulk1@slow/p2", "bulk2@slow/p2");
        assertThat(urgent).isCompletedWithValue("urgent1");
        assertThat(bulk1).isCompletedWithValue("bulk1");
        assertThat(bulk2).isCompletedWithValue("bulk2");
        // The endpoint counts the real work; the digester's actions are the component's.
        ActionCounts counts = inbox.statistics().counts();
        assertThat(counts.submitted()).isEqualTo(3);
        assertThat(counts.completed()).isEqualTo(3);
        assertThat(counts.actionsRun()).isEqualTo(3);
    }

    @Test
    void digestedBy_aFailingDigesterOrAnInvalidRouteFailsTheCall_andTheDigesterObjectGoesOn() {
        ActionEndpoint<String, String> inbox = app.endpoint(EndpointSpec.named("inbox", recording())
                .digestedBy((ctx, request) -> switch (request) {
                    case "boom" -> throw new IllegalStateException("cannot route boom");
                    case "bad-priority" -> Route.to("x", 7);
                    case "no-key" -> Route.to(null, 1);
                    default -> Route.to(request, 1);
                }));
        moveTo(PRIMARY);

        CompletableFuture<String> boom = inbox.call("boom");
        CompletableFuture<String> badPriority = inbox.call("bad-priority");
        CompletableFuture<String> noKey = inbox.call("no-key");
        CompletableFuture<String> fine = inbox.call("fine");
        backplane.stepper().runUntilIdle();

        assertThat(boom).failsWithin(Duration.ZERO).withThrowableThat().havingRootCause()
                .isInstanceOf(IllegalStateException.class).withMessage("cannot route boom");
        assertThat(badPriority).failsWithin(Duration.ZERO).withThrowableThat().havingRootCause()
                .isInstanceOf(IllegalArgumentException.class)
                .withMessageContaining("'inbox'")
                .withMessageContaining("priority 7");
        assertThat(noKey).failsWithin(Duration.ZERO).withThrowableThat().havingRootCause()
                .isInstanceOf(IllegalArgumentException.class)
                .withMessageContaining("'inbox'")
                .withMessageContaining("null object key");
        assertThat(fine).isCompletedWithValue("fine");
        assertThat(ran).containsExactly("fine@fine/p1");
        assertThat(app.outstanding()).isZero();
    }

    // ------------------------------------------------------------------ pools

    @Test
    void pooled_servesOneBacklog_withAsManyObjectsRunningAsTheBackplaneHasWorkers() {
        backplane.setThreads(2); // two places: at most two of the pool's three objects run at once
        ActionEndpoint<String, String> work = app.endpoint(EndpointSpec.named("work", recording()).pooled(3));
        moveTo(PRIMARY);
        for (int i = 1; i <= 5; i++) {
            work.call("r" + i);
        }
        // r1 and r2 each find an idle object that may start; r3..r5 wait in the pool's backlog.
        // An object whose action ended takes the backlog's next request before anything else.
        assertThat(backplane.stepper().runNext().ran()).isTrue(); // r1 on #0, which takes r3
        assertThat(backplane.stepper().runNext().ran()).isTrue(); // r2 on #1, which takes r4
        assertThat(backplane.stepper().runNext().ran()).isTrue(); // r3 on #0, which takes r5
        work.call("r6"); // #2 is idle, but both places are taken: backlogged
        work.call("r7");
        backplane.stepper().runUntilIdle();

        assertThat(ran).containsExactly(
                "r1@endpoint:work#0/p1", "r2@endpoint:work#1/p1", "r3@endpoint:work#0/p1",
                "r4@endpoint:work#1/p1", "r5@endpoint:work#0/p1", "r6@endpoint:work#1/p1",
                "r7@endpoint:work#0/p1");
        assertThat(work.statistics().counts().completed()).isEqualTo(7);
    }

    @Test
    void pooled_withRealThreads_noObjectRunsTwoActionsAtOnce_andIdleObjectsRunInParallel() throws Exception {
        backplane.close();
        BackplanePolicy policy = BackplanePolicy.builder()
                .threads(3)
                .slowActionThreshold(Duration.ofMinutes(1)) // the first actions wait for each other on purpose
                .build();
        backplane = Backplane.builder("threads").policy(policy).build();
        BackplaneComponent pooledApp = backplane.install(ComponentSpec.named("app").withOperationLimit(Integer.MAX_VALUE));
        Map<Object, AtomicBoolean> running = new ConcurrentHashMap<>();
        Map<Object, AtomicInteger> perObject = new ConcurrentHashMap<>();
        Queue<String> violations = new ConcurrentLinkedQueue<>();
        CyclicBarrier firstThree = new CyclicBarrier(3);
        ActionEndpoint<Integer, Object> work = pooledApp.endpoint(EndpointSpec.<Integer, Object>named("work", (ctx, request) -> {
            AtomicBoolean flag = running.computeIfAbsent(ctx.objectKey(), k -> new AtomicBoolean());
            if (!flag.compareAndSet(false, true)) {
                violations.add("request " + request + " started while object " + ctx.objectKey() + " was running");
            }
            try {
                if (request < 3) {
                    // r0..r2 each found an idle object: they can only meet here if they run in parallel.
                    firstThree.await(10, SECONDS);
                } else {
                    for (int spin = 0; spin < 200; spin++) {
                        Thread.onSpinWait();
                    }
                }
                perObject.computeIfAbsent(ctx.objectKey(), k -> new AtomicInteger()).incrementAndGet();
                return ctx.objectKey();
            } finally {
                if (!flag.compareAndSet(true, false)) {
                    violations.add("object " + ctx.objectKey() + " was reset while request " + request + " ran");
                }
            }
        }).pooled(3));
        backplane.moveTo(PRIMARY).get(10, SECONDS);

        List<CompletableFuture<Object>> futures = Collections.synchronizedList(new ArrayList<>());
        for (int i = 0; i < 3; i++) {
            futures.add(work.call(i));
        }
        int producers = 3;
        int perProducer = 3_000;
        List<Thread> threads = new ArrayList<>();
        for (int p = 0; p < producers; p++) {
            int base = 3 + p * perProducer;
            Thread producer = new Thread(() -> {
                for (int i = 0; i < perProducer; i++) {
                    futures.add(work.call(base + i));
                }
            }, "producer-" + p);
            threads.add(producer);
            producer.start();
        }
        for (Thread producer : threads) {
            producer.join(SECONDS.toMillis(30));
            assertThat(producer.isAlive()).as("producer finished").isFalse();
        }
        CompletableFuture.allOf(futures.toArray(CompletableFuture[]::new)).get(30, SECONDS);

        assertThat(violations).isEmpty();
        assertThat(futures.subList(0, 3)).extracting(CompletableFuture::join).doesNotHaveDuplicates(); // three objects
        assertThat(perObject).hasSize(3);
        assertThat(perObject.values().stream().mapToInt(AtomicInteger::get).sum()).isEqualTo(3 + producers * perProducer);
        await().atMost(10, SECONDS).until(backplane::isIdle);
        assertThat(work.statistics().counts().completed()).isEqualTo(3 + producers * perProducer);
        assertThat(work.statistics().counts().failed()).isZero();
    }

    // ------------------------------------------------------------------ statistics and failures

    @Test
    void statistics_countSubmittedCompletedFailedRejectedAndTimeTheActionsOnTheManualClock_andAppearInTheComponentStatistics() {
        ActionEndpoint<String, String> work = app.endpoint(EndpointSpec.<String, String>named("work", (ctx, request) -> {
            clock.advance(request.equals("ok") ? ms(30) : ms(10));
            if (request.equals("fail")) {
                throw new IllegalStateException("failed on purpose");
            }
            return request;
        }).onObject("w"));
        ActionEndpoint<String, String> quiet = app.endpoint(EndpointSpec.named("quiet", recording()));

        assertThatThrownBy(() -> work.call("too early")).isInstanceOf(BackplaneRejectedException.class); // START
        moveTo(PRIMARY);
        app.setOperationLimit(2);
        CompletableFuture<String> ok = work.call("ok");
        CompletableFuture<String> fail = work.call("fail");
        assertThatThrownBy(() -> work.call("over the limit"))
                .isInstanceOfSatisfying(BackplaneRejectedException.class,
                        e -> assertThat(e.reason()).isEqualTo(Reason.COMPONENT_LIMIT));
        clock.advance(ms(20)); // both wait 20 ms; "fail" also waits for "ok" to run (30 ms)
        assertThat(backplane.stepper().runUntilIdle()).isEqualTo(2);
        assertThat(ok).isCompletedWithValue("ok");
        assertThat(fail).isCompletedExceptionally();

        ActionCounts expected = new ActionCounts(
                4, // submitted: the START rejection, ok, fail, the limit rejection
                2, // rejected: for the state and at the limit
                1, // completed
                1, // failed
                2, // actions run
                0, // slow actions
                ms(20 + 50), // total queue time
                ms(50), // max queue time
                ms(30 + 10), // total run time
                ms(30)); // max run time
        assertThat(work.statistics()).isEqualTo(new EndpointStatistics("app", "work", expected));
        assertThat(work.statistics().counts().outstanding()).isZero();

        ComponentStatistics component = app.statistics();
        assertThat(component.state()).isEqualTo(PRIMARY);
        assertThat(component.endpoints()).containsExactly(
                quiet.statistics(), // by name
                work.statistics());
        assertThat(quiet.statistics().counts().submitted()).isZero();
        assertThat(component.counts().rejected()).isEqualTo(2);
        assertThat(component.counts().failed()).isEqualTo(1);
        assertThat(app.endpoints()).containsExactlyInAnyOrder(work, quiet);
    }

    @Test
    void statistics_countSlowActionsPerEndpoint_andTheBackplaneTotalsIncludeStateRejections() {
        ActionEndpoint<Long, Long> work = app.endpoint(EndpointSpec.<Long, Long>named("work", (ctx, millis) -> {
            clock.advance(ms(millis));
            return millis;
        }));
        assertThatThrownBy(() -> work.call(1L)).isInstanceOf(BackplaneRejectedException.class); // START
        moveTo(PRIMARY);
        work.call(150L); // above the default 100 ms slow-action threshold
        work.call(20L);
        backplane.stepper().runUntilIdle();

        assertThat(work.statistics().counts().slowActions()).isEqualTo(1);
        assertThat(app.statistics().counts().slowActions()).isEqualTo(1);
        BackplaneStatistics stats = backplane.statistics();
        // Totals are the sum of the components' counts, the state rejection included.
        assertThat(stats.totals().rejected()).isEqualTo(1);
        assertThat(stats.totals().submitted())
                .isEqualTo(stats.components().stream().mapToLong(c -> c.counts().submitted()).sum());
        assertThat(stats.totals().outstanding()).isZero();
        assertThat(stats.components()).extracting(ComponentStatistics::name).containsExactly("t", "app"); // own first
    }

    @Test
    void send_aFailureIsCountedAndReachesTheListenersAsAnUnobservedFailure() {
        backplane.close();
        List<String> unobserved = new ArrayList<>();
        backplane = Backplane.builder("t")
                .clock(clock)
                .stepMode()
                .listener(new BackplaneListener() {
                    @Override
                    public void onUnobservedFailure(String component, Object objectKey, Throwable failure) {
                        unobserved.add(component + "/" + objectKey + ": " + failure.getMessage());
                    }
                })
                .build();
        BackplaneComponent orders = backplane.install(ComponentSpec.named("orders"));
        ActionEndpoint<String, String> place = orders.endpoint(EndpointSpec.<String, String>named("place", (ctx, request) -> {
            if (request.startsWith("bad")) {
                throw new IllegalArgumentException("rejected order " + request);
            }
            return request;
        }).keyedBy(request -> "customer-" + request.charAt(request.length() - 1)));
        CompletableFuture<Void> moved = backplane.moveTo(PRIMARY);
        backplane.stepper().runUntilIdle();
        assertThat(moved).isCompleted();

        place.send("good-1");
        place.send("bad-2");
        place.send("good-3");
        backplane.stepper().runUntilIdle();

        assertThat(unobserved).containsExactly("orders/customer-2: rejected order bad-2");
        ActionCounts counts = place.statistics().counts();
        assertThat(counts.submitted()).isEqualTo(3);
        assertThat(counts.completed()).isEqualTo(2);
        assertThat(counts.failed()).isEqualTo(1);
    }

    @Test
    void endpoint_aDuplicateNameIsRejectedWithinAComponent_butAllowedInAnother() {
        ActionEndpoint<String, String> first = app.endpoint(EndpointSpec.named("orders", recording()));
        assertThatThrownBy(() -> app.endpoint(EndpointSpec.named("orders", recording()).keyedBy(r -> r)))
                .isExactlyInstanceOf(IllegalArgumentException.class)
                .hasMessageContainingAll("'app'", "'orders'");
        ActionEndpoint<String, String> pool = app.endpoint(EndpointSpec.named("pool", recording()).pooled(3));
        assertThatThrownBy(() -> app.endpoint(EndpointSpec.named("pool", recording()).pooled(2))) // not a pool-size clash
                .isExactlyInstanceOf(IllegalArgumentException.class)
                .hasMessageContainingAll("'app'", "already has an endpoint named 'pool'");
        BackplaneComponent other = backplane.install(ComponentSpec.named("other"));
        ActionEndpoint<String, String> elsewhere = other.endpoint(EndpointSpec.named("orders", recording()));

        assertThat(app.endpoints()).containsExactlyInAnyOrder(first, pool);
        assertThat(elsewhere.component()).isSameAs(other);
        assertThat(first.name()).isEqualTo("orders");
        moveTo(PRIMARY);
        assertThat(first.call("o1")).isNotDone();
        backplane.stepper().runUntilIdle();
        assertThat(ran).containsExactly("o1@<component>/p1");
    }
}
