package io.appbackplane.sample.web;

import jakarta.servlet.http.HttpServletRequest;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/**
 * The sample's own errors as ProblemDetail bodies. A request the backplane rejected is the
 * starter's (503 with {@code Retry-After}); {@code ResponseStatusException}s and framework errors
 * become ProblemDetails through {@code spring.mvc.problemdetails.enabled}. Each controller turns
 * its binding failures into {@link InvalidInputException}s, which know the field and what it allows.
 */
@RestControllerAdvice
class ApiErrors {

    @ExceptionHandler(InvalidInputException.class)
    @ResponseStatus(HttpStatus.BAD_REQUEST)
    ProblemDetail invalidInput(InvalidInputException e, HttpServletRequest request) {
        return e.problem(request);
    }
}
