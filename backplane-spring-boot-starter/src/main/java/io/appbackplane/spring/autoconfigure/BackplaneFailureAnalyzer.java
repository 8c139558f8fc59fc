package io.appbackplane.spring.autoconfigure;

import io.appbackplane.ComponentGraphException;
import io.appbackplane.ComponentStateException;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;

/**
 * Explains a start-up failed by the backplane: a bad {@code backplane.*} value, an unknown
 * backplane or template, a dependency cycle or missing dependency, or a state hook that failed.
 */
public final class BackplaneFailureAnalyzer implements FailureAnalyzer {

    @Override
    public FailureAnalysis analyze(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
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
}
