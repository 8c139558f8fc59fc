package io.appbackplane.spring.autoconfigure;

import io.appbackplane.Backplane;
import io.appbackplane.BackplaneComponent;
import io.appbackplane.ComponentSpec;
import io.appbackplane.ComponentState;
import io.appbackplane.EndpointSpec;
import io.appbackplane.Route;
import io.appbackplane.TimerSpec;
import io.appbackplane.spring.annotation.AppComponent;
import io.appbackplane.spring.annotation.Endpoint;
import io.appbackplane.spring.annotation.EventEndpoint;
import io.appbackplane.spring.annotation.ObjectKey;
import io.appbackplane.spring.annotation.OnState;
import io.appbackplane.spring.annotation.ScheduledEndpoint;
import java.lang.reflect.Method;
import java.lang.reflect.Parameter;
import java.time.Duration;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.springframework.aop.framework.Advised;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.core.MethodIntrospector;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.scheduling.support.CronExpression;
import org.springframework.util.ReflectionUtils;
import org.springframework.util.StringUtils;

/**
 * Turns an {@link AppComponent} bean into a backplane component: installs it (name, backplane,
 * dependencies, operation limit, {@link OnState} hooks), registers its endpoints, timers and event
 * endpoints, and wraps the bean in a proxy whose {@link Endpoint} methods dispatch into the
 * backplane. Mistakes in the annotations fail start-up with a message naming the method.
 */
final class ComponentInstaller {

    /** An installed component, for the lifecycle, the event router and the actuator. */
    record Installed(String name, Backplane backplane, BackplaneComponent component, List<EventBinding> events) {}

    /** The {@link Endpoint} methods of one installed bean, by method. */
    record Endpoints(Map<Method, EndpointMethod> byMethod) {}

    /** An {@link EventEndpoint} method: events of {@code type} go through {@code endpoint}. */
    record EventBinding(Class<?> type, EndpointMethod endpoint) {}

    private final BackplaneRegistry registry;
    private final BackplaneProperties properties;
    private final java.util.function.UnaryOperator<String> placeholders;
    private final List<Installed> installed = new CopyOnWriteArrayList<>();

    /**
     * @param placeholders resolves {@code ${...}} in annotation attributes (the environment's
     *     required-placeholder resolution)
     */
    ComponentInstaller(BackplaneRegistry registry, BackplaneProperties properties,
            java.util.function.UnaryOperator<String> placeholders) {
        this.registry = registry;
        this.properties = properties;
        this.placeholders = placeholders;
    }

    List<Installed> installed() {
        return installed;
    }

    /**
     * Installs {@code bean} and returns its endpoint methods, for the post-processor's interceptor
     * (the post-processor then advises the bean).
     */
    Endpoints install(Object bean, String beanName, Class<?> type, AppComponent annotation) {
        String name = beanName;
        BackplaneProperties.Component settings = properties.getComponents().get(name);
        String backplaneName = settings != null && settings.getBackplane() != null ? settings.getBackplane() : annotation.backplane();
        Backplane backplane = registry.all().get(backplaneName);
        if (backplane == null) {
            String where = settings != null && settings.getBackplane() != null
                    ? "property 'backplane.components." + name + ".backplane'"
                    : "@AppComponent(backplane) of component '" + name + "' (" + type.getName() + ")";
            throw new UnknownBackplaneException("backplane", backplaneName, where, registry.all().keySet());
        }
        // The advising post-processor adds its advisor into an existing proxy unless it is frozen
        // (then it wraps it): the bean is then "our" proxy and the worker must bypass our advice.
        boolean ourProxyIsTheBean = bean instanceof Advised advised && !advised.isFrozen();

        ComponentSpec spec = ComponentSpec.named(name).dependsOn(annotation.dependsOn());
        if (settings != null && settings.getOperationLimit() != null) {
            try {
                spec = spec.withOperationLimit(settings.getOperationLimit());
            } catch (IllegalArgumentException e) {
                throw new InvalidBackplanePropertyException("backplane.components." + name + ".operation-limit",
                        settings.getOperationLimit(), "allowed: 1.." + Integer.MAX_VALUE, e);
            }
        }
        if (settings != null && settings.getAdmissionReserve() != null) {
            try {
                spec = spec.withAdmissionReserve(settings.getAdmissionReserve());
            } catch (IllegalArgumentException e) {
                throw invalid(name, "admission-reserve", settings.getAdmissionReserve(), e);
            }
        }
        if (settings != null && settings.getIdleObjectRetention() != null) {
            try {
                spec = spec.withIdleObjectRetention(settings.getIdleObjectRetention());
            } catch (IllegalArgumentException e) {
                throw invalid(name, "idle-object-retention", settings.getIdleObjectRetention(), e);
            }
        }
        if (settings != null && settings.getQueueWaitTarget() != null) {
            try {
                spec = spec.withQueueWaitTarget(settings.getQueueWaitTarget());
            } catch (IllegalArgumentException e) {
                throw invalid(name, "queue-wait-target", settings.getQueueWaitTarget(), e);
            }
        }
        spec = withStateHooks(spec, bean, type, ourProxyIsTheBean);
        BackplaneComponent component = backplane.install(spec);

        Map<Method, EndpointMethod> endpoints = new LinkedHashMap<>();
        MethodIntrospector.selectMethods(type, (MethodIntrospector.MetadataLookup<Endpoint>)
                m -> AnnotatedElementUtils.findMergedAnnotation(m, Endpoint.class))
                .forEach((method, endpoint) -> endpoints.put(method,
                        endpoint(component, backplane, bean, type, ourProxyIsTheBean, method, endpoint)));
        List<EventBinding> events = new CopyOnWriteArrayList<>();
        MethodIntrospector.selectMethods(type, (MethodIntrospector.MetadataLookup<EventEndpoint>)
                m -> AnnotatedElementUtils.findMergedAnnotation(m, EventEndpoint.class))
                .forEach((method, event) -> events.add(eventEndpoint(component, backplane, bean, ourProxyIsTheBean, method, event)));
        MethodIntrospector.selectMethods(type, (MethodIntrospector.MetadataLookup<ScheduledEndpoint>)
                m -> AnnotatedElementUtils.findMergedAnnotation(m, ScheduledEndpoint.class))
                .forEach((method, timer) -> timer(component, backplane, bean, ourProxyIsTheBean, method, timer));
        installed.add(new Installed(name, backplane, component, List.copyOf(events)));

        return new Endpoints(Map.copyOf(endpoints));
    }

    private EndpointMethod endpoint(BackplaneComponent component, Backplane backplane, Object bean, Class<?> type,
            boolean ourProxy, Method method, Endpoint annotation) {
        if (java.lang.reflect.Modifier.isFinal(method.getModifiers()) || java.lang.reflect.Modifier.isPrivate(method.getModifiers())) {
            // A class proxy cannot intercept it: calls would silently run in the caller's thread.
            throw invalid(method, "is an @Endpoint but is final or private, so the component's proxy cannot dispatch it;"
                    + " allowed: a non-final, non-private method (Kotlin: mark the class and method open)");
        }
        String endpointName = StringUtils.hasText(annotation.name()) ? annotation.name() : method.getName();
        EndpointMethod endpointMethod = new EndpointMethod(component.name(), method, bean, ourProxy, backplane, true);
        checkPriority(backplane, annotation.priority(), method, "@Endpoint(priority)");
        EndpointSpec<EndpointCall, Object> spec = EndpointSpec.<EndpointCall, Object>named(endpointName, endpointMethod::invoke)
                .withPriority(annotation.priority())
                .acceptingIn(first(annotation.states(), method, "@Endpoint(states)"), rest(annotation.states()));
        String replyTimeout = placeholders.apply(annotation.replyTimeout());
        if (StringUtils.hasText(replyTimeout)) {
            Duration timeout = duration(method, "@Endpoint(replyTimeout)", replyTimeout);
            if (timeout.isZero() || timeout.isNegative() || !(EndpointMethod.kindOf(method).isAsynchronous() || annotation.blocking())) {
                throw invalid(method, "has @Endpoint(replyTimeout) = '" + replyTimeout + "'; allowed: a positive duration,"
                        + " on a method that returns CompletableFuture, CompletionStage, Future, Mono, Flux or another"
                        + " reactive type, or on any @Endpoint(blocking = true) method");
            }
            endpointMethod.replyTimeout(timeout);
        }
        if (annotation.blocking()) {
            endpointMethod.offloaded();
        }
        int keyIndex = objectKeyIndex(method);
        if (annotation.poolSize() > 0) {
            if (keyIndex >= 0) {
                throw invalid(method, "has both an @ObjectKey parameter and @Endpoint(poolSize); choose one");
            }
            spec = spec.pooled(annotation.poolSize());
        } else if (StringUtils.hasText(annotation.digester())) {
            InvocableMethod digester = InvocableMethod.resolve(digesterMethod(type, method, annotation.digester()), bean, false,
                    "digester '" + annotation.digester() + "' of " + method.getDeclaringClass().getName() + "." + method.getName());
            spec = spec.digestedBy((context, call) ->
                    (Route) ReflectionUtils.invokeMethod(digester.method(), digester.target(), call.arguments()));
        } else if (keyIndex >= 0) {
            int index = keyIndex;
            spec = spec.keyedBy(call -> call.arguments()[index]);
        }
        endpointMethod.bind(component.endpoint(spec));
        return endpointMethod;
    }

    private EventBinding eventEndpoint(BackplaneComponent component, Backplane backplane, Object bean, boolean ourProxy,
            Method method, EventEndpoint annotation) {
        if (method.getParameterCount() != 1) {
            throw invalid(method, "is an @EventEndpoint and must take exactly one parameter, the event");
        }
        checkPriority(backplane, annotation.priority(), method, "@EventEndpoint(priority)");
        EndpointMethod endpointMethod = new EndpointMethod(component.name(), method, bean, ourProxy, backplane, false);
        EndpointSpec<EndpointCall, Object> spec = EndpointSpec.<EndpointCall, Object>named(method.getName(), endpointMethod::invoke)
                .withPriority(annotation.priority())
                .acceptingIn(first(annotation.states(), method, "@EventEndpoint(states)"), rest(annotation.states()));
        endpointMethod.bind(component.endpoint(spec));
        return new EventBinding(method.getParameterTypes()[0], endpointMethod);
    }

    private void timer(BackplaneComponent component, Backplane backplane, Object bean, boolean ourProxy, Method method,
            ScheduledEndpoint annotation) {
        if (method.getParameterCount() != 0) {
            throw invalid(method, "is a @ScheduledEndpoint and must take no parameters");
        }
        checkPriority(backplane, annotation.priority(), method, "@ScheduledEndpoint(priority)");
        EndpointMethod endpointMethod = new EndpointMethod(component.name(), method, bean, ourProxy, backplane, false);
        io.appbackplane.Action<Object> action = context -> endpointMethod.invokeDirect(new Object[0]);
        String fixedRate = placeholders.apply(annotation.fixedRate());
        String fixedDelay = placeholders.apply(annotation.fixedDelay());
        String cronText = placeholders.apply(annotation.cron());
        String zoneText = placeholders.apply(annotation.zone());
        String initialDelay = placeholders.apply(annotation.initialDelay());
        int set = (StringUtils.hasText(fixedRate) ? 1 : 0) + (StringUtils.hasText(fixedDelay) ? 1 : 0)
                + (StringUtils.hasText(cronText) ? 1 : 0);
        if (set != 1) {
            throw invalid(method, "must set exactly one of @ScheduledEndpoint(fixedRate, fixedDelay, cron)");
        }
        Duration initial = StringUtils.hasText(initialDelay) ? duration(method, "@ScheduledEndpoint(initialDelay)", initialDelay) : Duration.ZERO;
        TimerSpec spec;
        if (StringUtils.hasText(fixedRate)) {
            spec = TimerSpec.fixedRate(method.getName(), initial, duration(method, "@ScheduledEndpoint(fixedRate)", fixedRate), action);
        } else if (StringUtils.hasText(fixedDelay)) {
            spec = TimerSpec.fixedDelay(method.getName(), initial, duration(method, "@ScheduledEndpoint(fixedDelay)", fixedDelay), action);
        } else {
            CronExpression cron;
            ZoneId zone;
            try {
                cron = CronExpression.parse(cronText);
                zone = StringUtils.hasText(zoneText) ? ZoneId.of(zoneText) : ZoneId.systemDefault();
            } catch (RuntimeException e) {
                throw invalid(method, "has an invalid @ScheduledEndpoint(cron/zone): " + e.getMessage()
                        + "; allowed: a six-field Spring cron expression (seconds first) and a ZoneId");
            }
            spec = TimerSpec.computedDelay(method.getName(), () -> {
                ZonedDateTime now = ZonedDateTime.now(zone);
                ZonedDateTime next = cron.next(now);
                return next == null ? null : Duration.between(now, next);
            }, action);
        }
        spec = spec.withPriority(annotation.priority())
                .acceptingIn(first(annotation.states(), method, "@ScheduledEndpoint(states)"), rest(annotation.states()));
        component.timer(spec);
    }

    /** A component setting the core refused: the property, its value and the "allowed: ..." part of the core's message. */
    private static InvalidBackplanePropertyException invalid(String component, String setting, Object value,
            IllegalArgumentException refusal) {
        String message = refusal.getMessage();
        return new InvalidBackplanePropertyException("backplane.components." + component + "." + setting, value,
                message.substring(message.indexOf("allowed:")), refusal);
    }

    private ComponentSpec withStateHooks(ComponentSpec spec, Object bean, Class<?> type, boolean ourProxy) {
        Map<Method, OnState> hooks = MethodIntrospector.selectMethods(type, (MethodIntrospector.MetadataLookup<OnState>)
                m -> AnnotatedElementUtils.findMergedAnnotation(m, OnState.class));
        for (Map.Entry<Method, OnState> e : hooks.entrySet()) {
            Method method = e.getKey();
            Class<?>[] params = method.getParameterTypes();
            boolean fromTo = params.length == 2 && params[0] == ComponentState.class && params[1] == ComponentState.class;
            if (params.length != 0 && !fromTo) {
                throw invalid(method, "is an @OnState hook and must take no parameters or (ComponentState from, ComponentState to)");
            }
            EndpointMethod invoker = new EndpointMethod(spec.name(), method, bean, ourProxy, null, false);
            for (ComponentState state : e.getValue().value()) {
                if (state == ComponentState.START) {
                    throw invalid(method, "cannot run @OnState(START): START is the initial state; allowed: INITIALIZING,"
                            + " PRIMARY, SECONDARY, DOWN");
                }
                spec = spec.onEnter(state, (context, from, to) -> {
                    // A component that never left START (start-up failed before or in its INITIALIZING
                    // hook) has nothing to take down: only what came up runs its DOWN hooks.
                    if (from == ComponentState.START && to == ComponentState.DOWN) {
                        return;
                    }
                    invoker.invokeDirect(fromTo ? new Object[] {from, to} : new Object[0]);
                });
            }
        }
        return spec;
    }

    private static int objectKeyIndex(Method method) {
        Parameter[] parameters = method.getParameters();
        int index = -1;
        for (int i = 0; i < parameters.length; i++) {
            if (parameters[i].isAnnotationPresent(ObjectKey.class)) {
                if (index >= 0) {
                    throw invalid(method, "has more than one @ObjectKey parameter; allowed: one");
                }
                index = i;
            }
        }
        return index;
    }

    private static Method digesterMethod(Class<?> type, Method endpoint, String name) {
        Method digester = ReflectionUtils.findMethod(type, name, endpoint.getParameterTypes());
        if (digester == null || !Route.class.isAssignableFrom(digester.getReturnType())) {
            throw invalid(endpoint, "names digester '" + name + "', but " + type.getSimpleName() + " has no method " + name
                    + Arrays.toString(endpoint.getParameterTypes()) + " returning io.appbackplane.Route");
        }
        ReflectionUtils.makeAccessible(digester);
        return digester;
    }

    private static void checkPriority(Backplane backplane, int priority, Method method, String attribute) {
        try {
            backplane.policy().checkPriority(priority);
        } catch (IllegalArgumentException e) {
            throw invalid(method, "has " + attribute + " = " + priority + ", but backplane '" + backplane.name() + "' has "
                    + backplane.policy().priorities() + " priorities; allowed: 0.." + (backplane.policy().priorities() - 1));
        }
    }

    private static Duration duration(Method method, String attribute, String text) {
        try {
            return DurationStyle.detectAndParse(text);
        } catch (RuntimeException e) {
            throw invalid(method, "has " + attribute + " = '" + text + "', which is not a duration;"
                    + " allowed: e.g. 500ms, 5s, 1m or PT1M");
        }
    }

    private static ComponentState first(ComponentState[] states, Method method, String attribute) {
        if (states.length == 0) {
            throw invalid(method, "has an empty " + attribute + "; allowed: one or more of INITIALIZING, PRIMARY, SECONDARY, DOWN");
        }
        return states[0];
    }

    private static ComponentState[] rest(ComponentState[] states) {
        return Arrays.copyOfRange(states, 1, states.length);
    }

    private static IllegalStateException invalid(Method method, String problem) {
        return new IllegalStateException(method.getDeclaringClass().getName() + "." + method.getName() + " " + problem);
    }
}
