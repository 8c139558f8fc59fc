package io.appbackplane.spring.executor;

import io.appbackplane.spring.autoconfigure.BackplaneAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.context.annotation.Import;

/** The {@code backplane.executors.<name>} beans: Spring executors and schedulers that run tasks in a backplane. */
@AutoConfiguration(after = BackplaneAutoConfiguration.class)
@ConditionalOnBooleanProperty(name = "backplane.enabled", matchIfMissing = true)
@Import(BackplaneExecutorsRegistrar.class)
public final class BackplaneExecutorsAutoConfiguration {
}
