package io.appbackplane.spring.autoconfigure;

import io.appbackplane.Backplane;
import io.appbackplane.BackplaneComponent;
import java.beans.PropertyDescriptor;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.springframework.beans.BeanUtils;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.BindHandler;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.UnboundConfigurationPropertiesException;
import org.springframework.boot.context.properties.bind.handler.NoUnboundElementsBindHandler;
import org.springframework.boot.context.properties.source.ConfigurationProperty;

/**
 * Fails start-up on a {@code backplane.*} setting that names nothing: a key
 * that {@code backplane.configs.<template>}, {@code backplane.instances.<name>}, {@code
 * backplane.components.<name>} or {@code backplane.executors.<name>} does not have, and a
 * component name under {@code backplane.components} that is not installed. Spring Boot ignores
 * both by default, so the typo passes and the intended setting silently keeps its default. Runs
 * when the lifecycle starts: then every component is installed.
 */
final class SettingsCheck {

    private SettingsCheck() {}

    /**
     * @throws UnknownBackplaneSettingException naming the first unknown setting and what is known
     */
    static void check(Binder binder, BackplaneProperties properties, BackplaneRegistry registry) {
        checkKeys(binder, "backplane.configs", BackplaneProperties.Policy.class);
        checkKeys(binder, "backplane.instances", BackplaneProperties.Instance.class);
        checkKeys(binder, "backplane.components", BackplaneProperties.Component.class);
        checkKeys(binder, "backplane.executors", BackplaneProperties.Executor.class);
        List<String> installed = installedComponents(registry);
        for (Map.Entry<String, BackplaneProperties.Component> e : properties.getComponents().entrySet()) {
            if (!installed.contains(e.getKey())) {
                String property = "backplane.components." + e.getKey();
                throw new UnknownBackplaneSettingException(property, "names component '" + e.getKey()
                        + "', which is not installed (no @AppComponent bean of that name)", "installed components", installed);
            }
        }
    }

    private static void checkKeys(Binder binder, String prefix, Class<?> settings) {
        try {
            binder.bind(prefix, Bindable.mapOf(String.class, settings), new NoUnboundElementsBindHandler(BindHandler.DEFAULT));
        } catch (BindException e) {
            if (e.getCause() instanceof UnboundConfigurationPropertiesException unbound) {
                ConfigurationProperty first = unbound.getUnboundProperties().iterator().next();
                String name = first.getName().toString();
                throw new UnknownBackplaneSettingException(name, "is not a " + prefix + ".<name>.* setting",
                        "known settings", keysOf(settings));
            }
            throw e; // a bad value: reported when the properties bind, this only looks for unknown keys
        }
    }

    /** The kebab-case keys of a settings class, as they are written in application.yml. */
    static List<String> keysOf(Class<?> settings) {
        TreeSet<String> keys = new TreeSet<>();
        for (PropertyDescriptor d : BeanUtils.getPropertyDescriptors(settings)) {
            if (d.getWriteMethod() != null) {
                keys.add(d.getName().replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase(java.util.Locale.ROOT));
            }
        }
        return List.copyOf(keys);
    }

    private static List<String> installedComponents(BackplaneRegistry registry) {
        List<String> names = new ArrayList<>();
        for (Backplane backplane : registry.all().values()) {
            for (BackplaneComponent component : backplane.components()) {
                if (component != backplane.self()) {
                    names.add(component.name());
                }
            }
        }
        return names;
    }
}
