package io.appbackplane.spring.web;

import io.appbackplane.BackplaneRejectedException;
import java.net.URI;
import java.time.Duration;
import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/**
 * Answers a request the backplane rejected (a component at its limit, not in an accepting state,
 * or shutting down) with HTTP 503, a {@code Retry-After} header and a ProblemDetail body — back
 * pressure the client can act on, instead of a 500. Works for Spring MVC and WebFlux controllers
 * alike.
 *
 * <p>By default the body says only that the service is busy, whether to retry and when: the
 * client learns no backplane, component or limit. With {@code backplane.web.include-details=true}
 * it also names the reason, backplane and component, and the rejection's message as its detail
 * (for clients inside the operator's own trust boundary).
 *
 * <p>It handles backplane rejections only: Spring matches an {@code @ExceptionHandler} against the
 * exception and each of its causes, so a rejection wrapped in a {@code CompletionException} (a
 * controller's future) is answered here, and every other exception is left to the application's own
 * advice. Its {@linkplain #getOrder() order} is {@code backplane.web.order} (default 0: before advice
 * without an order, which would otherwise turn a rejection into a 500 through a catch-all handler).
 */
@RestControllerAdvice
public class BackplaneRejectionHandler implements Ordered {

    /** The ProblemDetail type of a rejection. */
    public static final URI TYPE = URI.create("urn:appbackplane:rejected");

    private final Duration retryAfter;
    private final int order;
    private final boolean includeDetails;

    /** A handler at order 0 whose bodies name nothing internal. */
    public BackplaneRejectionHandler(Duration retryAfter) {
        this(retryAfter, 0, false);
    }

    /**
     * A handler at {@code order} among the application's controller advice.
     *
     * @param includeDetails whether a body names the rejection's reason, backplane, component and message
     */
    public BackplaneRejectionHandler(Duration retryAfter, int order, boolean includeDetails) {
        this.retryAfter = retryAfter;
        this.order = order;
        this.includeDetails = includeDetails;
    }

    @Override
    public int getOrder() {
        return order;
    }

    @ExceptionHandler(BackplaneRejectedException.class)
    public ResponseEntity<ProblemDetail> rejected(BackplaneRejectedException rejection) {
        long retryAfterSeconds = Math.max(1, retryAfter.toSeconds());
        ProblemDetail problem;
        if (includeDetails) {
            problem = ProblemDetail.forStatusAndDetail(HttpStatus.SERVICE_UNAVAILABLE, rejection.getMessage());
            problem.setTitle("Busy: request rejected by the backplane");
            problem.setProperty("reason", rejection.reason().name());
            problem.setProperty("backplane", rejection.backplane());
            problem.setProperty("component", rejection.component());
        } else {
            problem = ProblemDetail.forStatusAndDetail(HttpStatus.SERVICE_UNAVAILABLE, rejection.isRetryable()
                    ? "The service is busy. Retry after " + retryAfterSeconds + (retryAfterSeconds == 1 ? " second." : " seconds.")
                    : "The service cannot take this request now. Do not retry it here.");
            problem.setTitle("Service busy");
        }
        problem.setType(TYPE);
        problem.setProperty("retryable", rejection.isRetryable());
        ResponseEntity.BodyBuilder response = ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE);
        if (rejection.isRetryable()) {
            response.header(HttpHeaders.RETRY_AFTER, String.valueOf(retryAfterSeconds));
        }
        return response.body(problem);
    }
}
