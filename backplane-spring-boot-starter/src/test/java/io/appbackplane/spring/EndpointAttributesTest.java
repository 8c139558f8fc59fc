package io.appbackplane.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.appbackplane.ReplyTimeoutException;
import io.appbackplane.spring.annotation.AppComponent;
import io.appbackplane.spring.annotation.Endpoint;
import io.appbackplane.spring.annotation.ObjectKey;
import io.appbackplane.spring.annotation.ScheduledEndpoint;
import io.appbackplane.spring.autoconfigure.BackplaneAutoConfiguration;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** @Endpoint(replyTimeout) and ${...} placeholders in endpoint and timer attributes. */
class EndpointAttributesTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(BackplaneAutoConfiguration.class))
            .withUserConfiguration(Config.class)
            .withPropertyValues("backplane.configs.default.threads=2", "desk.timeout=100ms", "desk.rate=20ms");

    @Test
    void aReturnedFutureThatTakesLongerThanTheReplyTimeoutFailsTheCallWithReplyTimeoutException() {
        runner.run(context -> {
            Desk desk = context.getBean(Desk.class);
            CompletableFuture<String> never = desk.slow("k", new CompletableFuture<>());
            assertThat(never).failsWithin(Duration.ofSeconds(10))
                    .withThrowableOfType(ExecutionException.class)
                    .withCauseInstanceOf(ReplyTimeoutException.class);
            // The object is free again: a later call on the same key completes.
            assertThat(desk.slow("k", CompletableFuture.completedFuture("fast")).get(10, TimeUnit.SECONDS)).isEqualTo("fast");
        });
    }

    @Test
    void aReturnedFutureThatCompletesInTimeCompletesTheCall() {
        runner.run(context -> {
            Desk desk = context.getBean(Desk.class);
            CompletableFuture<String> later = new CompletableFuture<>();
            CompletableFuture<String> call = desk.slow("k", later);
            later.complete("in time");
            assertThat(call.get(10, TimeUnit.SECONDS)).isEqualTo("in time");
        });
    }

    @Test
    void scheduledEndpointAttributesResolvePlaceholders() {
        runner.run(context -> {
            Desk desk = context.getBean(Desk.class);
            await().atMost(Duration.ofSeconds(10)).until(() -> desk.ticks().get() >= 3);
        });
    }

    @Test
    void anInvalidReplyTimeoutFailsStartUpNamingTheMethod() {
        runner.withPropertyValues("desk.timeout=soon").run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).rootCause()
                    .hasMessageContaining("Desk.slow has @Endpoint(replyTimeout) = 'soon'")
                    .hasMessageContaining("allowed:");
        });
    }

    @Test
    void aFinalEndpointMethodFailsStartUpBecauseTheProxyCouldNotDispatchIt() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(BackplaneAutoConfiguration.class))
                .withPropertyValues("backplane.configs.default.threads=1")
                .withBean(Sealed.class)
                .run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(context.getStartupFailure()).rootCause()
                            .hasMessageContaining("Sealed.locked is an @Endpoint but is final or private");
                });
    }

    @AppComponent
    static class Sealed {
        @Endpoint
        final CompletableFuture<String> locked() {
            return CompletableFuture.completedFuture("never dispatched");
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class Config {
        @Bean
        Desk desk() {
            return new Desk();
        }
    }

    @AppComponent
    static class Desk {
        private final AtomicInteger ticks = new AtomicInteger();

        AtomicInteger ticks() {
            return ticks;
        }

        @Endpoint(replyTimeout = "${desk.timeout}")
        CompletableFuture<String> slow(@ObjectKey String key, CompletableFuture<String> answer) {
            return answer;
        }

        @ScheduledEndpoint(fixedRate = "${desk.rate}")
        void tick() {
            ticks.incrementAndGet();
        }
    }
}
