package io.appbackplane.kafka;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.BindException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Stream;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.metadata.storage.Formatter;
import org.apache.kafka.server.common.MetadataVersion;

/**
 * A single-node KRaft broker (broker and controller in one server) whose every listener is on
 * 127.0.0.1: Kafka's own {@link KafkaRaftServer} with explicit {@code listeners}, since the test
 * kit behind spring-kafka-test's {@code EmbeddedKafkaKraftBroker} binds its listeners to all
 * interfaces and cannot be told otherwise. Public in the module's test jar: the sample application's
 * {@code kafka-broker} profile and its tests start theirs with it.
 *
 * <p>Ports: the controller's port must be known before start-up (it is in {@code
 * controller.quorum.voters}), so the ports not given are picked free on 127.0.0.1 first; if another
 * process takes one in between, start-up fails to bind and is tried again with new ports.
 */
public final class LoopbackKafkaBroker implements AutoCloseable {

    private static final int ATTEMPTS = 5;

    private final KafkaRaftServer server;
    private final Path directory;
    private final String bootstrapServers;
    private final String sslBootstrapServers;

    private LoopbackKafkaBroker(KafkaRaftServer server, Path directory, String bootstrapServers, String sslBootstrapServers) {
        this.server = server;
        this.directory = directory;
        this.bootstrapServers = bootstrapServers;
        this.sslBootstrapServers = sslBootstrapServers;
    }

    /**
     * Starts a broker on 127.0.0.1, on free ports.
     *
     * @param overrides broker properties added to (or replacing) the single-node defaults
     */
    public static LoopbackKafkaBroker start(Map<String, String> overrides) {
        return start(0, false, overrides);
    }

    /**
     * Starts a broker on 127.0.0.1.
     *
     * @param port the plaintext client listener's port; 0 for a free one
     * @param sslListener whether to add an SSL client listener (on a free port, {@link
     *     #sslBootstrapServers()}); {@code overrides} then give its {@code ssl.keystore.*} settings
     * @param overrides broker properties added to (or replacing) the single-node defaults
     */
    public static LoopbackKafkaBroker start(int port, boolean sslListener, Map<String, String> overrides) {
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port " + port + "; allowed: 0 (a free one) to 65535");
        }
        IllegalStateException failure = new IllegalStateException("cannot start a Kafka broker on 127.0.0.1"
                + (port == 0 ? "" : ":" + port));
        if (port != 0 && !isFree(port)) {
            failure.addSuppressed(new BindException("127.0.0.1:" + port + " is in use"));
            throw failure;
        }
        for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
            try {
                return attempt(port, sslListener, overrides);
            } catch (Exception e) {
                failure.addSuppressed(e);
                if (!causedByBind(e)) {
                    break;
                }
            }
        }
        throw failure;
    }

    private static LoopbackKafkaBroker attempt(int port, boolean sslListener, Map<String, String> overrides) throws Exception {
        int brokerPort = port != 0 ? port : freeLoopbackPort();
        int controllerPort = freeLoopbackPort();
        String ssl = sslListener ? "127.0.0.1:" + freeLoopbackPort() : null;
        Path directory = Files.createTempDirectory("loopback-kafka");
        String logDir = directory.resolve("log").toString();
        Properties props = new Properties();
        props.put("process.roles", "broker,controller");
        props.put("node.id", "1");
        props.put("listeners", "PLAINTEXT://127.0.0.1:" + brokerPort + ",CONTROLLER://127.0.0.1:" + controllerPort
                + (ssl == null ? "" : ",SSL://" + ssl));
        props.put("advertised.listeners", "PLAINTEXT://127.0.0.1:" + brokerPort + (ssl == null ? "" : ",SSL://" + ssl));
        props.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT,SSL:SSL");
        props.put("controller.listener.names", "CONTROLLER");
        props.put("inter.broker.listener.name", "PLAINTEXT");
        props.put("controller.quorum.voters", "1@127.0.0.1:" + controllerPort);
        props.put("log.dirs", logDir);
        props.put("metadata.log.dir", logDir);
        props.put("offsets.topic.replication.factor", "1");
        props.put("transaction.state.log.replication.factor", "1");
        props.put("transaction.state.log.min.isr", "1");
        props.put("share.coordinator.state.topic.replication.factor", "1");
        props.put("share.coordinator.state.topic.min.isr", "1");
        props.put("group.initial.rebalance.delay.ms", "0");
        props.putAll(overrides);
        KafkaRaftServer server = null;
        try {
            KafkaConfig config = new KafkaConfig(props, false);
            new Formatter()
                    .setPrintStream(new PrintStream(OutputStream.nullOutputStream()))
                    .setNodeId(1)
                    .setClusterId(Uuid.randomUuid().toString())
                    .setDirectories(List.of(logDir))
                    .setMetadataLogDirectory(logDir)
                    .setReleaseVersion(MetadataVersion.latestProduction())
                    .setControllerListenerName("CONTROLLER")
                    .run();
            server = new KafkaRaftServer(config, Time.SYSTEM);
            server.startup();
            return new LoopbackKafkaBroker(server, directory, "127.0.0.1:" + brokerPort, ssl);
        } catch (Exception | Error e) {
            if (server != null) {
                server.shutdown();
                server.awaitShutdown();
            }
            delete(directory);
            throw e;
        }
    }

    private static boolean isFree(int port) {
        try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            return socket.isBound();
        } catch (IOException e) {
            return false;
        }
    }

    private static boolean causedByBind(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof BindException || String.valueOf(t.getMessage()).contains("Address already in use")) {
                return true;
            }
        }
        return false;
    }

    private static int freeLoopbackPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    /** {@code 127.0.0.1:port} of the broker's plaintext listener. */
    public String bootstrapServers() {
        return bootstrapServers;
    }

    /** {@code 127.0.0.1:port} of the broker's SSL listener. */
    public String sslBootstrapServers() {
        if (sslBootstrapServers == null) {
            throw new IllegalStateException("this broker was started without an SSL listener");
        }
        return sslBootstrapServers;
    }

    @Override
    public void close() {
        server.shutdown();
        server.awaitShutdown();
        delete(directory);
    }

    private static void delete(Path directory) {
        try (Stream<Path> files = Files.walk(directory)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // a temporary directory left behind is harmless
        }
    }
}
