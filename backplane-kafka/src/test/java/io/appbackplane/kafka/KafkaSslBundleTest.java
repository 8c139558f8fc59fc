package io.appbackplane.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.appbackplane.spring.annotation.AppComponent;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Import;

/**
 * The endpoints' consumers, the dead-letter producer and the admin client behind the start-up topic
 * check and the actuator view connect with Spring Boot's SSL bundle ({@code spring.kafka.ssl.bundle}):
 * against a broker whose client listener speaks SSL with a self-signed certificate (made here with
 * the JDK's keytool) that only the bundle trusts, an endpoint runs one record, dead-letters another,
 * and the actuator view shows the committed offset as the broker has it.
 */
class KafkaSslBundleTest {

    static final String PASSWORD = "test-only";
    static final Set<String> DONE = ConcurrentHashMap.newKeySet();

    @TempDir
    static Path dir;
    static LoopbackKafkaBroker broker;
    static Path certificate;

    @AppComponent("secured")
    static class Secured {
        @KafkaEndpoint(topics = "ssl-in")
        void onRecord(String value) {
            if (value.startsWith("bad")) {
                throw new IllegalArgumentException("cannot take " + value);
            }
            DONE.add(value);
        }
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(Secured.class)
    static class App {}

    @BeforeAll
    static void startAnSslBroker() throws Exception {
        Path keyStore = dir.resolve("broker.p12");
        certificate = dir.resolve("broker.pem");
        keytool("-genkeypair", "-alias", "broker", "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=localhost",
                "-ext", "SAN=ip:127.0.0.1,dns:localhost", "-validity", "2", "-storetype", "PKCS12",
                "-keystore", keyStore.toString(), "-storepass", PASSWORD, "-keypass", PASSWORD);
        keytool("-exportcert", "-rfc", "-alias", "broker", "-keystore", keyStore.toString(), "-storepass", PASSWORD,
                "-file", certificate.toString());
        broker = LoopbackKafkaBroker.start(0, true, Map.of(
                "ssl.keystore.location", keyStore.toString(),
                "ssl.keystore.password", PASSWORD,
                "ssl.key.password", PASSWORD,
                "ssl.keystore.type", "PKCS12",
                "auto.create.topics.enable", "false"));
        TestBroker.createTopics(broker.bootstrapServers(), 1, "ssl-in", "ssl-in-dlt");
    }

    @AfterAll
    static void stopTheBroker() {
        if (broker != null) {
            broker.close();
        }
    }

    @Test
    void consumersTheDeadLetterProducerAndTheAdminClientConnectWithTheBundle() throws Exception {
        try (Node node = Node.start("ssl", App.class, "backplane.kafka.group-id=ssl",
                "backplane.kafka.retry.attempts=1",
                "spring.kafka.bootstrap-servers=" + broker.sslBootstrapServers(),
                "spring.kafka.security.protocol=SSL",
                "spring.kafka.ssl.bundle=broker",
                "spring.ssl.bundle.pem.broker.truststore.certificate=file:" + certificate)) {
            try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                    ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()), // plaintext: the test's own
                    new StringSerializer(), new StringSerializer())) {
                producer.send(new ProducerRecord<>("ssl-in", "k1", "good-1")).get(30, TimeUnit.SECONDS);
                producer.send(new ProducerRecord<>("ssl-in", "k2", "bad-2")).get(30, TimeUnit.SECONDS);
            }
            RecordDispatcher dispatcher = node.dispatcher("secured", "onRecord");
            await().atMost(TestBroker.patience()).until(() -> DONE.contains("good-1"));
            await().atMost(TestBroker.patience()).until(() -> dispatcher.deadLettered.get() == 1);
            await().atMost(TestBroker.patience()).untilAsserted(() -> assertThat(node.partitionView("secured.onRecord", "ssl-in-0"))
                    .as("the offset the broker has committed, read by the view's admin client")
                    .containsEntry("committedOffset", 2L));
        }
    }

    private static void keytool(String... arguments) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        command.addAll(List.of(arguments));
        Path output = Files.createTempFile(dir, "keytool", ".log");
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile()).start();
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("keytool finished").isTrue();
        assertThat(process.exitValue()).as("keytool %s: %s", arguments[0], Files.readString(output, StandardCharsets.UTF_8))
                .isZero();
    }
}
