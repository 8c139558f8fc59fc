package io.appbackplane.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.appbackplane.ActionContext;
import io.appbackplane.ReplyTimeoutException;
import io.appbackplane.spring.annotation.AppComponent;
import io.appbackplane.spring.annotation.Endpoint;
import io.appbackplane.spring.annotation.ObjectKey;
import io.appbackplane.spring.autoconfigure.BackplaneAutoConfiguration;
import io.appbackplane.spring.autoconfigure.BackplaneRegistry;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.NestedExceptionUtils;

/**
 * {@code @Endpoint(blocking = true)}: the body runs on an offload thread, its outcome comes back to
 * the object as a reply, no worker is held and per-key order holds. One worker thread, so a held
 * worker would show.
 */
class BlockingEndpointTest {

    private static final long WAIT = 30;

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(BackplaneAutoConfiguration.class))
            .withUserConfiguration(App.class)
            .withPropertyValues("backplane.configs.default.threads=1");

    @Test
    void aBlockingBodyHoldsNoWorker_anotherKeysCallRunsWhileItIsParked_andItRunsOffTheWorkers() {
        runner.run(context -> {
            Repository repository = context.getBean(Repository.class);
            CompletableFuture<String> parked = repository.load("a");
            try {
                assertThat(repository.started().await(WAIT, TimeUnit.SECONDS)).isTrue();
                assertThat(repository.quick("b").get(WAIT, TimeUnit.SECONDS)).isEqualTo("quick b");
                assertThat(parked).isNotDone();
            } finally {
                repository.release().countDown();
            }
            assertThat(parked.get(WAIT, TimeUnit.SECONDS)).isEqualTo("row a");
            assertThat(repository.bodyOnWorker()).containsExactly(false);
        });
    }

    @Test
    void perKeyOrderHolds_theKeysNextCallRunsAfterTheBlockingBodyReturned() {
        runner.run(context -> {
            Repository repository = context.getBean(Repository.class);
            CompletableFuture<String> first = repository.load("k");
            CompletableFuture<String> second;
            try {
                assertThat(repository.started().await(WAIT, TimeUnit.SECONDS)).isTrue();
                second = repository.quick("k");
                assertThat(repository.quick("other").get(WAIT, TimeUnit.SECONDS)).isEqualTo("quick other");
                assertThat(second).isNotDone();
            } finally {
                repository.release().countDown();
            }
            assertThat(second.get(WAIT, TimeUnit.SECONDS)).isEqualTo("quick k");
            assertThat(first.get(WAIT, TimeUnit.SECONDS)).isEqualTo("row k");
            // "other" ran while the body was parked; the key's next call only after the body returned
            assertThat(repository.order()).containsExactly("quick other", "load k", "quick k");
        });
    }

    @Test
    void aPlainReturnTypeBlocksOnlyTheCaller_andAReplyTimeoutBoundsTheBody() {
        runner.run(context -> {
            Repository repository = context.getBean(Repository.class);
            assertThat(repository.count("x")).isEqualTo(1);
            repository.release().countDown(); // slow() may return once the test is done looking
            CompletableFuture<String> slow = repository.slow("y");
            assertThat(slow.handle((value, failure) -> failure).get(WAIT, TimeUnit.SECONDS))
                    .isInstanceOf(ReplyTimeoutException.class);
        });
    }

    @Test
    void aBlockingEndpointWithAnActionContextParameter_failsStartUpSayingWhy() {
        runner.withUserConfiguration(BadApp.class).run(context -> {
            assertThat(context).hasFailed();
            assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
                    .hasMessageContaining("@Endpoint(blocking = true) and an ActionContext parameter");
        });
    }

    @Configuration(proxyBeanMethods = false)
    static class App {
        @Bean
        Repository repository(BackplaneRegistry registry) {
            return new Repository(registry);
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class BadApp {
        @Bean
        Bad bad() {
            return new Bad();
        }
    }

    @AppComponent
    static class Repository {
        final CountDownLatch started = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final List<Boolean> bodyOnWorker = new CopyOnWriteArrayList<>();
        final List<String> order = new CopyOnWriteArrayList<>();
        private final BackplaneRegistry registry;

        Repository(BackplaneRegistry registry) {
            this.registry = registry;
        }

        // through the component's proxy, fields read as null: tests reach them by these methods
        CountDownLatch started() {
            return started;
        }

        CountDownLatch release() {
            return release;
        }

        List<Boolean> bodyOnWorker() {
            return bodyOnWorker;
        }

        List<String> order() {
            return order;
        }

        /** A JDBC-like call: parks on a latch. */
        @Endpoint(blocking = true)
        public CompletableFuture<String> load(@ObjectKey String key) throws InterruptedException {
            bodyOnWorker.add(registry.get("default").isWorkerThread());
            started.countDown();
            release.await(WAIT, TimeUnit.SECONDS);
            order.add("load " + key);
            return CompletableFuture.completedFuture("row " + key);
        }

        @Endpoint
        public CompletableFuture<String> quick(@ObjectKey String key) {
            order.add("quick " + key);
            return CompletableFuture.completedFuture("quick " + key);
        }

        @Endpoint(blocking = true)
        public int count(@ObjectKey String key) {
            return key.length();
        }

        @Endpoint(blocking = true, replyTimeout = "50ms")
        public CompletableFuture<String> slow(@ObjectKey String key) throws InterruptedException {
            new CountDownLatch(1).await(WAIT, TimeUnit.SECONDS); // longer than the timeout: nothing counts it down
            return CompletableFuture.completedFuture(key);
        }
    }

    @AppComponent
    static class Bad {
        @Endpoint(blocking = true)
        public CompletableFuture<String> load(@ObjectKey String key, ActionContext context) {
            return CompletableFuture.completedFuture(key);
        }
    }
}
