package io.appbackplane.spring.autoconfigure;

import io.appbackplane.Backplane;

/**
 * Customizes each backplane the auto-configuration builds from {@code backplane.*} properties,
 * after its policy and listeners are set: declare one as a bean, for example to build the
 * backplanes on a {@link io.appbackplane.ManualClock} in {@linkplain Backplane.Builder#stepMode()
 * step mode} for tests (the {@code backplane-test} artifact does so with
 * {@code @AutoConfigureBackplane(stepMode = true)}). Customizers run in their {@code @Order}.
 */
@FunctionalInterface
public interface BackplaneBuilderCustomizer {

    /** Customizes the builder of the backplane named {@code name}. */
    void customize(String name, Backplane.Builder builder);
}
