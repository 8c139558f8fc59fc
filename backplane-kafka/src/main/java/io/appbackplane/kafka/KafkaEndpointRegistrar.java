package io.appbackplane.kafka;

import io.appbackplane.ActionEndpoint;
import io.appbackplane.Backplane;
import io.appbackplane.BackplaneComponent;
import io.appbackplane.ComponentState;
import io.appbackplane.EndpointSpec;
import io.appbackplane.spring.annotation.AppComponent;
import io.appbackplane.spring.autoconfigure.BackplaneRegistry;
import io.micrometer.observation.ObservationRegistry;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.aop.framework.AopProxyUtils;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.kafka.autoconfigure.ConcurrentKafkaListenerContainerFactoryConfigurer;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.context.ApplicationContext;
import org.springframework.context.ApplicationContextAware;
import org.springframework.context.SmartLifecycle;
import org.springframework.kafka.config.ConcurrentKafkaListenerContainerFactory;
import org.springframework.kafka.listener.MessageListenerContainer;
import org.springframework.core.MethodIntrospector;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.env.Environment;
import org.springframework.kafka.core.ConsumerFactory;
import org.springframework.kafka.core.DefaultKafkaConsumerFactory;
import org.springframework.kafka.listener.ConcurrentMessageListenerContainer;
import org.springframework.kafka.listener.ContainerProperties;
import org.springframework.util.StringUtils;

/**
 * Finds the {@link KafkaEndpoint} methods of {@code @AppComponent} beans once every singleton exists,
 * registers each as an endpoint of its component and builds its spring-kafka listener container;
 * starts the containers after the backplanes are up (phase {@link #PHASE}, the phase of
 * spring-kafka's own listener containers) and stops them first on shutdown, so in-flight records
 * finish and are committed while the backplane still runs.
 */
public final class KafkaEndpointRegistrar implements SmartInitializingSingleton, SmartLifecycle, DisposableBean,
        ApplicationContextAware {

    /** Start after the backplanes (which start at DEFAULT_PHASE - 4096), stop before them. */
    public static final int PHASE = Integer.MAX_VALUE - 100;

    private static final Logger LOG = LoggerFactory.getLogger(KafkaEndpointRegistrar.class);

    /** How long the start-up topic check waits for the broker (a broker that is down must not stall start-up). */
    static final java.time.Duration TOPIC_CHECK_TIMEOUT = java.time.Duration.ofSeconds(5);

    /** One endpoint's pieces. */
    record Registration(String component, String endpoint, String groupId, List<String> topics,
            ConcurrentMessageListenerContainer<Object, Object> container, RecordDispatcher dispatcher,
            Set<String> missingTopics) {}

    private final ListableBeanFactory beans;
    private final BackplaneRegistry registry;
    private final ConsumerFactory<Object, Object> consumerFactory;
    /** The application's consumer factory, from which each endpoint's own is derived. */
    private final ConsumerFactory<?, ?> applicationConsumerFactory;
    private final DeadLetters deadLetters;
    private final BackplaneKafkaProperties properties;
    private final Environment environment;
    private final Listener listener;
    private final List<Registration> registrations = new ArrayList<>();
    private final Map<BackplaneComponent, ComponentThrottle> throttles = new ConcurrentHashMap<>();
    private final RecordDeserializer deserializer;
    /** Boot's {@code spring.kafka.listener.*} (and observation, executor) for the containers; null without Boot's. */
    private final ConcurrentKafkaListenerContainerFactoryConfigurer containerConfigurer;
    private ApplicationContext applicationContext;
    /** Reads the groups' committed offsets for {@link #describe}; created on first use. */
    private Admin viewAdmin;
    /** Resumes paused partitions where there is room again; one per start, shut down at each stop. */
    private ScheduledExecutorService sweeper;
    private volatile boolean running;

    /**
     * @param consumerFactory the application's consumer factory (Spring Boot's, with its customizers
     *     applied): the endpoints' consumers are built from its configuration, listeners and post-
     *     processors, reading bytes; its deserializers then turn each record into what the endpoint
     *     method takes ({@link RecordDeserializer}), so a record's dead-letter copy is its original bytes
     * @param listener told of each endpoint and of each partition first assigned to it (metrics)
     */
    KafkaEndpointRegistrar(ListableBeanFactory beans, BackplaneRegistry registry, ConsumerFactory<?, ?> consumerFactory,
            DeadLetters deadLetters, BackplaneKafkaProperties properties, Environment environment,
            Listener listener, ConcurrentKafkaListenerContainerFactoryConfigurer containerConfigurer) {
        properties.validate();
        this.containerConfigurer = containerConfigurer;
        this.beans = beans;
        this.registry = registry;
        this.deserializer = new RecordDeserializer(consumerFactory);
        this.applicationConsumerFactory = consumerFactory;
        this.consumerFactory = bytesConsumerFactory(consumerFactory);
        this.deadLetters = deadLetters;
        this.properties = properties;
        this.environment = environment;
        this.listener = listener;
    }

    /** The per-partition window: resumes at {@code resume-below} of its limit (below the limit). */
    private RecordDispatcher.Window window() {
        int limit = properties.getMaxUncommitted();
        int resumeAt = Math.min(limit - 1, (int) Math.floor(limit * properties.getResumeBelow()));
        return new RecordDispatcher.Window(limit, resumeAt, properties.getCommitMetadataMaxLength());
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static DefaultKafkaConsumerFactory<Object, Object> bytesConsumerFactory(ConsumerFactory<?, ?> factory) {
        Map<String, Object> configs = RecordDeserializer.bytesConfigs(factory.getConfigurationProperties());
        // Offsets are committed by the backplane after each record's action completes, never by a timer.
        configs.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        // Cooperative rebalancing unless the application chose an assignor: a rebalance then revokes
        // only the partitions that move, so a hand-over waits only for their in-flight records and the
        // other partitions (and other endpoints sharing the group) keep running through it.
        configs.putIfAbsent(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG,
                org.apache.kafka.clients.consumer.CooperativeStickyAssignor.class.getName());
        DefaultKafkaConsumerFactory<Object, Object> bytes = new DefaultKafkaConsumerFactory<>(configs);
        // What customizers added to Boot's factory (Micrometer's client metrics listener among them).
        ((List) factory.getListeners()).forEach(l -> bytes.addListener((ConsumerFactory.Listener) l));
        ((List) factory.getPostProcessors()).forEach(p -> bytes.addPostProcessor((org.springframework.kafka.core.ConsumerPostProcessor) p));
        return bytes;
    }

    @Override
    public void setApplicationContext(ApplicationContext applicationContext) {
        this.applicationContext = applicationContext;
    }

    @Override
    public void afterSingletonsInstantiated() {
        for (String beanName : beans.getBeanNamesForAnnotation(AppComponent.class)) {
            Object bean = beans.getBean(beanName);
            Class<?> type = AopProxyUtils.ultimateTargetClass(bean);
            Map<Method, KafkaEndpoint> methods = MethodIntrospector.selectMethods(type,
                    (MethodIntrospector.MetadataLookup<KafkaEndpoint>) m -> AnnotatedElementUtils.findMergedAnnotation(m, KafkaEndpoint.class));
            methods.forEach((method, annotation) -> register(beanName, bean, method, annotation));
        }
    }

    private void register(String componentName, Object bean, Method method, KafkaEndpoint annotation) {
        String where = method.getDeclaringClass().getName() + "." + method.getName();
        BackplaneComponent component = registry.all().values().stream()
                .map(b -> b.component(componentName)).flatMap(java.util.Optional::stream).findFirst()
                .orElseThrow(() -> new IllegalStateException(where + " is a @KafkaEndpoint, but its bean '" + componentName
                        + "' is not an installed backplane component; allowed: methods of @AppComponent beans"));
        Backplane backplane = component.backplane();
        try {
            backplane.policy().checkPriority(annotation.priority());
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException(where + " has @KafkaEndpoint(priority) = " + annotation.priority() + ", but backplane '"
                    + backplane.name() + "' has " + backplane.policy().priorities() + " priorities; allowed: 0.."
                    + (backplane.policy().priorities() - 1), e);
        }
        List<String> topics = Arrays.stream(annotation.topics()).map(environment::resolveRequiredPlaceholders)
                .filter(StringUtils::hasText).distinct().toList();
        if (topics.isEmpty()) {
            throw new IllegalStateException(where + " has no @KafkaEndpoint(topics); allowed: one or more topic names");
        }
        if (annotation.concurrency() < 1) {
            throw new IllegalStateException(where + " has @KafkaEndpoint(concurrency) = " + annotation.concurrency()
                    + "; allowed: 1 or more");
        }
        if (annotation.states().length == 0) {
            throw new IllegalStateException(where + " has an empty @KafkaEndpoint(states); allowed: one or more of"
                    + " INITIALIZING, PRIMARY, SECONDARY, DOWN");
        }
        String groupId = groupId(annotation, where);
        String endpointName = StringUtils.hasText(annotation.name()) ? annotation.name() : method.getName();

        RecordKeyExpression keyExpression = StringUtils.hasText(annotation.key())
                ? RecordKeyExpression.parse(annotation.key(), where) : null;
        RecordInvoker invoker = new RecordInvoker(bean, AopUtils.selectInvocableMethod(method, bean.getClass()));
        ComponentState[] states = annotation.states();
        EndpointSpec<PartitionFeed.Pending, Object> spec = EndpointSpec
                .<PartitionFeed.Pending, Object>named(endpointName, new RetryingRecordHandler(invoker, properties.getRetry()))
                .keyedBy(RecordDispatcher::objectKey)
                .withPriority(annotation.priority())
                .acceptingIn(states[0], Arrays.copyOfRange(states, 1, states.length));
        ActionEndpoint<PartitionFeed.Pending, Object> endpoint = component.endpoint(spec);
        ComponentThrottle throttle = throttles.computeIfAbsent(component, c -> new ComponentThrottle(c, properties.getResumeBelow()));

        // The endpoint's own consumers: their commits carry its partitions' completed offsets (the
        // post-processor is applied when the container creates them, at start, after the dispatcher exists).
        DefaultKafkaConsumerFactory<Object, Object> endpointConsumers = bytesConsumerFactory(applicationConsumerFactory);
        ConcurrentMessageListenerContainer<Object, Object> container = container(topics, endpointConsumers);
        ContainerProperties containerProperties = container.getContainerProperties();
        List<Registration> holder = new ArrayList<>(1);
        RecordDispatcher dispatcher = new RecordDispatcher(componentName + "." + endpointName, endpoint, throttle, deadLetters,
                properties.getRevokeTimeout(), keyExpression, deserializer, window(), tp -> listener.partitionAssigned(holder.get(0), tp),
                recordObservations(containerProperties));
        endpointConsumers.addPostProcessor(new CommitMetadataConsumers(dispatcher));
        dispatcher.partitionsPausedBy(container);
        containerProperties.setGroupId(groupId);
        containerProperties.setAckMode(ContainerProperties.AckMode.MANUAL);
        containerProperties.setMessageListener(dispatcher);
        containerProperties.setConsumerRebalanceListener(dispatcher);
        containerProperties.setClientId(componentName + "." + endpointName);
        // The backplane commits each record after its action: a Kafka transaction around the
        // listener call would commit before the action ran.
        containerProperties.setKafkaAwareTransactionManager(null);
        container.setConcurrency(annotation.concurrency());
        container.setCommonErrorHandler(dispatcher);
        container.setRecordInterceptor(null); // an application's interceptor expects its own types; these records are bytes
        container.setBeanName("backplaneKafka." + componentName + "." + endpointName);
        container.setAutoStartup(false);
        throttle.feeds(container, dispatcher);
        dispatcher.stopContainerWith(() -> {
            if (container.isRunning()) {
                container.stop(() -> LOG.error("@KafkaEndpoint {}.{}: listener container stopped (dead-letter policy stop);"
                        + " restart the application to consume its topics again", componentName, endpointName));
            }
        });
        Registration registration = new Registration(componentName, endpointName, groupId, topics, container, dispatcher,
                ConcurrentHashMap.newKeySet());
        holder.add(registration);
        registrations.add(registration);
        listener.registered(registration);
        LOG.info("@KafkaEndpoint {}.{}: topics {} (group '{}') -> component '{}' of backplane '{}' at priority {}",
                componentName, endpointName, topics, groupId, componentName, backplane.name(), annotation.priority());
    }

    /**
     * A container for {@code topics} configured as Boot configures {@code @KafkaListener} containers
     * ({@code spring.kafka.listener.*}: poll timeout, idle between polls, observation, ...) when its
     * configurer is there, with the application context as its event publisher.
     */
    private ConcurrentMessageListenerContainer<Object, Object> container(List<String> topics,
            ConsumerFactory<Object, Object> consumerFactory) {
        ConcurrentKafkaListenerContainerFactory<Object, Object> factory = new ConcurrentKafkaListenerContainerFactory<>();
        if (containerConfigurer != null) {
            containerConfigurer.configure(factory, consumerFactory);
        }
        factory.setConsumerFactory(consumerFactory);
        if (applicationContext != null) {
            factory.setApplicationContext(applicationContext);
            factory.setApplicationEventPublisher(applicationContext);
        }
        return factory.createContainer(topics.toArray(String[]::new));
    }

    /**
     * Where the container's listener observation of each record is current while the dispatcher takes
     * the record ({@code spring.kafka.listener.observation-enabled}): the container's registry, else
     * the application's only one, as spring-kafka's container picks it; null when records are not observed.
     */
    private ObservationRegistry recordObservations(ContainerProperties containerProperties) {
        if (!containerProperties.isObservationEnabled()) {
            return null;
        }
        ObservationRegistry registry = containerProperties.getObservationRegistry();
        if (registry.isNoop() && applicationContext != null) {
            registry = applicationContext.getBeanProvider(ObservationRegistry.class).getIfUnique(() -> ObservationRegistry.NOOP);
        }
        return registry.isNoop() ? null : registry;
    }

    private String groupId(KafkaEndpoint annotation, String where) {
        String resolved = environment.resolveRequiredPlaceholders(annotation.groupId());
        if (StringUtils.hasText(resolved)) {
            return resolved;
        }
        if (StringUtils.hasText(properties.getGroupId())) {
            return properties.getGroupId();
        }
        Object configured = consumerFactory.getConfigurationProperties().get(ConsumerConfig.GROUP_ID_CONFIG);
        if (configured != null && StringUtils.hasText(configured.toString())) {
            return configured.toString();
        }
        String application = environment.getProperty("spring.application.name");
        if (StringUtils.hasText(application)) {
            return application;
        }
        throw new IllegalStateException(where + " has no consumer group; set @KafkaEndpoint(groupId), backplane.kafka.group-id,"
                + " spring.kafka.consumer.group-id or spring.application.name");
    }

    /** Told of endpoints and partitions as they appear (the meters). */
    interface Listener {
        void registered(Registration registration);

        /** The first time this node is assigned {@code partition} for the endpoint; on a consumer thread. */
        void partitionAssigned(Registration registration, TopicPartition partition);
    }

    /** The registered endpoints. */
    public List<Registration> registrations() {
        return List.copyOf(registrations);
    }

    /**
     * The endpoints' listener containers, as {@code KafkaListenerEndpointRegistry.getListenerContainers()}
     * lists those of {@code @KafkaListener}s (this registrar starts and stops them, in its phase).
     */
    public List<MessageListenerContainer> getListenerContainers() {
        return registrations.stream().<MessageListenerContainer>map(Registration::container).toList();
    }

    /**
     * Starts the containers, and again after {@link #stop} (Spring's test context cache stops a
     * cached context when a suite switches to another one and starts it when it comes back): each
     * start has a resume sweeper of its own.
     */
    @Override
    public synchronized void start() {
        if (running) {
            return;
        }
        checkTopics();
        ScheduledExecutorService newSweeper = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread thread = new Thread(r, "backplane-kafka-resume");
            thread.setDaemon(true);
            return thread;
        });
        newSweeper.scheduleWithFixedDelay(this::resumeWhereRoom, 100, 100, TimeUnit.MILLISECONDS);
        sweeper = newSweeper;
        registrations.forEach(r -> r.container().start());
        running = true;
    }

    /** A topic that does not exist is a clear error for its endpoint; the others run regardless. */
    private void checkTopics() {
        Set<String> all = new LinkedHashSet<>();
        registrations.forEach(r -> all.addAll(r.topics()));
        if (all.isEmpty()) {
            return;
        }
        int timeoutMs = (int) TOPIC_CHECK_TIMEOUT.toMillis();
        Admin admin = Admin.create(adminConfigs());
        try {
            Set<String> existing = admin.listTopics(new ListTopicsOptions().timeoutMs(timeoutMs)).names()
                    .get(TOPIC_CHECK_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            for (Registration r : registrations) {
                for (String topic : r.topics()) {
                    if (!existing.contains(topic)) {
                        r.missingTopics().add(topic);
                        LOG.error("@KafkaEndpoint {}.{}: topic '{}' does not exist; its records are consumed once it is created"
                                + " (the endpoint's other topics and every other endpoint run normally)", r.component(),
                                r.endpoint(), topic);
                    }
                }
            }
        } catch (Exception e) {
            LOG.warn("Could not check within {} that the @KafkaEndpoint topics {} exist: {}", TOPIC_CHECK_TIMEOUT, all,
                    e.toString());
        } finally {
            admin.close(java.time.Duration.ZERO); // never wait for a broker that did not answer
        }
    }

    /**
     * The consumers' bootstrap, security, SSL and SASL settings, with short timeouts. Spring Boot's SSL
     * bundle travels among them under {@link SslBundle}'s class name, not an admin setting: the engine
     * factory that they name reads it from there.
     */
    private Map<String, Object> adminConfigs() {
        Map<String, Object> adminConfigs = new HashMap<>();
        Set<String> adminNames = AdminClientConfig.configNames();
        consumerFactory.getConfigurationProperties().forEach((k, v) -> {
            if (adminNames.contains(k) || k.equals(SslBundle.class.getName())) {
                adminConfigs.put(k, v);
            }
        });
        int timeoutMs = (int) TOPIC_CHECK_TIMEOUT.toMillis();
        adminConfigs.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, timeoutMs);
        adminConfigs.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, timeoutMs);
        return adminConfigs;
    }

    private void resumeWhereRoom() {
        for (ComponentThrottle throttle : throttles.values()) {
            try {
                if (throttle.isPaused()) {
                    throttle.maybeResume();
                }
            } catch (RuntimeException e) {
                LOG.warn("Resuming the partitions of component '{}' failed: {}", throttle.component().name(), e.toString());
            }
        }
    }

    @Override
    public void stop() {
        CountDownLatch latch = new CountDownLatch(1);
        stop(latch::countDown);
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Stops every container; each hands its partitions over as on a rebalance (in-flight records
     * finish within {@code backplane.kafka.revoke-timeout} and are committed).
     */
    @Override
    public synchronized void stop(Runnable callback) {
        running = false;
        ScheduledExecutorService stopping = sweeper;
        sweeper = null;
        Runnable done = () -> {
            if (stopping != null) {
                stopping.shutdown();
            }
            callback.run();
        };
        List<Registration> active = registrations.stream().filter(r -> r.container().isRunning()).toList();
        if (active.isEmpty()) {
            done.run();
            return;
        }
        CountDownLatch stopped = new CountDownLatch(active.size());
        active.forEach(r -> r.container().stop(stopped::countDown));
        Thread waiter = new Thread(() -> {
            try {
                stopped.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                done.run();
            }
        }, "backplane-kafka-stop");
        waiter.setDaemon(true);
        waiter.start();
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    @Override
    public int getPhase() {
        return PHASE;
    }

    @Override
    public void destroy() {
        ScheduledExecutorService current = sweeper;
        if (current != null) {
            current.shutdownNow();
        }
        deadLetters.close();
        deserializer.close();
        synchronized (this) {
            if (viewAdmin != null) {
                viewAdmin.close(java.time.Duration.ofSeconds(1));
            }
        }
    }

    /** A view of every endpoint and assigned partition, for the actuator endpoints. */
    public Map<String, Object> describe() {
        return describe(r -> true);
    }

    /** A view of the endpoints {@code which} selects (those of one backplane's components). */
    Map<String, Object> describe(java.util.function.Predicate<Registration> which) {
        Map<String, Object> endpoints = new LinkedHashMap<>();
        Map<String, Map<TopicPartition, Long>> committedByGroup = new HashMap<>();
        for (Registration r : registrations) {
            if (!which.test(r)) {
                continue;
            }
            Map<TopicPartition, Long> brokerCommitted = committedByGroup.computeIfAbsent(r.groupId(), this::brokerCommitted);
            RecordDispatcher d = r.dispatcher();
            Map<String, Object> view = new LinkedHashMap<>();
            view.put("component", r.component());
            view.put("groupId", r.groupId());
            view.put("topics", r.topics());
            view.put("keyExpression", d.keyExpression());
            view.put("missingTopics", List.copyOf(r.missingTopics()));
            view.put("running", r.container().isRunning());
            view.put("paused", d.throttle().isPaused());
            view.put("pausedSeconds", d.throttle().pausedNanos() / 1e9);
            view.put("pauses", d.throttle().pauses());
            view.put("completed", d.completed.get());
            view.put("deadLettered", d.deadLettered.get());
            view.put("deadLetterFailed", d.deadLetterFailed.get());
            view.put("handovers", d.handovers.get());
            view.put("lastHandoverMillis", d.lastHandoverNanos.get() / 1_000_000.0);
            view.put("redeliveredAfterHandover", d.abandonedAtRevoke.get());
            view.put("runningWhenLost", d.runningAtLoss.get());
            view.put("cancelledAfterHandover", d.cancelledAfterMove.get());
            view.put("alreadyCompleted", d.alreadyCompleted.get());
            view.put("windowPauses", d.windowPauses.get());
            Map<String, Object> partitions = new java.util.TreeMap<>();
            d.feeds().forEach((tp, feed) -> partitions.put(tp.toString(), partitionView(feed, brokerCommitted.get(tp))));
            view.put("partitions", partitions);
            endpoints.put(r.component() + "." + r.endpoint(), view);
        }
        return endpoints;
    }

    /**
     * The group's committed offsets as the broker has them (one admin request, at most {@link
     * #TOPIC_CHECK_TIMEOUT}); empty if the broker did not answer.
     */
    private Map<TopicPartition, Long> brokerCommitted(String groupId) {
        try {
            Map<TopicPartition, Long> offsets = new HashMap<>();
            admin().listConsumerGroupOffsets(groupId).partitionsToOffsetAndMetadata()
                    .get(TOPIC_CHECK_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
                    .forEach((tp, offset) -> {
                        if (offset != null) {
                            offsets.put(tp, offset.offset());
                        }
                    });
            return offsets;
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            LOG.debug("Could not read the committed offsets of group '{}': {}", groupId, e.toString());
            return Map.of();
        }
    }

    private synchronized Admin admin() {
        if (viewAdmin == null) {
            viewAdmin = Admin.create(adminConfigs());
        }
        return viewAdmin;
    }

    private static Map<String, Object> partitionView(PartitionFeed feed, Long brokerCommitted) {
        PartitionProgress.Snapshot s = feed.progress.snapshot();
        Map<String, Object> view = new LinkedHashMap<>();
        view.put("committedOffset", brokerCommitted == null ? -1 : brokerCommitted); // as the broker has it
        view.put("acknowledgedOffset", s.committedOffset()); // handed to spring-kafka, committed at its next poll
        view.put("receivedOffset", s.nextOffset());
        view.put("uncommitted", s.uncommitted());
        view.put("windowFull", s.full());
        view.put("inFlight", s.inFlight());
        view.put("running", s.running());
        view.put("heldBack", feed.backlogSize());
        view.put("lag", feed.lag());
        view.put("pausedSeconds", feed.pausedNanos() / 1e9);
        return view;
    }
}
