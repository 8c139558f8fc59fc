package io.appbackplane.spring.autoconfigure;

import io.appbackplane.spring.annotation.AppComponent;
import java.util.List;
import org.springframework.aop.framework.AopProxyUtils;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.context.EnvironmentAware;
import org.springframework.core.env.Environment;
import org.springframework.core.annotation.AnnotatedElementUtils;

/**
 * Finds {@link AppComponent} beans after initialization and installs them (see {@link
 * ComponentInstaller}). Registered as a static bean taking providers, so creating it early does not
 * drag other beans out of post-processing.
 */
final class AppComponentPostProcessor implements BeanPostProcessor, EnvironmentAware {

    private final ObjectProvider<BackplaneRegistry> registry;
    private final ObjectProvider<BackplaneProperties> properties;
    private volatile ComponentInstaller installer;
    private volatile Environment environment;

    AppComponentPostProcessor(ObjectProvider<BackplaneRegistry> registry, ObjectProvider<BackplaneProperties> properties) {
        this.registry = registry;
        this.properties = properties;
    }

    @Override
    public void setEnvironment(Environment environment) {
        this.environment = environment;
    }

    @Override
    public Object postProcessAfterInitialization(Object bean, String beanName) {
        Class<?> type = AopProxyUtils.ultimateTargetClass(bean);
        AppComponent annotation = AnnotatedElementUtils.findMergedAnnotation(type, AppComponent.class);
        if (annotation == null) {
            return bean;
        }
        return installer().install(bean, beanName, type, annotation);
    }

    /** The components installed so far. */
    List<ComponentInstaller.Installed> installed() {
        return installer == null ? List.of() : installer.installed();
    }

    private ComponentInstaller installer() {
        ComponentInstaller current = installer;
        if (current == null) {
            synchronized (this) {
                current = installer;
                if (current == null) {
                    Environment env = environment;
                    current = new ComponentInstaller(registry.getObject(), properties.getObject(),
                            env == null ? text -> text : env::resolveRequiredPlaceholders);
                    installer = current;
                }
            }
        }
        return current;
    }
}
