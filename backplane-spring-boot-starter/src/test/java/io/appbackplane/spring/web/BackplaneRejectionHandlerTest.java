package io.appbackplane.spring.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.appbackplane.Backplane;
import io.appbackplane.BackplaneComponent;
import io.appbackplane.BackplaneRejectedException;
import io.appbackplane.ComponentSpec;
import io.appbackplane.ComponentState;
import io.appbackplane.EndpointSpec;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;

/**
 * The 503 answer of a rejection says whether to retry: a rejection that may succeed later carries
 * {@code Retry-After}; one after the backplane began to shut down (any reason) does not, so a client
 * goes to another instance instead of retrying a node that is going away.
 */
class BackplaneRejectionHandlerTest {

    private final BackplaneRejectionHandler handler = new BackplaneRejectionHandler(Duration.ofSeconds(3), 0, true);

    @Test
    void aLimitRejectionWhileRunningIsRetryableAndCarriesRetryAfter() {
        try (Backplane backplane = Backplane.builder("web").stepMode().build()) {
            BackplaneComponent gate = backplane.install(ComponentSpec.named("gate").withOperationLimit(1));
            gate.submit("a", 0, ctx -> "held");
            BackplaneRejectedException rejection = catchThrowableOfType(BackplaneRejectedException.class,
                    () -> gate.submit("b", 0, ctx -> "over"));

            ResponseEntity<ProblemDetail> response = handler.rejected(rejection);

            assertThat(response.getStatusCode().value()).isEqualTo(503);
            assertThat(response.getHeaders().getFirst(HttpHeaders.RETRY_AFTER)).isEqualTo("3");
            assertThat(response.getBody().getProperties()).containsEntry("retryable", true)
                    .containsEntry("reason", "COMPONENT_LIMIT");
        }
    }

    @Test
    void byDefaultTheBodySaysOnlyThatTheServiceIsBusyAndWhenToRetry() {
        try (Backplane backplane = Backplane.builder("web").stepMode().build()) {
            BackplaneComponent gate = backplane.install(ComponentSpec.named("gate").withOperationLimit(1));
            gate.submit("a", 0, ctx -> "held");
            BackplaneRejectedException rejection = catchThrowableOfType(BackplaneRejectedException.class,
                    () -> gate.submit("b", 0, ctx -> "over"));

            ResponseEntity<ProblemDetail> response = new BackplaneRejectionHandler(Duration.ofSeconds(3)).rejected(rejection);

            assertThat(response.getHeaders().getFirst(HttpHeaders.RETRY_AFTER)).isEqualTo("3");
            assertThat(response.getBody().getDetail()).isEqualTo("The service is busy. Retry after 3 seconds.");
            assertThat(response.getBody().getProperties()).containsOnlyKeys("retryable");
            assertThat(response.getBody().toString()).doesNotContain("gate", "web", "COMPONENT_LIMIT");
        }
    }

    @Test
    void aStateRejectionAfterShutdownBeganIsNotRetryableAndHasNoRetryAfter() {
        try (Backplane backplane = Backplane.builder("web").stepMode().build()) {
            BackplaneComponent orders = backplane.install(ComponentSpec.named("orders"));
            var place = orders.endpoint(EndpointSpec.<String, String>named("place", (ctx, order) -> order));
            backplane.moveTo(ComponentState.DOWN);
            backplane.stepper().runUntilIdle();
            backplane.shutdown(Duration.ofSeconds(10));
            BackplaneRejectedException rejection = catchThrowableOfType(BackplaneRejectedException.class,
                    () -> place.call("o-1"));
            assertThat(rejection.reason()).isEqualTo(BackplaneRejectedException.Reason.STATE);

            ResponseEntity<ProblemDetail> response = handler.rejected(rejection);

            assertThat(response.getStatusCode().value()).isEqualTo(503);
            assertThat(response.getHeaders().containsHeader(HttpHeaders.RETRY_AFTER)).isFalse();
            assertThat(response.getBody().getProperties()).containsEntry("retryable", false)
                    .containsEntry("reason", "STATE");
        }
    }

    @Test
    void aClosedRejectionHasNoRetryAfter() {
        try (Backplane backplane = Backplane.builder("web").stepMode().build()) {
            BackplaneComponent orders = backplane.install(ComponentSpec.named("orders"));
            backplane.shutdown(Duration.ZERO);
            BackplaneRejectedException rejection = catchThrowableOfType(BackplaneRejectedException.class,
                    () -> orders.submit("o-1", 0, ctx -> "late"));

            ResponseEntity<ProblemDetail> response = handler.rejected(rejection);

            assertThat(response.getHeaders().containsHeader(HttpHeaders.RETRY_AFTER)).isFalse();
            assertThat(response.getBody().getProperties()).containsEntry("retryable", false).containsEntry("reason", "CLOSED");
        }
    }
}
