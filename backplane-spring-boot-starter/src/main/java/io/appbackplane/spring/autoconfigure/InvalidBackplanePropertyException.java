package io.appbackplane.spring.autoconfigure;

/**
 * A {@code backplane.*} property has a value the backplane cannot use. Carries the property's full
 * name, the value and what is allowed, for {@link BackplaneFailureAnalyzer}.
 */
public class InvalidBackplanePropertyException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    private final String property;
    private final transient Object value;
    private final String allowed;

    public InvalidBackplanePropertyException(String property, Object value, String allowed, Throwable cause) {
        super("invalid value '" + value + "' for property '" + property + "'; " + allowed, cause);
        this.property = property;
        this.value = value;
        this.allowed = allowed;
    }

    /** The property's full name, such as {@code backplane.instances.orders.cpu-limit}. */
    public String property() {
        return property;
    }

    /** The rejected value. */
    public Object value() {
        return value;
    }

    /** What the property accepts. */
    public String allowed() {
        return allowed;
    }
}
