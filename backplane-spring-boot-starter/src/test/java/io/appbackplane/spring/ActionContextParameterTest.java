package io.appbackplane.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.appbackplane.ActionContext;
import io.appbackplane.ReplyTimeoutException;
import io.appbackplane.spring.annotation.AppComponent;
import io.appbackplane.spring.annotation.Endpoint;
import io.appbackplane.spring.annotation.ObjectKey;
import io.appbackplane.spring.autoconfigure.BackplaneAutoConfiguration;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** An {@code @Endpoint} method that takes an {@link ActionContext}: replies with a timeout, yielding, its key. */
class ActionContextParameterTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(BackplaneAutoConfiguration.class))
            .withUserConfiguration(App.class);

    @Test
    void theBackplaneSuppliesTheRunningActionsContext() {
        runner.run(context -> {
            Conversations conversations = context.getBean(Conversations.class);
            assertThat(conversations.describe("k-1", null).get(10, TimeUnit.SECONDS)).isEqualTo("k-1 at priority 2");
        });
    }

    @Test
    void awaitReplyContinuesTheCallWithTheHandlersResult() {
        runner.run(context -> {
            Conversations conversations = context.getBean(Conversations.class);
            CompletableFuture<String> reply = new CompletableFuture<>();
            CompletableFuture<String> call = conversations.ask("k-2", reply, null);
            assertThat(call).isNotDone();
            reply.complete("pong");
            assertThat(call.get(10, TimeUnit.SECONDS)).isEqualTo("answered pong");
        });
    }

    @Test
    void awaitReplyWithATimeoutFailsTheCallWhenNoReplyComes() {
        runner.run(context -> {
            Conversations conversations = context.getBean(Conversations.class);
            CompletableFuture<String> call = conversations.ask("k-3", new CompletableFuture<>(), null);
            assertThatThrownBy(() -> call.get(10, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                    .hasCauseInstanceOf(ReplyTimeoutException.class);
        });
    }

    @Test
    void yieldToCompletesTheCallWithTheContinuationsResult() {
        runner.run(context -> {
            Conversations conversations = context.getBean(Conversations.class);
            assertThat(conversations.inSteps("k-4", 3, null).get(10, TimeUnit.SECONDS)).isEqualTo(List.of(0, 1, 2));
        });
    }

    @Test
    void aCallerPassingAContextIsToldToPassNull() {
        runner.run(context -> {
            Conversations conversations = context.getBean(Conversations.class);
            ActionContext foreign = conversations.describeContext("k-5", null).get(10, TimeUnit.SECONDS);
            assertThatThrownBy(() -> conversations.describe("k-5", foreign))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("pass null");
        });
    }

    @Test
    void twoActionContextParametersFailStartUp() {
        runner.withUserConfiguration(TwoContextsApp.class).run(context -> assertThat(context).hasFailed()
                .getFailure().rootCause().hasMessageContaining("twice").hasMessageContaining("more than one ActionContext"));
    }

    @AppComponent("conversations")
    static class Conversations {

        @Endpoint(priority = 2)
        public CompletableFuture<String> describe(@ObjectKey String key, ActionContext context) {
            return CompletableFuture.completedFuture(context.objectKey() + " at priority " + context.priority());
        }

        @Endpoint
        public CompletableFuture<ActionContext> describeContext(@ObjectKey String key, ActionContext context) {
            return CompletableFuture.completedFuture(context);
        }

        // docs:getting-started:endpoint-context BEGIN
        @Endpoint
        public CompletableFuture<String> ask(@ObjectKey String key, CompletableFuture<String> reply, ActionContext context) {
            context.awaitReply(reply, Duration.ofMillis(200), (ctx, value, failure) -> {
                if (failure != null) {
                    throw (Exception) failure;               // e.g. ReplyTimeoutException
                }
                return "answered " + value;
            });
            return null;                                     // the reply handler's result completes the call
        }
        // docs:getting-started:endpoint-context END

        @Endpoint
        public CompletableFuture<List<Integer>> inSteps(@ObjectKey String key, int steps, ActionContext context) {
            List<Integer> done = new java.util.ArrayList<>();
            context.yieldTo(step(done, steps));
            return null; // the continuation's result completes the call
        }

        private static io.appbackplane.Action<Object> step(List<Integer> done, int steps) {
            return ctx -> {
                done.add(done.size());
                return done.size() == steps ? done : ctx.yieldTo(step(done, steps));
            };
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class App {
        @Bean
        Conversations conversations() {
            return new Conversations();
        }
    }

    @AppComponent("twice")
    static class TwoContexts {
        @Endpoint
        public CompletableFuture<String> twice(ActionContext first, ActionContext second) {
            return CompletableFuture.completedFuture("");
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class TwoContextsApp {
        @Bean
        TwoContexts twice() {
            return new TwoContexts();
        }
    }
}
