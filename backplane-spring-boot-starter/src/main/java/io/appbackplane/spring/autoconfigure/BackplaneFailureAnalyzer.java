package io.appbackplane.spring.autoconfigure;

import io.appbackplane.ComponentGraphException;
import io.appbackplane.ComponentStateException;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.core.Ordered;

/**
 * Explains a start-up failed by the backplane: a bad {@code backplane.*} value (also one Spring Boot
 * could not bind, such as {@code backplane.role: tertiary}), an unknown backplane, template,
 * component or key, a dependency cycle or missing dependency, a state hook that failed, or
 * components that did not come up within {@code backplane.startup-timeout}. Ordered first, so a
 * {@code backplane.*} binding failure gets this analysis rather than Spring Boot's generic one.
 */
public final class BackplaneFailureAnalyzer implements FailureAnalyzer, Ordered {

    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE;
    }

    @Override
    public FailureAnalysis analyze(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof BindException e && propertyName(e).startsWith("backplane.")) {
                return bindFailure(e);
            }
            if (t instanceof UnknownBackplaneSettingException e) {
                return new FailureAnalysis(capitalized(e.getMessage()) + ".", "Correct the name to one of " + e.known()
                        + ", or remove the property.", e);
            }
            if (t instanceof BackplaneStartupTimeoutException e) {
                return startupTimeout(e);
            }
            if (t instanceof InvalidBackplanePropertyException e) {
                return new FailureAnalysis("Invalid value '" + e.value() + "' for property '" + e.property() + "'; "
                        + e.allowed() + ".", "Update your application's configuration: " + e.allowed() + ".", e);
            }
            if (t instanceof UnknownBackplaneException e) {
                return new FailureAnalysis(e.getMessage() + ".", "Configure it under backplane.instances."
                        + e.name() + " (or backplane.configs for a template), or use one of " + e.known() + ".", e);
            }
            if (t instanceof ComponentGraphException e) {
                String action = e.cycle().isEmpty()
                        ? "Install a component named '" + e.missingDependency() + "' (an @AppComponent bean) or remove it from"
                                + " the dependsOn of '" + e.dependent() + "'."
                        : "Break the cycle " + String.join(" → ", e.cycle()) + " by removing one of its dependsOn entries.";
                return new FailureAnalysis("The backplane components' dependencies cannot be satisfied: " + e.getMessage() + ".",
                        action, e);
            }
            if (t instanceof ComponentStateException e) {
                return new FailureAnalysis("Component '" + e.component() + "' could not enter " + e.state() + ": "
                        + e.getMessage() + ".", "Fix the @OnState(" + e.state() + ") hook of '" + e.component()
                        + "' (or of the component it waited for), see the cause below.", e);
            }
        }
        return null;
    }

    /** A value Spring Boot could not bind; for an enum, the allowed values are its constants. */
    private static FailureAnalysis bindFailure(BindException e) {
        Object value = e.getProperty() == null ? null : e.getProperty().getValue();
        Class<?> type = e.getTarget().getType().resolve();
        String allowed;
        if (type != null && type.isEnum()) {
            allowed = "allowed: " + Arrays.stream(type.getEnumConstants())
                    .map(c -> ((Enum<?>) c).name().toLowerCase(Locale.ROOT)).collect(Collectors.joining(", "));
        } else {
            Throwable cause = e.getCause();
            while (cause != null && cause.getCause() != null && cause.getCause() != cause) {
                cause = cause.getCause(); // the root cause's message says what is wrong (our setters' checks, a bad number)
            }
            String message = cause == null ? "" : String.valueOf(cause.getMessage());
            int i = message.indexOf("allowed:");
            allowed = i >= 0 ? message.substring(i) : "allowed: a value of type " + (type == null ? "?" : type.getSimpleName())
                    + " (" + message + ")";
        }
        return new FailureAnalysis("Invalid value '" + value + "' for property '" + propertyName(e) + "'; " + allowed + ".",
                "Update your application's configuration: " + allowed + ".", e);
    }

    /** The property that failed: binding a whole object fails under its prefix, naming the property separately. */
    private static String propertyName(BindException e) {
        return (e.getProperty() != null ? e.getProperty().getName() : e.getName()).toString();
    }

    private static FailureAnalysis startupTimeout(BackplaneStartupTimeoutException e) {
        StringBuilder description = new StringBuilder("Backplane components did not reach " + e.target()
                + " within backplane.startup-timeout (" + e.timeout() + "):");
        e.stuck().forEach(stuck -> description.append(System.lineSeparator()).append("    - ").append(stuck));
        return new FailureAnalysis(description.toString(), "Find out why what holds each component does not finish: a"
                + " state hook that blocks or waits for something unavailable at start-up, or a dependency that is held"
                + " itself. If the components only need longer, raise backplane.startup-timeout. In tests, use the"
                + " backplane-test artifact's step mode (@AutoConfigureBackplane(stepMode = true)) rather than a"
                + " step-mode BackplaneRegistry bean of your own without it.", e);
    }

    private static String capitalized(String text) {
        return text.isEmpty() ? text : Character.toUpperCase(text.charAt(0)) + text.substring(1);
    }
}
