package io.appbackplane;

/**
 * Where an endpoint's request runs: the object's key and the priority (0 most urgent).
 *
 * @param key the object's key
 * @param priority the priority
 */
public record Route(Object key, int priority) {

    /** A route to the object for {@code key} at {@code priority}. */
    public static Route to(Object key, int priority) {
        return new Route(key, priority);
    }
}
