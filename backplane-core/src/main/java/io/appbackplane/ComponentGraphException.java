package io.appbackplane;

import java.util.List;

/**
 * The components' dependencies cannot be satisfied: a component depends on one that is not
 * installed, or the dependencies form a cycle. Raised before any component moves.
 */
public class ComponentGraphException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    private final List<String> cycle;
    private final String missing;
    private final String dependent;

    private ComponentGraphException(String message, List<String> cycle, String missing, String dependent) {
        super(message);
        this.cycle = cycle;
        this.missing = missing;
        this.dependent = dependent;
    }

    /** {@code dependent} depends on {@code missing}, which is not installed. */
    public static ComponentGraphException missing(String backplane, String dependent, String missing) {
        return new ComponentGraphException("component '" + dependent + "' depends on '" + missing
                + "', which is not installed in backplane '" + backplane + "'", List.of(), missing, dependent);
    }

    /** The components of {@code cycle} depend on each other in a circle (first = last). */
    public static ComponentGraphException cycle(String backplane, List<String> cycle) {
        return new ComponentGraphException("dependency cycle among the components of backplane '" + backplane + "': "
                + String.join(" → ", cycle), List.copyOf(cycle), null, null);
    }

    /** The components of the cycle, first repeated at the end; empty for a missing dependency. */
    public List<String> cycle() {
        return cycle;
    }

    /** The missing dependency's name, or null. */
    public String missingDependency() {
        return missing;
    }

    /** The component that declared the missing dependency, or null. */
    public String dependent() {
        return dependent;
    }
}
