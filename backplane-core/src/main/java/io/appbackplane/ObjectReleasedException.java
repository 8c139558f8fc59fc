package io.appbackplane;

/** Work was submitted through an {@link ObjectHandle} after the handle was released. */
public class ObjectReleasedException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    public ObjectReleasedException(String message) {
        super(message);
    }
}
