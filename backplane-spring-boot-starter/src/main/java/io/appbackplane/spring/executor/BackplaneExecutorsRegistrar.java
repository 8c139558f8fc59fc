package io.appbackplane.spring.executor;

import io.appbackplane.spring.autoconfigure.BackplaneProperties;
import java.util.Map;
import org.springframework.beans.factory.config.AutowireCapableBeanFactory;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.BeanDefinitionRegistryPostProcessor;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;

/**
 * Registers one {@link BackplaneTaskExecutor} bean per {@code backplane.executors.<name>}, named
 * {@code <name>}. The beans are not default candidates: they are found by name or qualifier
 * ({@code @Async("bulk")}, {@code @Qualifier("bulk")}) only, so declaring one neither becomes the
 * executor of a plain {@code @Async} nor makes Spring Boot's {@code applicationTaskExecutor} back
 * off.
 */
final class BackplaneExecutorsRegistrar implements BeanDefinitionRegistryPostProcessor {

    private final Environment environment;

    BackplaneExecutorsRegistrar(Environment environment) {
        this.environment = environment;
    }

    @Override
    public void postProcessBeanDefinitionRegistry(BeanDefinitionRegistry registry) {
        Map<String, BackplaneProperties.Executor> executors = Binder.get(environment)
                .bind("backplane.executors", Bindable.mapOf(String.class, BackplaneProperties.Executor.class))
                .orElse(Map.of());
        for (String name : executors.keySet()) {
            if (registry.containsBeanDefinition(name)) {
                if (isExecutorDefinition(registry.getBeanDefinition(name))) {
                    continue; // an AOT-processed application: the code generated at build time registered it already
                }
                throw new IllegalStateException("backplane.executors." + name + " names a bean '" + name
                        + "' that exists already; allowed: a bean name not otherwise in use");
            }
            RootBeanDefinition definition = new RootBeanDefinition(BackplaneTaskExecutor.class);
            definition.getConstructorArgumentValues().addIndexedArgumentValue(0, name);
            definition.setAutowireMode(AutowireCapableBeanFactory.AUTOWIRE_CONSTRUCTOR);
            definition.setDefaultCandidate(false);
            definition.setDescription("backplane.executors." + name);
            registry.registerBeanDefinition(name, definition);
        }
    }

    /**
     * Whether {@code definition} is one this registrar made: the bean class is the starter's own
     * executor, which no application declares itself. Spring AOT runs this registrar at build time
     * and turns its definitions into generated code, and the application started from that code
     * still runs the registrar: it must then find its own definitions and leave them be.
     */
    static boolean isExecutorDefinition(BeanDefinition definition) {
        return definition instanceof RootBeanDefinition root && root.hasBeanClass()
                && root.getBeanClass() == BackplaneTaskExecutor.class;
    }

    @Override
    public void postProcessBeanFactory(ConfigurableListableBeanFactory beanFactory) {
        // everything happens on the registry
    }
}
