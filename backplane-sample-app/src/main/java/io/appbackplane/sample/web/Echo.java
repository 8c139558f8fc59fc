package io.appbackplane.sample.web;

import jakarta.servlet.http.HttpServletRequest;
import java.net.URI;

/**
 * Client input quoted in an error message: at most {@value #MAX_CODE_POINTS} code points of it,
 * then how long it was, so an answer never reflects a huge input whole. Control characters are
 * shown as {@code ?}.
 */
public final class Echo {

    /** The longest prefix of an input an error message quotes. */
    public static final int MAX_CODE_POINTS = 40;

    /** The longest request path a ProblemDetail's {@code instance} repeats. */
    static final int MAX_PATH = 200;

    private Echo() {}

    /**
     * The request's path for a ProblemDetail's {@code instance}, cut to {@value #MAX_PATH}
     * characters (Spring MVC would otherwise repeat the whole path, however long).
     */
    public static URI instance(HttpServletRequest request) {
        String path = request.getRequestURI();
        if (path.length() > MAX_PATH) {
            int cut = MAX_PATH;
            int escape = path.lastIndexOf('%', cut - 1);
            if (escape > cut - 3) {
                cut = escape; // never split a %XX escape
            }
            path = path.substring(0, cut);
        }
        try {
            return URI.create(path);
        } catch (IllegalArgumentException notAUri) {
            return URI.create(request.getContextPath().isEmpty() ? "/" : request.getContextPath());
        }
    }

    /** {@code value} quoted in single quotes, cut to a bounded prefix; "nothing" for null. */
    public static String quoted(Object value) {
        if (value == null) {
            return "nothing";
        }
        String text = value.toString();
        int length = text.codePointCount(0, text.length());
        String shown = length <= MAX_CODE_POINTS ? text : text.substring(0, text.offsetByCodePoints(0, MAX_CODE_POINTS));
        shown = shown.codePoints().map(c -> Character.isISOControl(c) ? '?' : c)
                .collect(StringBuilder::new, StringBuilder::appendCodePoint, StringBuilder::append).toString();
        return length <= MAX_CODE_POINTS ? "'" + shown + "'" : "'" + shown + "…' (" + length + " characters)";
    }
}
