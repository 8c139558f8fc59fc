package io.appbackplane.test;

import io.appbackplane.ManualClock;
import io.appbackplane.Stepper;
import io.appbackplane.spring.autoconfigure.BackplaneAutoConfiguration;
import io.appbackplane.spring.autoconfigure.BackplaneBuilderCustomizer;
import io.appbackplane.spring.autoconfigure.BackplaneRegistry;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * Step mode for Spring tests, on {@code backplane.test.step-mode=true} (set by {@link
 * AutoConfigureBackplane}): every backplane built from {@code backplane.*} properties is built in
 * step mode on the {@link ManualClock} bean, and a {@link Stepper} bean steps them all. The
 * starter's lifecycle runs their start-up and shutdown transitions on the starting and stopping
 * thread.
 */
@AutoConfiguration(before = BackplaneAutoConfiguration.class)
@ConditionalOnClass(BackplaneAutoConfiguration.class)
@ConditionalOnBooleanProperty("backplane.test.step-mode")
public final class BackplaneTestAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    ManualClock backplaneManualClock() {
        return new ManualClock();
    }

    @Bean
    BackplaneBuilderCustomizer backplaneStepModeCustomizer(ManualClock clock) {
        return (name, builder) -> builder.stepMode().clock(clock);
    }

    @Bean
    @ConditionalOnMissingBean(Stepper.class)
    BackplaneStepper backplaneStepper(BackplaneRegistry registry) {
        return new BackplaneStepper(registry.all().values());
    }
}
