package io.appbackplane.sample.intake;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.metadata.storage.Formatter;
import org.apache.kafka.server.common.MetadataVersion;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.config.BeanFactoryPostProcessor;
import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Profile;
import org.springframework.core.env.Environment;

/**
 * The {@code kafka-broker} profile, for trying the sample's {@code kafka} profile without a Kafka
 * installation: an in-JVM KRaft broker (Kafka's own {@link KafkaRaftServer}, broker and controller
 * in one node) on {@code 127.0.0.1:9092}, or {@code sample.kafka.broker.port}. Lives in test
 * sources, so it only exists under {@code spring-boot:test-run} (and in tests), never in the
 * application's jar (docs/scale-out.md).
 *
 * <p>Every listener is on 127.0.0.1: the broker's on the given port, the controller's on a free one
 * (spring-kafka-test's {@code EmbeddedKafkaKraftBroker} cannot be told this: its test kit binds its
 * listeners to all interfaces at random ports).
 *
 * <p>Started from a bean factory post-processor, before any other bean exists (the Kafka admin and
 * clients find it up), and registered as the first disposable singleton, so it is destroyed last:
 * after the listener containers stopped and every client closed.
 */
@Configuration(proxyBeanMethods = false)
@Profile("kafka-broker")
class DemoKafkaBroker {

    private static final Logger LOG = LoggerFactory.getLogger(DemoKafkaBroker.class);

    @Bean
    static BeanFactoryPostProcessor inJvmKafkaBroker(Environment environment) {
        return beanFactory -> {
            int port = environment.getProperty("sample.kafka.broker.port", Integer.class, 9092);
            if (port < 1 || port > 65535) {
                throw new IllegalStateException("sample.kafka.broker.port = " + port + "; allowed: 1..65535");
            }
            Broker broker = Broker.start(port);
            beanFactory.registerSingleton("demoKafkaBroker", broker);
            ((DefaultListableBeanFactory) beanFactory).registerDisposableBean("demoKafkaBroker", broker);
            LOG.info("In-JVM Kafka broker (profile kafka-broker) listening on localhost:{} (127.0.0.1 only); more instances:"
                    + " --spring.profiles.active=kafka --spring.kafka.bootstrap-servers=localhost:{}", port, port);
        };
    }

    /** A single-node KRaft server whose listeners are all on 127.0.0.1. */
    static final class Broker implements DisposableBean {
        private final KafkaRaftServer server;

        private Broker(KafkaRaftServer server) {
            this.server = server;
        }

        static Broker start(int port) {
            try {
                int controllerPort;
                try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                    controllerPort = free.getLocalPort();
                }
                Path directory = Files.createTempDirectory("demo-kafka");
                directory.toFile().deleteOnExit();
                String logDir = directory.resolve("log").toString();
                Properties props = new Properties();
                props.put("process.roles", "broker,controller");
                props.put("node.id", "1");
                props.put("listeners", "PLAINTEXT://127.0.0.1:" + port + ",CONTROLLER://127.0.0.1:" + controllerPort);
                props.put("advertised.listeners", "PLAINTEXT://localhost:" + port);
                props.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
                props.put("controller.listener.names", "CONTROLLER");
                props.put("inter.broker.listener.name", "PLAINTEXT");
                props.put("controller.quorum.voters", "1@127.0.0.1:" + controllerPort);
                props.put("log.dirs", logDir);
                props.put("metadata.log.dir", logDir);
                props.put("group.initial.rebalance.delay.ms", "0");
                props.put("offsets.topic.replication.factor", "1");
                props.put("transaction.state.log.replication.factor", "1");
                props.put("transaction.state.log.min.isr", "1");
                props.put("share.coordinator.state.topic.replication.factor", "1");
                props.put("share.coordinator.state.topic.min.isr", "1");
                new Formatter()
                        .setPrintStream(new PrintStream(OutputStream.nullOutputStream()))
                        .setNodeId(1)
                        .setClusterId(Uuid.randomUuid().toString())
                        .setDirectories(List.of(logDir))
                        .setMetadataLogDirectory(logDir)
                        .setReleaseVersion(MetadataVersion.latestProduction())
                        .setControllerListenerName("CONTROLLER")
                        .run();
                KafkaRaftServer server = new KafkaRaftServer(new KafkaConfig(props, false), Time.SYSTEM);
                server.startup();
                return new Broker(server);
            } catch (Exception e) {
                throw new IllegalStateException("cannot start the demo Kafka broker on 127.0.0.1:" + port
                        + " (port taken? set sample.kafka.broker.port): " + e, e);
            }
        }

        @Override
        public void destroy() {
            server.shutdown();
            server.awaitShutdown();
        }
    }
}
