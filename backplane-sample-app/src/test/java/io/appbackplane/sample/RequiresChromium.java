package io.appbackplane.sample;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Marks a test class that drives a real browser ({@link Chromium}). Where Debian's chromium and
 * chromedriver are installed it runs; elsewhere it is skipped with a notice saying how to install
 * them, unless the environment variable {@code CI} is {@code true}, where the missing browser fails
 * it: CI must not pass without having run it. See {@link ChromiumCondition}.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@ExtendWith(ChromiumCondition.class)
public @interface RequiresChromium {}
