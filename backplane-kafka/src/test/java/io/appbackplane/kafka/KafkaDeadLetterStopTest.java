package io.appbackplane.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.appbackplane.spring.annotation.AppComponent;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Import;
import org.springframework.kafka.core.KafkaTemplate;

/**
 * {@code backplane.kafka.dead-letter.on-failure=stop}: a record whose dead-letter publish fails every
 * attempt (its dead-letter topic does not exist, and the broker creates none) is not committed — the
 * partition's committed offset stops just before it, though later records completed — and the
 * endpoint's container stops, with an error log line saying which record, why, and what to do. The
 * default, {@code skip}, is tested in {@link KafkaPoisonRecordTest}.
 */
class KafkaDeadLetterStopTest {

    static final Set<Long> DONE = ConcurrentHashMap.newKeySet();

    @AppComponent("stopping")
    static class Stopping {
        @KafkaEndpoint(topics = "stop-no-dlt")
        void onRecord(ConsumerRecord<?, ?> record, String value) {
            if (value.startsWith("bad")) {
                throw new IllegalArgumentException("cannot take " + value);
            }
            DONE.add(record.offset());
        }
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(Stopping.class)
    static class App {}

    @Test
    void aRecordThatCannotBeDeadLetteredStaysUncommittedAndStopsItsEndpointsContainer() {
        TestBroker.createTopics(1, "stop-no-dlt"); // and no stop-no-dlt-dlt
        ListAppender<ILoggingEvent> log = new ListAppender<>();
        try (Node node = Node.start("stop", App.class, "backplane.kafka.group-id=stop",
                "backplane.kafka.retry.attempts=1",
                "backplane.kafka.dead-letter.on-failure=stop",
                "backplane.kafka.dead-letter.attempts=2",
                "backplane.kafka.dead-letter.retry-delay=50ms",
                "spring.kafka.producer.properties.max.block.ms=500")) {
            log.start();
            ((Logger) LoggerFactory.getLogger(RecordDispatcher.class)).addAppender(log);
            KafkaTemplate<byte[], byte[]> producer = TestBroker.bytesTemplate();
            for (String value : new String[] {"ok-0", "bad-1", "ok-2", "ok-3", "ok-4"}) {
                producer.send("stop-no-dlt", value.getBytes(StandardCharsets.UTF_8), value.getBytes(StandardCharsets.UTF_8));
            }
            producer.flush();

            KafkaEndpointRegistrar.Registration endpoint = node.registrar().registrations().get(0);
            await().atMost(TestBroker.patience()).until(() -> !endpoint.container().isRunning());
            assertThat(DONE).as("the records around the one that could not be dead-lettered ran").contains(0L, 2L, 3L, 4L);
            assertThat(TestBroker.committed("stop")).as("committed up to the record, not past it")
                    .containsEntry(new TopicPartition("stop-no-dlt", 0), 1L);
            assertThat(endpoint.dispatcher().deadLetterFailed.get()).as("not skipped").isZero();
            assertThat(new ArrayList<>(log.list)).map(ILoggingEvent::getFormattedMessage).anySatisfy(m -> assertThat(m)
                    .contains("stop-no-dlt-0@1", "could not be published to its dead-letter topic in 2 attempts",
                            "stays uncommitted", "container stops", "on-failure=stop", "cannot take bad-1"));
        } finally {
            ((Logger) LoggerFactory.getLogger(RecordDispatcher.class)).detachAppender(log);
        }
    }
}
