package io.appbackplane.spring;

import static org.assertj.core.api.Assertions.assertThat;

import io.appbackplane.spring.annotation.AppComponent;
import io.appbackplane.spring.annotation.Endpoint;
import io.appbackplane.spring.annotation.ObjectKey;
import io.appbackplane.spring.autoconfigure.BackplaneAutoConfiguration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.aopalliance.intercept.MethodInterceptor;
import org.junit.jupiter.api.Test;
import org.springframework.aop.framework.ProxyFactory;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.beans.factory.config.SmartInstantiationAwareBeanPostProcessor;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.PriorityOrdered;

/**
 * The endpoint advice composes with proxies other post-processors made, the way Spring's
 * {@code @Async} advice does: added first into a proxy that is not frozen (so the bean's other advice
 * runs on the worker), wrapping a frozen one instead of failing; and the bean type announced ahead of
 * instantiation (what AOT uses to generate the proxy class) is the proxy's.
 */
class ProxyCompositionTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(BackplaneAutoConfiguration.class))
            .withUserConfiguration(App.class);

    @Test
    void aProxyThatIsNotFrozenGetsTheDispatchFirstAndItsOwnAdviceRunsOnTheWorker() {
        runner.withBean(Traced.class, () -> new Traced(false)).run(context -> {
            Echo echo = context.getBean(Echo.class);
            assertThat(echo.echo("k", Thread.currentThread().getName()).get(10, TimeUnit.SECONDS)).isEqualTo("k");
            assertThat(echo.threads()).hasSize(1).allSatisfy(name -> assertThat(name).isNotEqualTo(Thread.currentThread().getName()));
            assertThat(context.getBean(Traced.class).adviceThreads).as("the other advice ran where the body ran")
                    .isEqualTo(echo.threads());
        });
    }

    @Test
    void aFrozenProxyIsWrappedInsteadOfFailingStartUp() {
        runner.withBean(Traced.class, () -> new Traced(true)).run(context -> {
            assertThat(context).hasNotFailed();
            Echo echo = context.getBean(Echo.class);
            assertThat(echo.echo("k", "caller").get(10, TimeUnit.SECONDS)).isEqualTo("k");
            assertThat(echo.threads()).hasSize(1).allSatisfy(name -> assertThat(name).isNotEqualTo(Thread.currentThread().getName()));
        });
    }

    @Test
    void theAnnouncedBeanTypeIsTheProxyClass() {
        runner.run(context -> {
            SmartInstantiationAwareBeanPostProcessor processor = ((org.springframework.beans.factory.support.AbstractBeanFactory) context.getBeanFactory())
                    .getBeanPostProcessors().stream()
                    .filter(p -> p.getClass().getSimpleName().equals("AppComponentPostProcessor"))
                    .map(SmartInstantiationAwareBeanPostProcessor.class::cast).findFirst().orElseThrow();
            Class<?> type = processor.determineBeanType(Echo.class, "echo");
            assertThat(type.getName().contains(org.springframework.util.ClassUtils.CGLIB_CLASS_SEPARATOR)).as(type.getName()).isTrue();
            assertThat(type).isAssignableTo(Echo.class);
            assertThat(context.getBean("echo").getClass()).isEqualTo(type);
            assertThat(processor.determineBeanType(String.class, "other")).isEqualTo(String.class);
        });
    }

    @AppComponent("echo")
    static class Echo {
        private final List<String> threads = new CopyOnWriteArrayList<>();

        public List<String> threads() {
            return threads;
        }

        @Endpoint
        public CompletableFuture<String> echo(@ObjectKey String key, String caller) {
            threads.add(Thread.currentThread().getName());
            return CompletableFuture.completedFuture(key);
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class App {
        @Bean
        Echo echo() {
            return new Echo();
        }
    }

    /** Another post-processor that proxies the component first, with advice of its own. */
    static final class Traced implements BeanPostProcessor, PriorityOrdered {
        final List<String> adviceThreads = new CopyOnWriteArrayList<>();
        private final boolean frozen;

        Traced(boolean frozen) {
            this.frozen = frozen;
        }

        @Override
        public Object postProcessAfterInitialization(Object bean, String beanName) {
            if (!(bean instanceof Echo)) {
                return bean;
            }
            ProxyFactory factory = new ProxyFactory(bean);
            factory.setProxyTargetClass(true);
            factory.addAdvice((MethodInterceptor) invocation -> {
                if (invocation.getMethod().getName().equals("echo")) {
                    adviceThreads.add(Thread.currentThread().getName());
                }
                return invocation.proceed();
            });
            factory.setFrozen(frozen);
            return factory.getProxy();
        }

        @Override
        public int getOrder() {
            return Ordered.HIGHEST_PRECEDENCE;
        }
    }

}
