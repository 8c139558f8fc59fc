package io.appbackplane.sample.intake;

import io.appbackplane.kafka.LoopbackKafkaBroker;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.config.BeanFactoryPostProcessor;
import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Profile;
import org.springframework.core.env.Environment;

/**
 * The {@code kafka-broker} profile, for trying the sample's {@code kafka} profile without a Kafka
 * installation: an in-JVM KRaft broker (the Kafka module's test {@link LoopbackKafkaBroker}, broker
 * and controller in one node) on {@code 127.0.0.1:9092}, or {@code sample.kafka.broker.port}. Lives
 * in test sources, so it only exists under {@code spring-boot:test-run} (and in tests), never in the
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
            LoopbackKafkaBroker broker;
            try {
                broker = LoopbackKafkaBroker.start(port, false, Map.of());
            } catch (RuntimeException e) {
                throw new IllegalStateException("cannot start the demo Kafka broker on 127.0.0.1:" + port
                        + " (port taken? set sample.kafka.broker.port): " + e, e);
            }
            beanFactory.registerSingleton("demoKafkaBroker", broker);
            ((DefaultListableBeanFactory) beanFactory).registerDisposableBean("demoKafkaBroker", broker::close);
            LOG.info("In-JVM Kafka broker (profile kafka-broker) listening on localhost:{} (127.0.0.1 only); more instances:"
                    + " --spring.profiles.active=kafka --spring.kafka.bootstrap-servers=localhost:{}", port, port);
        };
    }
}
