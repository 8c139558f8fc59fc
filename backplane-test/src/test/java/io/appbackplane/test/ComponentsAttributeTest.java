package io.appbackplane.test;

import static org.assertj.core.api.Assertions.assertThat;

import io.appbackplane.spring.autoconfigure.BackplaneAutoConfiguration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;

/** {@link AutoConfigureBackplane#components()}: registers the named components, refuses other classes by name. */
class ComponentsAttributeTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(BackplaneTestAutoConfiguration.class, BackplaneAutoConfiguration.class))
            .withPropertyValues("backplane.test.step-mode=true");

    @Test
    void theNamedComponentIsABeanUnderItsComponentName() {
        runner.withUserConfiguration(WithOrders.class).run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context.getBean("orders")).isInstanceOf(Orders.class);
            assertThat(context.getBean(Orders.class).states()).isNotEmpty();
        });
    }

    @Test
    void aClassThatIsNotAnAppComponentFailsTheContextNamingIt() {
        runner.withUserConfiguration(WithString.class).run(context -> assertThat(context).getFailure()
                .hasMessageContaining("names java.lang.String, which is not an @AppComponent; allowed: classes annotated @AppComponent"));
    }

    @Configuration(proxyBeanMethods = false)
    @AutoConfigureBackplane(components = Orders.class)
    static class WithOrders {}

    @Configuration(proxyBeanMethods = false)
    @AutoConfigureBackplane(components = String.class)
    static class WithString {}
}
