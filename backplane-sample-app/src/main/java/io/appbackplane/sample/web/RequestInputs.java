package io.appbackplane.sample.web;

import java.util.Optional;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.bind.MissingServletRequestParameterException;
import org.springframework.web.method.annotation.MethodArgumentTypeMismatchException;
import tools.jackson.core.JacksonException;
import tools.jackson.core.exc.StreamReadException;
import tools.jackson.databind.exc.InvalidFormatException;

/** Turns Spring MVC's binding failures into {@link InvalidInputException}s that name the field a client got wrong. */
public final class RequestInputs {

    private RequestInputs() {}

    /**
     * The JSON body field a failed read names, or empty when the body as a whole was wrong (absent,
     * malformed JSON, not an object).
     */
    public static Optional<String> field(HttpMessageNotReadableException failure) {
        return jackson(failure).flatMap(json -> json.getPath().stream()
                .map(JacksonException.Reference::getPropertyName).filter(name -> name != null).findFirst());
    }

    /** What a failed read got for its field: the value if Jackson kept it, else its kind. */
    public static InvalidInputException invalidField(HttpMessageNotReadableException failure, String field, String allowed) {
        Optional<JacksonException> json = jackson(failure);
        if (json.isPresent() && json.get() instanceof InvalidFormatException format) {
            return InvalidInputException.value(field, allowed, format.getValue());
        }
        return InvalidInputException.kind(field, allowed, "a JSON value of another type");
    }

    /** Why the body as a whole could not be read: "no body" or "malformed JSON" or "another JSON value". */
    public static String bodyProblem(HttpMessageNotReadableException failure) {
        Optional<JacksonException> json = jackson(failure);
        if (json.isEmpty()) {
            return "no body";
        }
        return json.get() instanceof StreamReadException ? "malformed JSON" : "another JSON value";
    }

    /** A request parameter or path variable that did not convert to its type. */
    public static InvalidInputException invalidParameter(MethodArgumentTypeMismatchException failure, String allowed) {
        return InvalidInputException.value(failure.getName(), allowed, failure.getValue());
    }

    /** A required request parameter that was not sent. */
    public static InvalidInputException missingParameter(MissingServletRequestParameterException failure, String allowed) {
        return InvalidInputException.value(failure.getParameterName(), allowed, null);
    }

    private static Optional<JacksonException> jackson(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof JacksonException json) {
                return Optional.of(json);
            }
        }
        return Optional.empty();
    }
}
