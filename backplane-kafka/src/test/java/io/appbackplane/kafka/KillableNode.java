package io.appbackplane.kafka;

import io.appbackplane.spring.annotation.AppComponent;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.annotation.Import;

/**
 * One node of {@link KafkaProcessKillTest}, in a JVM of its own: an application whose
 * {@code @KafkaEndpoint} appends each record it runs to the file {@code kill-test.log} (partition,
 * offset, key, value, wall-clock millis), one write per record, before the record's action
 * completes — so a record whose offset could have been committed is in the file, even when the
 * process is killed with SIGKILL (written bytes are the kernel's, not the process's). Prints {@code
 * READY} once its context has started; runs until it is killed or terminated.
 *
 * <p>Arguments: Spring Boot command-line properties ({@code --spring.kafka.bootstrap-servers=...},
 * {@code --kill-test.topic=...}, {@code --kill-test.log=...}, {@code --backplane.kafka.group-id=...}).
 */
public final class KillableNode {

    /** Each record's action takes about this long (the object waits without holding a thread). */
    static final long WORK_MILLIS = 1;

    private KillableNode() {}

    @AppComponent("killable")
    static class Killable {
        private static final Executor WORK = CompletableFuture.delayedExecutor(WORK_MILLIS, TimeUnit.MILLISECONDS);
        private final FileChannel log;

        Killable(@Value("${kill-test.log}") String path) throws IOException {
            this.log = FileChannel.open(Path.of(path), StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.APPEND);
        }

        @KafkaEndpoint(topics = "${kill-test.topic}")
        CompletableFuture<Void> onRecord(ConsumerRecord<String, String> record) {
            return CompletableFuture.runAsync(() -> append(record), WORK);
        }

        private void append(ConsumerRecord<String, String> record) {
            String line = record.partition() + " " + record.offset() + " " + record.key() + " " + record.value() + " "
                    + System.currentTimeMillis() + "\n";
            try {
                log.write(ByteBuffer.wrap(line.getBytes(StandardCharsets.UTF_8)));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(Killable.class)
    static class App {}

    public static void main(String[] args) throws InterruptedException {
        new SpringApplicationBuilder(App.class)
                .web(WebApplicationType.NONE)
                .properties("spring.main.banner-mode=off",
                        "spring.kafka.consumer.auto-offset-reset=earliest",
                        "spring.kafka.consumer.fetch-max-wait=20ms",
                        "spring.lifecycle.timeout-per-shutdown-phase=10s",
                        "logging.level.org.apache.kafka=warn",
                        "logging.level.kafka=warn",
                        "logging.level.org.springframework.kafka=warn")
                .run(args);
        System.out.println("READY");
        System.out.flush();
        new CountDownLatch(1).await(); // until killed, or terminated (Spring's shutdown hook closes the context)
    }
}
