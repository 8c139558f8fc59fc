package io.appbackplane;

/**
 * Decides, inside the backplane, where a raw request goes when deciding is too expensive for the
 * caller's thread (scheduling rule 10): the request is queued to the component's high-priority
 * digester object, whose action calls this to choose the object, priority and action of the real
 * work. See {@link BackplaneComponent#digest}.
 *
 * @param <M> the raw request's type
 * @param <T> the real work's result type
 */
@FunctionalInterface
public interface Digester<M, T> {

    /** Decides where and how {@code message} is handled; runs as an action on the digester object. */
    Dispatch<T> decide(ActionContext context, M message) throws Exception;

    /**
     * Where a digested request goes.
     *
     * @param key the object that runs the real work
     * @param priority its priority
     * @param action the real work
     */
    record Dispatch<T>(Object key, int priority, Action<T> action) {

        /** The real work of a digested request. */
        public static <T> Dispatch<T> to(Object key, int priority, Action<T> action) {
            return new Dispatch<>(key, priority, action);
        }
    }
}
