package io.appbackplane;

import java.time.Duration;
import java.util.concurrent.TimeoutException;

/** Delivered to a {@link ReplyHandler} when a reply did not arrive within its timeout. */
public class ReplyTimeoutException extends TimeoutException {

    private static final long serialVersionUID = 1L;

    private final transient Object objectKey;
    private final Duration timeout;

    public ReplyTimeoutException(String component, Object objectKey, Duration timeout) {
        super("no reply within " + timeout + " for object '" + describe(objectKey) + "' of component '" + component + "'");
        this.objectKey = objectKey;
        this.timeout = timeout;
    }

    /** The key's text; built on the timer thread, so a key whose toString() throws must not escape. */
    private static String describe(Object key) {
        try {
            return String.valueOf(key);
        } catch (RuntimeException | LinkageError | AssertionError | StackOverflowError e) {
            return key.getClass().getName() + " (its toString() threw " + e.getClass().getName() + ")";
        }
    }

    /** The key of the object that waited. */
    public Object objectKey() {
        return objectKey;
    }

    /** The timeout that elapsed. */
    public Duration timeout() {
        return timeout;
    }
}
