package io.appbackplane.spring.context;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.appbackplane.ActionContext;
import io.appbackplane.spring.annotation.AppComponent;
import io.appbackplane.spring.annotation.Endpoint;
import io.appbackplane.spring.annotation.ObjectKey;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.tracing.handler.DefaultTracingObservationHandler;
import io.micrometer.tracing.test.simple.SimpleSpan;
import io.micrometer.tracing.test.simple.SimpleTracer;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.MDC;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;
import org.springframework.core.task.AsyncTaskExecutor;
import org.springframework.security.access.prepost.PreAuthorize;
import org.springframework.security.authentication.AuthenticationCredentialsNotFoundException;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.config.annotation.method.configuration.EnableMethodSecurity;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.authority.AuthorityUtils;
import org.springframework.security.core.context.SecurityContextHolder;

/**
 * The caller's context reaches the work done for it, with a real {@link ObservationRegistry}
 * tracing into Micrometer's {@link SimpleTracer} (spans with trace, span and parent ids), SLF4J's
 * MDC and Spring Security's {@code SecurityContext}: in the action (where spans it makes are
 * children of {@code backplane.action.run}, itself under the caller's span, and {@code
 * @PreAuthorize} sees the caller), in the reply handler that continues it, and in tasks of a
 * {@code backplane.executors} executor.
 */
@SpringBootTest(classes = ContextPropagationTest.App.class, properties = {
        "backplane.observations.enabled=true",
        "backplane.executors.jobs.component=ledger"})
class ContextPropagationTest {

    @Autowired
    SimpleTracer tracer;

    @Autowired
    ObservationRegistry registry;

    @Autowired
    Ledger ledger;

    @Autowired
    @Qualifier("jobs")
    AsyncTaskExecutor jobs;

    @BeforeEach
    void asACallerWithARequest() {
        tracer.getSpans().clear(); // spans of earlier tests and of start-up
        MDC.put("request", "r-42");
        SecurityContextHolder.getContext().setAuthentication(clerk());
    }

    @AfterEach
    void clear() {
        MDC.clear();
        SecurityContextHolder.clearContext();
    }

    @Test
    void spansMadeInAnActionAreChildrenOfItsRunObservation_whichIsUnderTheCallersSpan() throws Exception {
        String seen = inRequest("http", () -> ledger.post("acct-1").get(10, SECONDS));

        assertThat(seen).isEqualTo("posted");
        SimpleSpan http = span("http");
        SimpleSpan run = span("run ledger");
        SimpleSpan inner = span("ledger.write");
        assertThat(run.getParentId()).as("the run under the caller's span").isEqualTo(http.getSpanId());
        assertThat(inner.getParentId()).as("a span made in the action is a child of its run").isEqualTo(run.getSpanId());
        assertThat(List.of(run.getTraceId(), inner.getTraceId())).containsOnly(http.getTraceId());
    }

    @Test
    void theActionSeesTheCallersMdcAndSecurityContext_andPreAuthorizeChecksTheCaller() throws Exception {
        assertThat(ledger.whoAmI("acct-2").get(10, SECONDS)).isEqualTo("clerk-7 r-42");

        SecurityContextHolder.clearContext();
        assertThatThrownBy(() -> ledger.whoAmI("acct-3").get(10, SECONDS)).isInstanceOf(ExecutionException.class)
                .hasCauseInstanceOf(AuthenticationCredentialsNotFoundException.class);
    }

    @Test
    void aReplyHandlerRunsWithTheOriginatingRequestsContext() throws Exception {
        CompletableFuture<String> reply = new CompletableFuture<>();
        CompletableFuture<String> settled = inRequest("http", () -> ledger.settle("acct-4", reply, null));
        MDC.clear(); // the reply arrives in another thread, with another context (or none)
        SecurityContextHolder.clearContext();
        CompletableFuture.runAsync(() -> reply.complete("cleared")).get(10, SECONDS);

        assertThat(settled.get(10, SECONDS)).isEqualTo("cleared for clerk-7 r-42");
        SimpleSpan http = span("http");
        SimpleSpan afterReply = span("ledger.settle");
        assertThat(afterReply.getTraceId()).as("the handler's spans are in the request's trace").isEqualTo(http.getTraceId());
        SimpleSpan handlerRun = spanWithId(afterReply.getParentId());
        assertThat(handlerRun.getName()).isEqualTo("run ledger");
        assertThat(spanWithId(handlerRun.getParentId()).getName()).as("the handler's run follows the action that awaited")
                .isEqualTo("run ledger");
    }

    @Test
    void tasksOfABackplaneExecutorRunWithTheSubmittersContext() throws Exception {
        String seen = inRequest("http", () -> jobs.submitCompletable(() -> {
            Observation.createNotStarted("job.work", registry).observe(() -> { });
            return name() + " " + MDC.get("request");
        }).get(10, SECONDS));

        assertThat(seen).isEqualTo("clerk-7 r-42");
        assertThat(span("job.work").getTraceId()).isEqualTo(span("http").getTraceId());
    }

    /** Runs {@code work} inside an observation named {@code name}, as a web request's server observation. */
    private <T> T inRequest(String name, ThrowingSupplier<T> work) throws Exception {
        Observation request = Observation.start(name, registry);
        Observation.Scope scope = request.openScope();
        try {
            return work.get();
        } finally {
            scope.close();
            request.stop();
        }
    }

    /** The one span named {@code name} in the trace of this test's request ("http", made once per test). */
    private SimpleSpan span(String name) {
        String trace = tracer.getSpans().stream().filter(s -> s.getName().equals("http")).map(SimpleSpan::getTraceId)
                .findFirst().orElseThrow(() -> new AssertionError("no request span among " + tracer.getSpans()));
        List<SimpleSpan> named = tracer.getSpans().stream().filter(s -> name.equals(s.getName()) && trace.equals(s.getTraceId())).toList();
        assertThat(named).as("spans named %s in the request's trace among %s", name, tracer.getSpans()).hasSize(1);
        return named.get(0);
    }

    private SimpleSpan spanWithId(String id) {
        return tracer.getSpans().stream().filter(s -> s.getSpanId().equals(id)).findFirst()
                .orElseThrow(() -> new AssertionError("no span " + id + " among " + tracer.getSpans()));
    }

    static Authentication clerk() {
        return UsernamePasswordAuthenticationToken.authenticated("clerk-7", "n/a", AuthorityUtils.createAuthorityList("ROLE_CLERK"));
    }

    static String name() {
        Authentication authentication = SecurityContextHolder.getContext().getAuthentication();
        return authentication == null ? "anonymous" : authentication.getName();
    }

    @FunctionalInterface
    interface ThrowingSupplier<T> {
        T get() throws Exception;
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @EnableMethodSecurity
    static class App {

        @Bean
        SimpleTracer tracer() {
            return new SimpleTracer();
        }

        @Bean
        ObservationRegistry observationRegistry(SimpleTracer tracer) {
            ObservationRegistry registry = ObservationRegistry.create();
            registry.observationConfig().observationHandler(new DefaultTracingObservationHandler(tracer));
            return registry;
        }

        @Bean
        Ledger ledger(ObservationRegistry registry) {
            return new Ledger(registry);
        }
    }

    @AppComponent("ledger")
    static class Ledger {

        private final ObservationRegistry registry;
        Ledger(ObservationRegistry registry) {
            this.registry = registry;
        }

        @Endpoint
        public CompletableFuture<String> post(@ObjectKey String account) {
            Observation.createNotStarted("ledger.write", registry).observe(() -> { });
            return CompletableFuture.completedFuture("posted");
        }

        @Endpoint
        @PreAuthorize("hasRole('CLERK')")
        public CompletableFuture<String> whoAmI(@ObjectKey String account) {
            return CompletableFuture.completedFuture(name() + " " + MDC.get("request"));
        }

        @Endpoint
        public CompletableFuture<String> settle(@ObjectKey String account, CompletableFuture<String> reply, ActionContext context) {
            context.awaitReply(reply, (ctx, value, failure) -> {
                Observation.createNotStarted("ledger.settle", registry).observe(() -> { });
                return value + " for " + name() + " " + MDC.get("request");
            });
            return null; // the call completes with the reply handler's result
        }
    }
}
