package io.appbackplane.spring.executor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.appbackplane.Backplane;
import io.appbackplane.BackplaneRejectedException;
import io.appbackplane.spring.annotation.AppComponent;
import io.appbackplane.spring.annotation.Endpoint;
import io.appbackplane.spring.annotation.ObjectKey;
import io.appbackplane.spring.autoconfigure.BackplaneAutoConfiguration;
import io.appbackplane.spring.autoconfigure.BackplaneRegistry;
import io.appbackplane.spring.autoconfigure.InvalidBackplanePropertyException;
import io.appbackplane.spring.autoconfigure.UnknownBackplaneSettingException;
import io.appbackplane.spring.docs.executors.ReportJobs;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.task.TaskExecutionAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.core.task.AsyncTaskExecutor;
import org.springframework.core.task.TaskRejectedException;
import org.springframework.scheduling.annotation.Async;
import org.springframework.scheduling.annotation.EnableAsync;
import org.springframework.scheduling.support.PeriodicTrigger;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * {@code backplane.executors.<name>}: Spring executors and schedulers whose tasks run as actions of
 * a component at a priority, in a real context with Spring Boot's task-execution auto-configuration
 * and {@code @EnableAsync}.
 */
class BackplaneExecutorsTest {

    private static final long WAIT_SECONDS = 30;

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(TaskExecutionAutoConfiguration.class, BackplaneAutoConfiguration.class,
                    BackplaneExecutorsAutoConfiguration.class))
            .withUserConfiguration(App.class)
            .withPropertyValues("backplane.configs.default.threads=1",
                    "backplane.executors.bulk.component=reports", "backplane.executors.bulk.priority=5",
                    "backplane.executors.serial.component=reports", "backplane.executors.serial.key=ledger");

    @Test
    void asyncWithTheExecutorsName_runsOnABackplaneWorkerAtItsPriority() {
        runner.run(context -> {
            assertThat(context).hasNotFailed();
            Backplane backplane = context.getBean(BackplaneRegistry.class).get("default");
            long atFiveBefore = actionsAt(backplane, 5);
            AsyncJobs jobs = context.getBean(AsyncJobs.class);

            assertThat(jobs.onBulk().get(WAIT_SECONDS, TimeUnit.SECONDS)).as("ran on a backplane worker").isTrue();
            assertThat(actionsAt(backplane, 5)).isEqualTo(atFiveBefore + 1);
            BackplaneTaskExecutor bulk = context.getBean("bulk", BackplaneTaskExecutor.class);
            assertThat(bulk.component().name()).isEqualTo("reports");
            assertThat(bulk.priority()).isEqualTo(5);
        });
    }

    @Test
    void aPlainAsyncAndInjectionByType_stayWithSpringBootsExecutor_theBackplaneExecutorsAreNotDefaultCandidates() {
        runner.run(context -> {
            assertThat(context).hasNotFailed().hasBean("applicationTaskExecutor");
            assertThat(context.getBean(AsyncJobs.class).plain().get(WAIT_SECONDS, TimeUnit.SECONDS)).isFalse();
            assertThat(context.getBean(ExecutorUser.class).executor()).isSameAs(context.getBean("applicationTaskExecutor"));
        });
    }

    @Test
    void supplyAsyncAndReactorsFromExecutor_runOnBackplaneWorkers() {
        runner.run(context -> {
            Backplane backplane = context.getBean(BackplaneRegistry.class).get("default");
            BackplaneTaskExecutor bulk = context.getBean("bulk", BackplaneTaskExecutor.class);
            assertThat(CompletableFuture.supplyAsync(backplane::isWorkerThread, bulk).get(WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();
            assertThat(Mono.fromCallable(backplane::isWorkerThread).subscribeOn(Schedulers.fromExecutor(bulk))
                    .block(Duration.ofSeconds(WAIT_SECONDS))).isTrue();
        });
    }

    @Test
    void theDocumentedExample_injectsTheExecutorByNameAndRunsOnBackplaneWorkers() {
        runner.withUserConfiguration(ReportJobs.class).run(context -> {
            Backplane backplane = context.getBean(BackplaneRegistry.class).get("default");
            long atFiveBefore = actionsAt(backplane, 5);
            ReportJobs jobs = context.getBean(ReportJobs.class);
            assertThat(jobs.render("r1").get(WAIT_SECONDS, TimeUnit.SECONDS)).isEqualTo("report r1");
            assertThat(jobs.pages("r12").get(WAIT_SECONDS, TimeUnit.SECONDS)).isEqualTo(3);
            // supplyAsync completes its future inside the task, just before the worker counts the action
            await().atMost(Duration.ofSeconds(WAIT_SECONDS)).untilAsserted(
                    () -> assertThat(actionsAt(backplane, 5)).isEqualTo(atFiveBefore + 2));
        });
    }

    @Test
    void aKeyedExecutor_runsItsTasksOneAtATimeInSubmissionOrder() {
        runner.withPropertyValues("backplane.configs.default.threads=2").run(context -> {
            BackplaneTaskExecutor serial = context.getBean("serial", BackplaneTaskExecutor.class);
            List<Integer> ran = new CopyOnWriteArrayList<>();
            AtomicInteger running = new AtomicInteger();
            AtomicInteger overlaps = new AtomicInteger();
            List<CompletableFuture<Void>> done = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                int n = i;
                done.add(serial.submitCompletable(() -> {
                    if (running.incrementAndGet() > 1) {
                        overlaps.incrementAndGet();
                    }
                    ran.add(n);
                    running.decrementAndGet();
                }));
            }
            CompletableFuture.allOf(done.toArray(CompletableFuture[]::new)).get(WAIT_SECONDS, TimeUnit.SECONDS);
            assertThat(overlaps).hasValue(0);
            assertThat(ran).isSorted().hasSize(200);
        });
    }

    @Test
    void aRejectedTask_failsTheCallWithTaskRejectedExceptionCarryingTheBackplanesReason() {
        runner.withPropertyValues("backplane.components.reports.operation-limit=1", "backplane.components.reports.admission-reserve=0")
                .run(context -> {
                    BackplaneTaskExecutor bulk = context.getBean("bulk", BackplaneTaskExecutor.class);
                    CountDownLatch started = new CountDownLatch(1);
                    CountDownLatch release = new CountDownLatch(1);
                    CompletableFuture<Void> first = bulk.submitCompletable(() -> {
                        started.countDown();
                        awaitQuietly(release);
                    });
                    try {
                        assertThat(started.await(WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();
                        assertThatThrownBy(() -> bulk.execute(() -> {}))
                                .isInstanceOf(TaskRejectedException.class)
                                .hasMessageContaining("backplane executor 'bulk'").hasMessageContaining("component 'reports'")
                                .cause().isInstanceOfSatisfying(BackplaneRejectedException.class,
                                        e -> assertThat(e.reason()).isEqualTo(BackplaneRejectedException.Reason.COMPONENT_LIMIT));
                        assertThatThrownBy(() -> bulk.submit(() -> "x")).isInstanceOf(TaskRejectedException.class);
                    } finally {
                        release.countDown();
                    }
                    first.get(WAIT_SECONDS, TimeUnit.SECONDS);
                });
    }

    @Test
    void asATaskScheduler_oneShotPeriodicAndTriggerTasksRunOnBackplaneWorkers() {
        runner.run(context -> {
            Backplane backplane = context.getBean(BackplaneRegistry.class).get("default");
            BackplaneTaskExecutor bulk = context.getBean("bulk", BackplaneTaskExecutor.class);
            CompletableFuture<Boolean> once = new CompletableFuture<>();
            ScheduledFuture<?> onceFuture = bulk.schedule(() -> once.complete(backplane.isWorkerThread()), Instant.now());
            assertThat(once.get(WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();
            onceFuture.get(WAIT_SECONDS, TimeUnit.SECONDS);
            assertThat(onceFuture.isDone()).isTrue();

            CountDownLatch threeRuns = new CountDownLatch(3);
            AtomicInteger offWorker = new AtomicInteger();
            ScheduledFuture<?> periodic = bulk.scheduleAtFixedRate(() -> {
                if (!backplane.isWorkerThread()) {
                    offWorker.incrementAndGet();
                }
                threeRuns.countDown();
            }, Duration.ofMillis(5));
            assertThat(threeRuns.await(WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();
            assertThat(periodic.cancel(false)).isTrue();
            assertThat(periodic.isCancelled()).isTrue();

            CountDownLatch triggered = new CountDownLatch(3);
            ScheduledFuture<?> byTrigger = bulk.schedule(() -> {
                if (!backplane.isWorkerThread()) {
                    offWorker.incrementAndGet();
                }
                triggered.countDown();
            }, new PeriodicTrigger(Duration.ofMillis(5)));
            assertThat(triggered.await(WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();
            byTrigger.cancel(false);
            assertThat(offWorker).hasValue(0);
        });
    }

    @Test
    void anUnknownComponent_failsStartUpNamingThePropertyAndTheInstalledComponents() {
        runner.withPropertyValues("backplane.executors.bulk.component=repots").run(context -> {
            assertThat(context).hasFailed();
            assertThat(mostSpecificCause(context.getStartupFailure())).isInstanceOf(InvalidBackplanePropertyException.class)
                    .hasMessageContaining("backplane.executors.bulk.component").hasMessageContaining("repots")
                    .hasMessageContaining("reports");
        });
    }

    @Test
    void aPriorityOutOfRange_failsStartUpNamingTheAllowedRange() {
        runner.withPropertyValues("backplane.executors.bulk.priority=8").run(context -> {
            assertThat(context).hasFailed();
            assertThat(mostSpecificCause(context.getStartupFailure())).isInstanceOf(InvalidBackplanePropertyException.class)
                    .hasMessageContaining("backplane.executors.bulk.priority").hasMessageContaining("allowed: 0..7");
        });
    }

    @Test
    void anUnknownBackplane_andAnUnknownKey_failStartUp() {
        runner.withPropertyValues("backplane.executors.bulk.backplane=nope").run(context ->
                assertThat(mostSpecificCause(context.getStartupFailure())).isInstanceOf(InvalidBackplanePropertyException.class)
                        .hasMessageContaining("backplane.executors.bulk.backplane").hasMessageContaining("[default]"));
        runner.withPropertyValues("backplane.executors.bulk.prio=3").run(context ->
                assertThat(mostSpecificCause(context.getStartupFailure())).isInstanceOf(UnknownBackplaneSettingException.class)
                        .hasMessageContaining("backplane.executors.bulk.prio").hasMessageContaining("priority"));
    }

    @Test
    void anExecutorNamedLikeABeanOfTheApplication_failsStartUpNamingTheBean() {
        runner.withPropertyValues("backplane.executors.executorUser.priority=2").run(context ->
                assertThat(mostSpecificCause(context.getStartupFailure())).isInstanceOf(IllegalStateException.class)
                        .hasMessageContaining("backplane.executors.executorUser names a bean 'executorUser' that exists already"));
    }

    @Test
    void withoutAComponent_theTasksRunOnTheBackplanesOwnComponent() {
        runner.withPropertyValues("backplane.executors.plainbp.priority=2").run(context -> {
            BackplaneTaskExecutor executor = context.getBean("plainbp", BackplaneTaskExecutor.class);
            assertThat(executor.component().name()).isEqualTo("default");
            Backplane backplane = context.getBean(BackplaneRegistry.class).get("default");
            assertThat(executor.submitCompletable(backplane::isWorkerThread).get(WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();
        });
    }

    private static Throwable mostSpecificCause(Throwable failure) {
        return NestedExceptionUtils.getMostSpecificCause(failure);
    }

    private static long actionsAt(Backplane backplane, int priority) {
        return backplane.statistics().priorities().get(priority).counts().actionsRun();
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await(WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Configuration(proxyBeanMethods = false)
    @EnableAsync
    static class App {
        @Bean
        Reports reports() {
            return new Reports();
        }

        @Bean
        ExecutorUser executorUser(AsyncTaskExecutor executor) {
            return new ExecutorUser(executor);
        }

        @Bean
        AsyncJobs asyncJobs(BackplaneRegistry registry) {
            return new AsyncJobs(registry);
        }
    }

    /** A component with an endpoint, so "reports" is installed. */
    @AppComponent
    static class Reports {
        @Endpoint
        CompletableFuture<String> render(@ObjectKey String id) {
            return CompletableFuture.completedFuture(id);
        }
    }

    /** Injects an executor by type, as Spring MVC's async support and many libraries do. */
    record ExecutorUser(AsyncTaskExecutor executor) {}

    /** @Async methods: with the executor's name, and without. */
    static class AsyncJobs {
        private final BackplaneRegistry registry;

        AsyncJobs(BackplaneRegistry registry) {
            this.registry = registry;
        }

        @Async("bulk")
        public CompletableFuture<Boolean> onBulk() {
            return CompletableFuture.completedFuture(registry.get("default").isWorkerThread());
        }

        @Async
        public CompletableFuture<Boolean> plain() {
            return CompletableFuture.completedFuture(registry.get("default").isWorkerThread());
        }
    }
}
