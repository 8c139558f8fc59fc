package io.appbackplane.spring.autoconfigure;

import io.appbackplane.spring.annotation.AppComponent;
import io.appbackplane.spring.annotation.Endpoint;
import java.util.List;
import org.springframework.aop.framework.AopProxyUtils;
import org.springframework.aop.framework.autoproxy.AbstractBeanFactoryAwareAdvisingPostProcessor;
import org.springframework.aop.support.DefaultPointcutAdvisor;
import org.springframework.aop.support.annotation.AnnotationMatchingPointcut;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.EnvironmentAware;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.env.Environment;

/**
 * Installs every {@link AppComponent} bean after its initialization (see {@link
 * ComponentInstaller}) and advises its {@link Endpoint} methods so that calls dispatch into the
 * backplane — the pattern of Spring's own {@code @Async} post-processor: one advisor (a pointcut on
 * {@code @AppComponent} classes' {@code @Endpoint} methods and the shared {@link
 * EndpointInterceptor}), applied by {@link AbstractBeanFactoryAwareAdvisingPostProcessor}. So
 * <ul>
 *   <li>AOT processing knows the bean's type is the proxy class ({@code determineBeanType}) and
 *       generates it at build time;
 *   <li>an existing proxy that is not frozen (e.g. {@code @Transactional}) gets the advisor first
 *       in its chain, so a call dispatches before the bean's other advice, which then runs on the
 *       worker; a frozen proxy is wrapped in a new one instead of being modified.
 * </ul>
 * Registered as a static bean taking providers, so creating it early does not drag other beans out
 * of post-processing.
 */
final class AppComponentPostProcessor extends AbstractBeanFactoryAwareAdvisingPostProcessor implements EnvironmentAware {

    private static final long serialVersionUID = 1L;

    private final transient ObjectProvider<BackplaneRegistry> registry;
    private final transient ObjectProvider<BackplaneProperties> properties;
    private final transient EndpointInterceptor interceptor = new EndpointInterceptor();
    private transient volatile ComponentInstaller installer;
    private transient volatile Environment environment;

    AppComponentPostProcessor(ObjectProvider<BackplaneRegistry> registry, ObjectProvider<BackplaneProperties> properties) {
        this.registry = registry;
        this.properties = properties;
        this.advisor = new DefaultPointcutAdvisor(new AnnotationMatchingPointcut(AppComponent.class, Endpoint.class, true),
                interceptor);
        this.beforeExistingAdvisors = true; // dispatch before the bean's other advice runs (that runs on the worker)
        setProxyTargetClass(true); // callers inject the component's class
        // Define each proxy class in its component class's own loader (not the bean class loader, which
        // may be a child that cannot define a subclass of a package-private class in its package).
        setProxyClassLoader(null);
    }

    @Override
    public void setBeanFactory(BeanFactory beanFactory) {
        super.setBeanFactory(beanFactory);
        setProxyTargetClass(true); // whatever default the bean factory's proxy configuration names
    }

    @Override
    public void setBeanClassLoader(ClassLoader classLoader) {
        // keep the proxy class loader unset: see the constructor
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
        interceptor.register(installer().install(bean, beanName, type, annotation));
        return super.postProcessAfterInitialization(bean, beanName);
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
