package io.appbackplane.sample.intake;

import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.config.BeanFactoryPostProcessor;
import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Profile;
import org.springframework.core.env.Environment;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;

/**
 * The {@code kafka-broker} profile, for trying the sample's {@code kafka} profile without a Kafka
 * installation: an in-JVM KRaft broker (spring-kafka-test) on {@code localhost:9092}, or {@code
 * sample.kafka.broker.port}. Lives in test sources, so it only exists under {@code
 * spring-boot:test-run} (and in tests), never in the application's jar (docs/scale-out.md).
 *
 * <p>The port: {@code EmbeddedKafkaKraftBroker.kafkaPorts(..)} has no effect with KRaft, because
 * Kafka's {@code KafkaClusterTestKit} pre-binds its broker and controller listeners to random ports
 * and ignores the configured ones. It does keep a {@code listeners} setting, though, and a listener
 * of another name is opened on its configured port: the broker gets a {@code DEMO} listener on the
 * fixed port, next to the test kit's own. A client that bootstraps from it is given the {@code DEMO}
 * address back (Kafka answers with the listener a request came in on).
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
            EmbeddedKafkaKraftBroker broker = new EmbeddedKafkaKraftBroker(1, 1);
            broker.brokerProperties(Map.of(
                    "listeners", "EXTERNAL://localhost:0,CONTROLLER://localhost:0,DEMO://localhost:" + port,
                    "listener.security.protocol.map", "EXTERNAL:PLAINTEXT,CONTROLLER:PLAINTEXT,DEMO:PLAINTEXT",
                    "group.initial.rebalance.delay.ms", "0",
                    "offsets.topic.replication.factor", "1",
                    "transaction.state.log.replication.factor", "1",
                    "transaction.state.log.min.isr", "1"));
            broker.afterPropertiesSet();
            beanFactory.registerSingleton("demoKafkaBroker", broker);
            ((DefaultListableBeanFactory) beanFactory).registerDisposableBean("demoKafkaBroker", broker);
            LOG.info("In-JVM Kafka broker (profile kafka-broker) listening on localhost:{}; more instances:"
                    + " --spring.profiles.active=kafka --spring.kafka.bootstrap-servers=localhost:{}", port, port);
        };
    }
}
