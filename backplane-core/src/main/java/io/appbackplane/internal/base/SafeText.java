package io.appbackplane.internal.base;

/**
 * Text of a user's object (an object key, an action's result) for log and error messages, built
 * where a failing {@code toString()} must not escape: on a worker between an action's end and its
 * object leaving RUNNING, and on the timer thread. A {@code toString()} that throws would otherwise
 * wedge the object or kill a timer; here it yields the class name and the
 * failure instead.
 */
public final class SafeText {

    private SafeText() {}

    public static String of(Object value) {
        try {
            return String.valueOf(value);
        } catch (RuntimeException | Error e) {
            if (e instanceof VirtualMachineError && !(e instanceof StackOverflowError)) {
                throw e; // out of memory and the like: not the object's fault, and not to be swallowed
            }
            return value.getClass().getName() + "@" + Integer.toHexString(System.identityHashCode(value))
                    + " (its toString() threw " + e.getClass().getName() + ")";
        }
    }
}
