package io.appbackplane.sample.web;

import io.appbackplane.sample.orders.UnknownItemException;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/**
 * The sample's own errors as ProblemDetail bodies. A request the backplane rejected is the
 * starter's (503 with {@code Retry-After}); {@code ResponseStatusException}s and framework errors
 * become ProblemDetails through {@code spring.mvc.problemdetails.enabled}.
 */
@RestControllerAdvice
class ApiErrors {

    @ExceptionHandler(UnknownItemException.class)
    @ResponseStatus(HttpStatus.BAD_REQUEST)
    ProblemDetail unknownItem(UnknownItemException e) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST, e.getMessage());
        problem.setTitle("Unknown item");
        return problem;
    }
}
