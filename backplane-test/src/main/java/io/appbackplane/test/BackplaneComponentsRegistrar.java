package io.appbackplane.test;

import io.appbackplane.spring.annotation.AppComponent;
import org.springframework.beans.factory.annotation.AnnotatedGenericBeanDefinition;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.context.annotation.AnnotationBeanNameGenerator;
import org.springframework.context.annotation.ImportBeanDefinitionRegistrar;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.annotation.MergedAnnotation;
import org.springframework.core.type.AnnotationMetadata;

/**
 * Registers the classes named by {@link AutoConfigureBackplane#components()} on the test class as
 * beans, each under the name its {@code @AppComponent} gives (which is also the component's name),
 * unless the context already has a bean of that name.
 */
final class BackplaneComponentsRegistrar implements ImportBeanDefinitionRegistrar {

    @Override
    public void registerBeanDefinitions(AnnotationMetadata test, BeanDefinitionRegistry registry) {
        MergedAnnotation<AutoConfigureBackplane> annotation = test.getAnnotations().get(AutoConfigureBackplane.class);
        if (!annotation.isPresent()) {
            return;
        }
        for (Class<?> type : annotation.getClassArray("components")) {
            if (!AnnotatedElementUtils.hasAnnotation(type, AppComponent.class)) {
                throw new IllegalArgumentException("@AutoConfigureBackplane(components) on " + test.getClassName() + " names "
                        + type.getName() + ", which is not an @AppComponent; allowed: classes annotated @AppComponent");
            }
            AnnotatedGenericBeanDefinition definition = new AnnotatedGenericBeanDefinition(type);
            String name = AnnotationBeanNameGenerator.INSTANCE.generateBeanName(definition, registry);
            if (!registry.containsBeanDefinition(name)) {
                registry.registerBeanDefinition(name, definition);
            }
        }
    }
}
