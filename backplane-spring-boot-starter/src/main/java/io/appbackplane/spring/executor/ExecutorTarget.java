package io.appbackplane.spring.executor;

import io.appbackplane.Backplane;
import io.appbackplane.BackplaneComponent;
import io.appbackplane.ObjectPool;
import io.appbackplane.spring.autoconfigure.BackplaneProperties;
import io.appbackplane.spring.autoconfigure.BackplaneRegistry;
import io.appbackplane.spring.autoconfigure.InvalidBackplanePropertyException;
import java.util.ArrayList;
import java.util.List;

/**
 * Where an executor's tasks run, resolved from its {@code backplane.executors.<name>.*} settings
 * once every component is installed: a component, a priority, and either one object key (tasks in
 * order) or a pool of objects (tasks in parallel). Scheduled tasks run on {@link #timerKey()}.
 */
record ExecutorTarget(BackplaneComponent component, int priority, Object key, ObjectPool pool) {

    /** The default priority, as {@code @Endpoint}'s. */
    static final int DEFAULT_PRIORITY = 1;

    /**
     * @throws InvalidBackplanePropertyException naming the setting that names nothing or is out of
     *     range, and what is allowed
     */
    static ExecutorTarget resolve(String name, BackplaneProperties.Executor settings, BackplaneRegistry registry) {
        String prefix = "backplane.executors." + name + ".";
        BackplaneComponent component = component(prefix, settings, registry);
        Backplane backplane = component.backplane();
        int priorities = backplane.policy().priorities();
        int priority = settings.getPriority() != null ? settings.getPriority() : Math.min(DEFAULT_PRIORITY, priorities - 1);
        if (priority < 0 || priority >= priorities) {
            throw new InvalidBackplanePropertyException(prefix + "priority", priority,
                    "allowed: 0.." + (priorities - 1) + " (the priorities of backplane '" + backplane.name() + "')", null);
        }
        if (settings.getKey() != null) {
            return new ExecutorTarget(component, priority, settings.getKey(), null);
        }
        // as many objects as can usefully run at once, twice over so one slow task does not idle a worker
        int size = Math.min(1024, 2 * backplane.policy().threads());
        return new ExecutorTarget(component, priority, null, component.pool("executor:" + name, size));
    }

    private static BackplaneComponent component(String prefix, BackplaneProperties.Executor settings, BackplaneRegistry registry) {
        String backplaneName = settings.getBackplane();
        if (backplaneName != null && !registry.all().containsKey(backplaneName)) {
            throw new InvalidBackplanePropertyException(prefix + "backplane", backplaneName,
                    "allowed: a configured backplane: " + registry.all().keySet(), null);
        }
        String componentName = settings.getComponent();
        if (componentName == null) {
            return registry.get(backplaneName != null ? backplaneName : "default").self();
        }
        List<String> installed = new ArrayList<>();
        for (Backplane backplane : registry.all().values()) {
            if (backplaneName != null && !backplane.name().equals(backplaneName)) {
                continue;
            }
            for (BackplaneComponent component : backplane.components()) {
                if (component.name().equals(componentName)) {
                    return component;
                }
                installed.add(component.name());
            }
        }
        throw new InvalidBackplanePropertyException(prefix + "component", componentName, "allowed: a component installed in "
                + (backplaneName != null ? "backplane '" + backplaneName + "'" : "any backplane") + ": " + installed, null);
    }

    /** The object scheduled tasks run on: the key, or one object per executor for an unkeyed one. */
    Object timerKey(String executorName) {
        return key != null ? key : "executor:" + executorName;
    }

    /** For messages: "component 'c' of backplane 'b', priority p". */
    String describe() {
        return "component '" + component.name() + "' of backplane '" + component.backplane().name() + "', priority " + priority
                + (key != null ? ", key '" + key + "'" : "");
    }
}
