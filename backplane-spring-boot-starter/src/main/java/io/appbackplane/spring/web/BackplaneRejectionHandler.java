package io.appbackplane.spring.web;

import io.appbackplane.BackplaneRejectedException;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.CompletionException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/**
 * Answers a request the backplane rejected (a component at its limit, not in an accepting state,
 * or shutting down) with HTTP 503, a {@code Retry-After} header and a ProblemDetail body naming
 * the reason — back pressure the client can act on, instead of a 500. Works for Spring MVC and
 * WebFlux controllers alike.
 */
@RestControllerAdvice
public class BackplaneRejectionHandler {

    /** The ProblemDetail type of a rejection. */
    public static final URI TYPE = URI.create("urn:appbackplane:rejected");

    private final Duration retryAfter;

    public BackplaneRejectionHandler(Duration retryAfter) {
        this.retryAfter = retryAfter;
    }

    @ExceptionHandler(BackplaneRejectedException.class)
    public ResponseEntity<ProblemDetail> rejected(BackplaneRejectedException rejection) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.SERVICE_UNAVAILABLE, rejection.getMessage());
        problem.setType(TYPE);
        problem.setTitle("Busy: request rejected by the backplane");
        problem.setProperty("reason", rejection.reason().name());
        problem.setProperty("backplane", rejection.backplane());
        problem.setProperty("component", rejection.component());
        problem.setProperty("retryable", rejection.isRetryable());
        ResponseEntity.BodyBuilder response = ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE);
        if (rejection.isRetryable()) {
            response.header(HttpHeaders.RETRY_AFTER, String.valueOf(Math.max(1, retryAfter.toSeconds())));
        }
        return response.body(problem);
    }

    /** A rejection that surfaced through a CompletableFuture returned by a controller. */
    @ExceptionHandler(CompletionException.class)
    public ResponseEntity<ProblemDetail> completion(CompletionException failure) throws Throwable {
        if (failure.getCause() instanceof BackplaneRejectedException rejection) {
            return rejected(rejection);
        }
        throw failure;
    }
}
