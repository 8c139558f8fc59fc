package io.appbackplane.spring.autoconfigure;

import java.util.Collection;
import java.util.List;

/** A component or template names a backplane (or template) that is not configured. */
public class UnknownBackplaneException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    private final String name;
    private final String referencedBy;
    private final List<String> known;

    public UnknownBackplaneException(String what, String name, String referencedBy, Collection<String> known) {
        super(referencedBy + " names " + what + " '" + name + "', which is not configured; known: " + known);
        this.name = name;
        this.referencedBy = referencedBy;
        this.known = List.copyOf(known);
    }

    /** The unknown name. */
    public String name() {
        return name;
    }

    /** Where it was named (a component or property). */
    public String referencedBy() {
        return referencedBy;
    }

    /** The configured names. */
    public List<String> known() {
        return known;
    }
}
