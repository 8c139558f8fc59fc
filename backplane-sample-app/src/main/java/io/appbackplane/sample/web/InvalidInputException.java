package io.appbackplane.sample.web;

import jakarta.servlet.http.HttpServletRequest;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;

/**
 * A request input the sample does not accept: answered 400 with a ProblemDetail naming the field,
 * the values it allows and what was sent (at most a bounded prefix of it).
 */
public class InvalidInputException extends RuntimeException {

    private final String field;
    private final String allowed;

    /** {@code got} is already fit to show: a bounded quote or a description. */
    protected InvalidInputException(String field, String allowed, String got) {
        super("'" + field + "' must be " + allowed + "; got " + got);
        this.field = field;
        this.allowed = allowed;
    }

    /**
     * {@code field} was sent as {@code value}, which it does not allow.
     *
     * @param field the body field, parameter or path variable, as the client named it
     * @param allowed the values it allows, e.g. "a whole number 1..1000"
     * @param value what was sent (quoted as a bounded prefix); null if it was missing
     */
    public static InvalidInputException value(String field, String allowed, Object value) {
        return new InvalidInputException(field, allowed, Echo.quoted(value));
    }

    /** {@code field} was sent as something that cannot be quoted, described by {@code what} ("an array"). */
    public static InvalidInputException kind(String field, String allowed, String what) {
        return new InvalidInputException(field, allowed, what);
    }

    public String field() {
        return field;
    }

    public String allowed() {
        return allowed;
    }

    /** The 400 answer to {@code request}: title, detail, the properties {@code field} and {@code allowed}, a bounded instance. */
    public ProblemDetail problem(HttpServletRequest request) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST, getMessage());
        problem.setInstance(Echo.instance(request));
        problem.setTitle("Invalid request");
        problem.setProperty("field", field);
        problem.setProperty("allowed", allowed);
        return problem;
    }
}
