package io.appbackplane.spring.autoconfigure;

import java.util.Collection;
import java.util.List;

/**
 * A {@code backplane.*} property names something that does not exist: a component that is not
 * installed ({@code backplane.components.tikets.operation-limit}) or a key a setting does not have
 * ({@code backplane.instances.orders.thraeds}). Lists the known names, for {@link
 * BackplaneFailureAnalyzer}: a typo must not pass silently while the intended setting keeps its
 * default.
 */
public class UnknownBackplaneSettingException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    private final String property;
    private final List<String> known;

    /**
     * @param property the property's full name
     * @param problem what is unknown, such as "names component 'tikets', which is not installed"
     * @param knownWhat what {@code known} lists, such as "installed components"
     * @param known the names that would be accepted in its place
     */
    public UnknownBackplaneSettingException(String property, String problem, String knownWhat, Collection<String> known) {
        super("property '" + property + "' " + problem + "; " + knownWhat + ": " + known);
        this.property = property;
        this.known = List.copyOf(known);
    }

    /** The property's full name. */
    public String property() {
        return property;
    }

    /** The names that would be accepted. */
    public List<String> known() {
        return known;
    }
}
