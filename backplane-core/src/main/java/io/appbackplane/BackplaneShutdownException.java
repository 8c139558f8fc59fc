package io.appbackplane;

/**
 * Completes the future of an accepted request that could not finish because its backplane shut
 * down: the drain timeout elapsed before the request ran, or while it waited for a reply.
 */
public class BackplaneShutdownException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    public BackplaneShutdownException(String message) {
        super(message);
    }
}
