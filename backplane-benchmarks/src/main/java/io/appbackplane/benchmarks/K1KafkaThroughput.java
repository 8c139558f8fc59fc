package io.appbackplane.benchmarks;

import io.appbackplane.kafka.KafkaEndpoint;
import io.appbackplane.kafka.LoopbackKafkaBroker;
import io.appbackplane.spring.annotation.AppComponent;
import io.confluent.parallelconsumer.ParallelConsumerOptions;
import io.confluent.parallelconsumer.ParallelStreamProcessor;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Import;
import org.springframework.kafka.annotation.KafkaListener;

/**
 * K1, Kafka records per second end to end (docs/scale-out.md, docs/benchmarks.md K1): each operation is one record
 * produced to a 6-partition topic (keys spread over {@value #KEYS}) and processed by the consumer
 * under test, on an in-JVM KRaft broker. An invocation publishes {@value #BATCH} records and waits
 * until all are processed, so the score is the sustained produce-to-processed rate.
 *
 * <p>Consumers: {@code backplane} — a {@code @KafkaEndpoint} (records as actions on the object of
 * their key, commits after completion); {@code listener} — a plain {@code @KafkaListener} with
 * concurrency = partition count (per-partition order, the usual baseline); {@code parallel-consumer}
 * — Confluent's Parallel Consumer in KEY order. Tasks: {@code 5us} of CPU per record, and {@code
 * 1ms-async}, an asynchronous call answering after 1 ms: the backplane waits for it as a reply
 * without a thread, the listener must wait for it before the next record of its partition, Parallel
 * Consumer blocks one of its {@value #PC_CONCURRENCY} threads. Targets: backplane >=
 * listener on 5us; backplane >= 5 x listener on 1ms-async.
 *
 * <p>Run: {@code java -jar backplane-benchmarks/target/benchmarks.jar K1}. Heavy: every fork starts
 * a broker.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(Scope.Benchmark)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 8, time = 5) // the broker, producer and consumer keep speeding up for about 40 s
@Measurement(iterations = 5, time = 5)
public class K1KafkaThroughput {

    static final int PARTITIONS = 6;
    static final int KEYS = 1_000;
    static final int BATCH = 2_000;
    static final int PC_CONCURRENCY = 256;
    static final AtomicLong PROCESSED = new AtomicLong();
    static volatile String task = "5us";
    static final long CPU_TOKENS = Work.tokens("5us");
    static final Executor ONE_MS_LATER = CompletableFuture.delayedExecutor(1, TimeUnit.MILLISECONDS);

    @Param({"backplane", "listener", "parallel-consumer"})
    public String consumer;

    @Param({"5us", "1ms-async"})
    public String work;

    private LoopbackKafkaBroker broker;
    private KafkaProducer<String, String> producer;
    private ConfigurableApplicationContext context;
    private ParallelStreamProcessor<String, String> parallelConsumer;
    private String topic;
    private long sent;

    /** The record's work, as the asynchronous call: completes after 1 ms or after 5 us of CPU. */
    static CompletableFuture<Void> process() {
        if (task.equals("1ms-async")) {
            return CompletableFuture.runAsync(PROCESSED::incrementAndGet, ONE_MS_LATER);
        }
        Work.run(CPU_TOKENS);
        PROCESSED.incrementAndGet();
        return CompletableFuture.completedFuture(null);
    }

    @AppComponent("k1")
    static class BackplaneConsumer {
        @KafkaEndpoint(topics = "${k1.topic}")
        CompletableFuture<Void> onRecord(String value) {
            return process();
        }
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(BackplaneConsumer.class)
    static class BackplaneApp {}

    static class ListenerConsumer {
        @KafkaListener(topics = "${k1.topic}", concurrency = "6")
        void onRecord(String value) {
            process().join(); // per-partition order: the next record waits for this one
        }
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(ListenerConsumer.class)
    static class ListenerApp {}

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        task = work;
        broker = LoopbackKafkaBroker.start(Map.of("group.initial.rebalance.delay.ms", "0", "offsets.topic.num.partitions", "5"));
        String servers = broker.bootstrapServers();
        topic = "k1-" + consumer + "-" + work;
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, servers))) {
            admin.createTopics(List.of(new NewTopic(topic, PARTITIONS, (short) 1), new NewTopic(topic + "-dlt", 1, (short) 1)))
                    .all().get(60, TimeUnit.SECONDS);
        }
        producer = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, servers,
                ProducerConfig.LINGER_MS_CONFIG, 2, ProducerConfig.BATCH_SIZE_CONFIG, 64 * 1024),
                new StringSerializer(), new StringSerializer());
        String[] common = {"spring.kafka.bootstrap-servers=" + servers, "spring.kafka.consumer.auto-offset-reset=earliest",
                "spring.kafka.consumer.group-id=k1", "spring.kafka.consumer.fetch-max-wait=10ms", "k1.topic=" + topic,
                "logging.level.root=warn"};
        switch (consumer) {
            case "backplane" -> context = new SpringApplicationBuilder(BackplaneApp.class).web(WebApplicationType.NONE)
                    .properties(common).run();
            case "listener" -> context = new SpringApplicationBuilder(ListenerApp.class).web(WebApplicationType.NONE)
                    .properties(common).run();
            case "parallel-consumer" -> {
                KafkaConsumer<String, String> kafkaConsumer = new KafkaConsumer<>(Map.of(
                        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, servers, ConsumerConfig.GROUP_ID_CONFIG, "k1",
                        ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false, ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"),
                        new StringDeserializer(), new StringDeserializer());
                parallelConsumer = ParallelStreamProcessor.createEosStreamProcessor(ParallelConsumerOptions.<String, String>builder()
                        .ordering(ParallelConsumerOptions.ProcessingOrder.KEY)
                        .maxConcurrency(PC_CONCURRENCY)
                        .consumer(kafkaConsumer)
                        .build());
                parallelConsumer.subscribe(List.of(topic));
                parallelConsumer.poll(context -> process().join());
            }
            default -> throw new IllegalArgumentException("unknown consumer " + consumer);
        }
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public void records() throws TimeoutException {
        for (int i = 0; i < BATCH; i++) {
            producer.send(new ProducerRecord<>(topic, "key-" + (sent++ % KEYS), "v"));
        }
        producer.flush();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (PROCESSED.get() < sent) {
            if (System.nanoTime() > deadline) {
                throw new TimeoutException(consumer + " processed " + PROCESSED.get() + " of " + sent + " records");
            }
            LockSupport.parkNanos(20_000);
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        if (parallelConsumer != null) {
            parallelConsumer.close();
        }
        if (context != null) {
            context.close();
        }
        if (producer != null) {
            producer.close();
        }
        if (broker != null) {
            broker.close();
        }
    }
}
