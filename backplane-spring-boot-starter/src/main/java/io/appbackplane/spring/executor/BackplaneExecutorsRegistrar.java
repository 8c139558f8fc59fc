package io.appbackplane.spring.executor;

import io.appbackplane.spring.autoconfigure.BackplaneProperties;
import java.util.Map;
import org.springframework.beans.factory.config.AutowireCapableBeanFactory;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.ImportBeanDefinitionRegistrar;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotationMetadata;

/**
 * Registers one {@link BackplaneTaskExecutor} bean per {@code backplane.executors.<name>}, named
 * {@code <name>}. The beans are not default candidates: they are found by name or qualifier
 * ({@code @Async("bulk")}, {@code @Qualifier("bulk")}) only, so declaring one neither becomes the
 * executor of a plain {@code @Async} nor makes Spring Boot's {@code applicationTaskExecutor} back
 * off.
 *
 * <p>Imported by {@link BackplaneExecutorsAutoConfiguration}, so it runs where Spring processes
 * configuration classes: at startup, or at build time under Spring AOT, whose generated code then
 * registers the beans (as it does every other bean definition; an executor configured only at run
 * time is not there). The auto-configuration is processed after the application's own
 * configuration, so a bean of the application that has an executor's name is known by then.
 */
final class BackplaneExecutorsRegistrar implements ImportBeanDefinitionRegistrar {

    private final Environment environment;

    BackplaneExecutorsRegistrar(Environment environment) {
        this.environment = environment;
    }

    @Override
    public void registerBeanDefinitions(AnnotationMetadata importingClass, BeanDefinitionRegistry registry) {
        Map<String, BackplaneProperties.Executor> executors = Binder.get(environment)
                .bind("backplane.executors", Bindable.mapOf(String.class, BackplaneProperties.Executor.class))
                .orElse(Map.of());
        for (String name : executors.keySet()) {
            if (registry.containsBeanDefinition(name)) {
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
}
