package io.appbackplane.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.appbackplane.Backplane;
import io.appbackplane.BackplaneListener;
import io.appbackplane.BackplaneRejectedException;
import io.appbackplane.ComponentState;
import io.appbackplane.Route;
import io.appbackplane.spring.annotation.AppComponent;
import io.appbackplane.spring.annotation.Endpoint;
import io.appbackplane.spring.annotation.EventEndpoint;
import io.appbackplane.spring.annotation.ObjectKey;
import io.appbackplane.spring.annotation.ScheduledEndpoint;
import io.appbackplane.spring.autoconfigure.BackplaneAutoConfiguration;
import io.appbackplane.spring.autoconfigure.BackplaneRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.MDC;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Calls through an {@code @AppComponent} proxy: dispatch by return type, ordering, states, context, events, timers. */
class EndpointProxyTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(BackplaneAutoConfiguration.class))
            .withUserConfiguration(App.class)
            .withPropertyValues("backplane.configs.default.threads=4");

    private final ExecutorService elsewhere = Executors.newFixedThreadPool(4);

    @AfterEach
    void stopExecutor() throws InterruptedException {
        elsewhere.shutdownNow();
        assertThat(elsewhere.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void callsForOneKeyRunOneAtATimeInEachCallersOrderUnderConcurrentCallers() {
        runner.run(context -> {
            Sequencer sequencer = context.getBean(Sequencer.class);
            int callers = 4;
            int callsPerCaller = 2_000;
            int keys = 50;
            CountDownLatch go = new CountDownLatch(1);
            List<CompletableFuture<List<CompletableFuture<Void>>>> submitted = new ArrayList<>();
            for (int c = 0; c < callers; c++) {
                int caller = c;
                submitted.add(CompletableFuture.supplyAsync(() -> {
                    awaitLatch(go);
                    List<CompletableFuture<Void>> calls = new ArrayList<>(callsPerCaller);
                    for (int seq = 0; seq < callsPerCaller; seq++) {
                        calls.add(sequencer.record("key-" + ((seq + caller) % keys), caller, seq));
                    }
                    return calls;
                }, elsewhere));
            }
            go.countDown();
            List<CompletableFuture<Void>> all = new ArrayList<>();
            for (CompletableFuture<List<CompletableFuture<Void>>> s : submitted) {
                all.addAll(s.get(WAIT.toSeconds(), TimeUnit.SECONDS));
            }
            CompletableFuture.allOf(all.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);

            assertThat(sequencer.calls()).isEqualTo(callers * callsPerCaller);
            assertThat(sequencer.overlaps()).as("two calls for one key at once").isZero();
            assertThat(sequencer.outOfOrder()).as("a caller's calls for one key out of its order").isZero();
            assertThat(sequencer.keysSeen()).isEqualTo(keys);
            assertThat(sequencer.workersSeen()).as("keys run in parallel on several workers").hasSizeGreaterThan(1);
        });
    }

    @Test
    void completableFutureReturnCompletesWithTheMethodsResultFromAWorker() {
        runner.run(context -> {
            CompletableFuture<String> echoed = context.getBean(Replies.class).echo("hello");
            assertThat(echoed.get(WAIT.toSeconds(), TimeUnit.SECONDS)).startsWith("hello on backplane-default-worker-");
        });
    }

    @Test
    void futureReturnedByTheMethodIsAwaitedAsAReplyWithoutHoldingAThread() {
        runner.withPropertyValues("backplane.configs.default.threads=1").run(context -> {
            Replies replies = context.getBean(Replies.class);
            Backplane backplane = context.getBean(BackplaneRegistry.class).get("default");
            CompletableFuture<String> later = replies.later("r-1");
            await().atMost(WAIT).until(() -> replies.pending().containsKey("r-1"));
            await().atMost(WAIT).until(() -> backplane.statistics().waitingObjects() == 1);
            assertThat(later).isNotDone();
            assertThat(replies.echo("meanwhile").get(WAIT.toSeconds(), TimeUnit.SECONDS))
                    .as("the only worker is free while the reply is awaited").startsWith("meanwhile on");

            CompletableFuture.runAsync(() -> replies.pending().get("r-1").complete("late r-1"), elsewhere);
            assertThat(later.get(WAIT.toSeconds(), TimeUnit.SECONDS)).isEqualTo("late r-1");
        });
    }

    @Test
    void futureReturnedByTheMethodThatFailsLaterFailsTheCallersFuture() {
        runner.run(context -> {
            Replies replies = context.getBean(Replies.class);
            CompletableFuture<String> later = replies.later("r-2");
            await().atMost(WAIT).until(() -> replies.pending().containsKey("r-2"));
            CompletableFuture.runAsync(() -> replies.pending().get("r-2").completeExceptionally(new IllegalStateException("no stock")),
                    elsewhere);
            assertThatThrownBy(() -> later.get(WAIT.toSeconds(), TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class)
                    .cause().isInstanceOf(IllegalStateException.class).hasMessage("no stock");
        });
    }

    @Test
    void exceptionThrownByTheMethodFailsTheCallersFuture() {
        runner.run(context -> {
            CompletableFuture<String> failed = context.getBean(Replies.class).fail("bad order");
            assertThatThrownBy(() -> failed.get(WAIT.toSeconds(), TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class)
                    .cause().isInstanceOf(IllegalArgumentException.class).hasMessage("bad order");
        });
    }

    @Test
    void voidIsFireAndForgetAndItsFailureIsCountedReportedAndLogged() {
        Logger coreLogger = Logger.getLogger(Backplane.class.getName());
        List<LogRecord> logged = new CopyOnWriteArrayList<>();
        Handler handler = new Handler() {
            @Override
            public void publish(LogRecord record) {
                logged.add(record);
            }

            @Override
            public void flush() {}

            @Override
            public void close() {}
        };
        coreLogger.addHandler(handler);
        try {
            runner.run(context -> {
                Replies replies = context.getBean(Replies.class);
                Failures failures = context.getBean(Failures.class);
                Backplane backplane = context.getBean(BackplaneRegistry.class).get("default");
                CountDownLatch release = new CountDownLatch(1);

                replies.fire("first", release); // returns at once although the body waits
                assertThat(replies.fired()).isEmpty();
                release.countDown();
                await().atMost(WAIT).until(() -> replies.fired().contains("first"));

                replies.fire("boom", release);
                await().atMost(WAIT).until(() -> backplane.component("replies").orElseThrow().statistics().counts().failed() == 1);
                assertThat(failures.failures).singleElement().satisfies(f -> {
                    assertThat(f).contains("replies", "boom from fire");
                });
                assertThat(logged).anySatisfy(r -> {
                    assertThat(r.getLevel()).isEqualTo(Level.WARNING);
                    assertThat(r.getMessage()).contains("replies", "nobody awaited");
                    assertThat(r.getThrown()).hasMessage("boom from fire");
                });
            });
        } finally {
            coreLogger.removeHandler(handler);
        }
    }

    @Test
    void synchronousReturnTypeBlocksTheCallerAndReturnsTheValue() {
        runner.run(context -> {
            Replies replies = context.getBean(Replies.class);
            assertThat(replies.shout("hey")).isEqualTo("HEY on backplane-default-worker");
            assertThatThrownBy(() -> replies.explode()).isInstanceOf(IllegalArgumentException.class).hasMessage("exploded");
        });
    }

    @Test
    void synchronousEndpointCalledFromAWorkerOfTheSameBackplaneFailsFastTellingToReturnAFuture() {
        runner.run(context -> {
            CompletableFuture<String> nested = context.getBean(Caller.class).callShout();
            assertThatThrownBy(() -> nested.get(WAIT.toSeconds(), TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class)
                    .cause().isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("Replies.shout")
                    .hasMessageContaining("CompletableFuture");
            assertThat(context.getBean(Caller.class).callEcho().get(WAIT.toSeconds(), TimeUnit.SECONDS))
                    .as("a future-returning endpoint may be called from a worker").startsWith("nested on");
        });
    }

    @Test
    void callsOutsideTheAcceptingStatesAreRejectedWithReasonState() {
        runner.run(context -> {
            Replies replies = context.getBean(Replies.class);
            Backplane backplane = context.getBean(BackplaneRegistry.class).get("default");
            assertThatThrownBy(replies::standby)
                    .isInstanceOfSatisfying(BackplaneRejectedException.class, e -> {
                        assertThat(e.reason()).isEqualTo(BackplaneRejectedException.Reason.STATE);
                        assertThat(e.component()).isEqualTo("replies");
                    });

            backplane.moveTo(ComponentState.SECONDARY).get(WAIT.toSeconds(), TimeUnit.SECONDS);
            assertThat(replies.standby().get(WAIT.toSeconds(), TimeUnit.SECONDS)).isEqualTo("standing by");
            assertThatThrownBy(() -> replies.echo("x"))
                    .isInstanceOfSatisfying(BackplaneRejectedException.class,
                            e -> assertThat(e.reason()).isEqualTo(BackplaneRejectedException.Reason.STATE));
            assertThatThrownBy(() -> replies.shout("x")).isInstanceOf(BackplaneRejectedException.class);
            assertThatThrownBy(() -> replies.fire("x", new CountDownLatch(0))).isInstanceOf(BackplaneRejectedException.class);
            assertThat(backplane.component("replies").orElseThrow().statistics().counts().rejected()).isEqualTo(4);
        });
    }

    @Test
    void callersMdcIsVisibleInsideTheMethodAndNotLeftOnTheWorker() {
        runner.withPropertyValues("backplane.configs.default.threads=1").run(context -> {
            Replies replies = context.getBean(Replies.class);
            MDC.put("requestId", "r-42");
            CompletableFuture<String> seen;
            try {
                seen = replies.mdc();
            } finally {
                MDC.remove("requestId");
            }
            assertThat(seen.get(WAIT.toSeconds(), TimeUnit.SECONDS)).isEqualTo("r-42");
            assertThat(replies.mdc().get(WAIT.toSeconds(), TimeUnit.SECONDS)).isEqualTo("none");
        });
    }

    @Test
    void eventEndpointReceivesPublishedApplicationEventsInOrder() {
        runner.run(context -> {
            Events events = context.getBean(Events.class);
            IntStream.range(0, 1_000).forEach(n -> context.publishEvent(new OrderPlaced(n)));
            context.publishEvent("not an order");
            await().atMost(WAIT).until(() -> events.received().size() == 1_000);
            assertThat(events.received()).containsExactlyElementsOf(IntStream.range(0, 1_000).boxed().toList());
            assertThat(events.threads()).allSatisfy(t -> assertThat(t).startsWith("backplane-default-worker-"));
        });
    }

    @Test
    void scheduledEndpointFiresAtItsRateAndStopsWhenTheContextCloses() {
        runner.run(context -> {
            Ticker ticker = context.getBean(Ticker.class);
            io.appbackplane.Backplane backplane = context.getBean(BackplaneRegistry.class).get("default");
            await().atMost(WAIT).until(() -> ticker.ticks().get() >= 3);
            context.close();
            int afterClose = ticker.ticks().get();
            await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(2)).until(() -> ticker.ticks().get() == afterClose);
            // This context's backplane is shut down (other test classes' cached contexts may still run
            // backplanes of the same name, so thread names alone would not tell).
            assertThat(backplane.isShutdown()).isTrue();
            assertThat(backplane.statistics().threads()).isZero();
        });
    }

    @Test
    void pooledEndpointBalancesCallsOverItsObjects() {
        runner.run(context -> {
            Pooled pooled = context.getBean(Pooled.class);
            CountDownLatch release = new CountDownLatch(1);
            List<CompletableFuture<Integer>> calls = IntStream.range(0, 6).mapToObj(i -> pooled.work(release)).toList();
            await().atMost(WAIT).until(() -> pooled.started().get() == 3);
            // a fourth object would start on the idle fourth worker; the pool has three
            await().during(Duration.ofMillis(200)).atMost(Duration.ofSeconds(2)).until(() -> pooled.started().get() == 3);
            release.countDown();
            CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new)).get(WAIT.toSeconds(), TimeUnit.SECONDS);
            assertThat(pooled.started().get()).isEqualTo(6);
            assertThat(pooled.maxRunning().get()).isEqualTo(3);
        });
    }

    @Test
    void digesterMethodRoutesEachCallToItsObjectInsideTheBackplane() {
        runner.run(context -> {
            Router router = context.getBean(Router.class);
            CountDownLatch holdA = new CountDownLatch(1);
            CountDownLatch open = new CountDownLatch(0);
            CompletableFuture<String> firstA = router.routed("a", holdA);
            await().atMost(WAIT).until(() -> router.entered().contains("a"));
            CompletableFuture<String> secondA = router.routed("a", open);
            CompletableFuture<String> b = router.routed("b", open);

            assertThat(b.get(WAIT.toSeconds(), TimeUnit.SECONDS)).as("another key is not held up").isEqualTo("b");
            assertThat(secondA).as("same key waits for the first call").isNotDone();
            holdA.countDown();
            assertThat(firstA.get(WAIT.toSeconds(), TimeUnit.SECONDS)).isEqualTo("a");
            assertThat(secondA.get(WAIT.toSeconds(), TimeUnit.SECONDS)).isEqualTo("a");
            assertThat(router.entered()).containsExactly("a", "b", "a");
            assertThat(router.digestedOn()).hasSize(3)
                    .allSatisfy(t -> assertThat(t).startsWith("backplane-default-worker-"));
        });
    }

    private static void awaitLatch(CountDownLatch latch) {
        try {
            assertThat(latch.await(10, TimeUnit.SECONDS)).isTrue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static String worker() {
        return Thread.currentThread().getName();
    }

    record OrderPlaced(int n) {}

    @Configuration(proxyBeanMethods = false)
    static class App {
        @Bean
        Sequencer sequencer() {
            return new Sequencer();
        }

        @Bean
        Replies replies() {
            return new Replies();
        }

        @Bean
        Caller caller(Replies replies) {
            return new Caller(replies);
        }

        @Bean
        Events events() {
            return new Events();
        }

        @Bean
        Ticker ticker() {
            return new Ticker();
        }

        @Bean
        Pooled pooled() {
            return new Pooled();
        }

        @Bean
        Router router() {
            return new Router();
        }

        @Bean
        Failures failures() {
            return new Failures();
        }
    }

    /** Collects failures nobody awaited. */
    static class Failures implements BackplaneListener {
        final List<String> failures = new CopyOnWriteArrayList<>();

        @Override
        public void onUnobservedFailure(String component, Object objectKey, Throwable failure) {
            failures.add(component + ": " + failure.getMessage());
        }
    }

    @AppComponent
    static class Sequencer {
        private final Map<String, AtomicInteger> running = new ConcurrentHashMap<>();
        private final Map<String, Integer> lastSeq = new ConcurrentHashMap<>();
        private final Map<String, Boolean> workers = new ConcurrentHashMap<>();
        private final AtomicInteger calls = new AtomicInteger();
        private final AtomicInteger overlaps = new AtomicInteger();
        private final AtomicInteger outOfOrder = new AtomicInteger();

        @Endpoint
        CompletableFuture<Void> record(@ObjectKey String key, int caller, int seq) {
            if (running.computeIfAbsent(key, k -> new AtomicInteger()).incrementAndGet() != 1) {
                overlaps.incrementAndGet();
            }
            Integer previous = lastSeq.put(key + "/" + caller, seq);
            if (previous != null && previous >= seq) {
                outOfOrder.incrementAndGet();
            }
            workers.put(worker(), Boolean.TRUE);
            Thread.yield();
            calls.incrementAndGet();
            running.get(key).decrementAndGet();
            return CompletableFuture.completedFuture(null);
        }

        int calls() {
            return calls.get();
        }

        int overlaps() {
            return overlaps.get();
        }

        int outOfOrder() {
            return outOfOrder.get();
        }

        int keysSeen() {
            return running.size();
        }

        java.util.Set<String> workersSeen() {
            return workers.keySet();
        }
    }

    @AppComponent
    static class Replies {
        final Map<String, CompletableFuture<String>> pending = new ConcurrentHashMap<>();
        final List<String> fired = new CopyOnWriteArrayList<>();

        Map<String, CompletableFuture<String>> pending() {
            return pending;
        }

        List<String> fired() {
            return fired;
        }

        @Endpoint
        CompletableFuture<String> echo(String text) {
            return CompletableFuture.completedFuture(text + " on " + worker());
        }

        @Endpoint
        CompletableFuture<String> later(@ObjectKey String id) {
            CompletableFuture<String> reply = new CompletableFuture<>();
            pending.put(id, reply);
            return reply;
        }

        @Endpoint
        CompletableFuture<String> fail(String why) {
            throw new IllegalArgumentException(why);
        }

        @Endpoint
        void fire(String what, CountDownLatch release) {
            awaitLatch(release);
            if (what.equals("boom")) {
                throw new IllegalStateException("boom from fire");
            }
            fired.add(what);
        }

        @Endpoint
        String shout(String text) {
            return text.toUpperCase(java.util.Locale.ROOT) + " on " + worker().replaceAll("-\\d+$", "");
        }

        @Endpoint
        String explode() {
            throw new IllegalArgumentException("exploded");
        }

        @Endpoint
        CompletableFuture<String> mdc() {
            String requestId = MDC.get("requestId");
            return CompletableFuture.completedFuture(requestId == null ? "none" : requestId);
        }

        @Endpoint(states = ComponentState.SECONDARY)
        CompletableFuture<String> standby() {
            return CompletableFuture.completedFuture("standing by");
        }
    }

    @AppComponent
    static class Caller {
        private final Replies replies;

        Caller(Replies replies) {
            this.replies = replies;
        }

        @Endpoint
        CompletableFuture<String> callShout() {
            return CompletableFuture.completedFuture(replies.shout("nested"));
        }

        @Endpoint
        CompletableFuture<String> callEcho() {
            return replies.echo("nested");
        }
    }

    @AppComponent
    static class Events {
        final List<Integer> received = new CopyOnWriteArrayList<>();
        final List<String> threads = new CopyOnWriteArrayList<>();

        List<Integer> received() {
            return received;
        }

        List<String> threads() {
            return threads;
        }

        @EventEndpoint
        void on(OrderPlaced event) {
            received.add(event.n());
            threads.add(worker());
        }
    }

    @AppComponent
    static class Ticker {
        final AtomicInteger ticks = new AtomicInteger();

        AtomicInteger ticks() {
            return ticks;
        }

        @ScheduledEndpoint(fixedRate = "50ms")
        void tick() {
            ticks.incrementAndGet();
        }
    }

    @AppComponent
    static class Pooled {
        final AtomicInteger started = new AtomicInteger();
        final AtomicInteger running = new AtomicInteger();
        final AtomicInteger maxRunning = new AtomicInteger();

        AtomicInteger started() {
            return started;
        }

        AtomicInteger maxRunning() {
            return maxRunning;
        }

        @Endpoint(poolSize = 3)
        CompletableFuture<Integer> work(CountDownLatch release) {
            int now = running.incrementAndGet();
            maxRunning.accumulateAndGet(now, Math::max);
            started.incrementAndGet();
            awaitLatch(release);
            running.decrementAndGet();
            return CompletableFuture.completedFuture(now);
        }
    }

    @AppComponent
    static class Router {
        final List<String> entered = new CopyOnWriteArrayList<>();
        final List<String> digestedOn = new CopyOnWriteArrayList<>();

        List<String> entered() {
            return entered;
        }

        List<String> digestedOn() {
            return digestedOn;
        }

        Route route(String orderId, CountDownLatch gate) {
            digestedOn.add(worker());
            return Route.to(orderId, 2);
        }

        @Endpoint(digester = "route")
        CompletableFuture<String> routed(String orderId, CountDownLatch gate) {
            entered.add(orderId);
            awaitLatch(gate);
            return CompletableFuture.completedFuture(orderId);
        }
    }
}
