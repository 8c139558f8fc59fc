package io.appbackplane.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.appbackplane.spring.annotation.AppComponent;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Import;
import org.springframework.kafka.core.KafkaTemplate;

/**
 * Records held back at the operation limit never started, so a hand-over does not wait for them:
 * stopping a node whose component is full waits only for the records it is running (released here
 * once the hand-over has begun), not for the whole revoke timeout, and reports none of the held-back
 * records as running; the committed offset is just past the records that ran.
 */
class KafkaHeldBackHandOverTest {

    static final CountDownLatch RELEASE = new CountDownLatch(1);

    @AppComponent("full")
    static class Full {
        @KafkaEndpoint(topics = "held-back")
        void onRecord(String value) throws InterruptedException {
            if (!RELEASE.await(60, TimeUnit.SECONDS)) {
                throw new IllegalStateException("never released");
            }
        }
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(Full.class)
    static class App {}

    @Test
    void aHandOverWaitsForTheRunningRecordsOnlyNotForThoseHeldBackAtTheLimit() throws Exception {
        TestBroker.createTopics(1, "held-back", "held-back-dlt");
        Node node = Node.start("held", App.class, "backplane.kafka.group-id=held-back",
                "backplane.components.full.operation-limit=4",
                "backplane.kafka.revoke-timeout=30s",
                "spring.lifecycle.timeout-per-shutdown-phase=60s");
        RecordDispatcher dispatcher = node.dispatcher("full", "onRecord");
        KafkaTemplate<byte[], byte[]> producer = TestBroker.bytesTemplate();
        for (int i = 0; i < 40; i++) {
            producer.send("held-back", ("k" + i).getBytes(StandardCharsets.UTF_8), ("v" + i).getBytes(StandardCharsets.UTF_8));
        }
        producer.flush();
        TopicPartition tp = new TopicPartition("held-back", 0);
        await().atMost(TestBroker.patience()).until(() -> {
            PartitionFeed feed = dispatcher.feeds().get(tp);
            return feed != null && feed.progress.snapshot().received() == 40 && feed.backlogSize() > 0;
        });
        PartitionFeed feed = dispatcher.feeds().get(tp);
        int heldBack = feed.backlogSize();
        long submitted = 40 - heldBack; // running, or queued in the backplane behind the limit's reserve

        Thread stopper = new Thread(node::close, "stopper");
        stopper.start();
        await().atMost(TestBroker.patience()).until(() -> dispatcher.feeds().isEmpty()); // the revocation has begun
        RELEASE.countDown();
        stopper.join(TimeUnit.SECONDS.toMillis(90));

        long handOverMillis = dispatcher.lastHandoverNanos.get() / 1_000_000;
        System.out.printf("[held-back] %d records submitted, %d held back at the limit of 4; hand-over took %d ms"
                + " (revoke-timeout 30 s), %d reported as still running, committed %s%n", submitted, heldBack, handOverMillis, dispatcher.abandonedAtRevoke.get(),
                TestBroker.committed("held-back"));
        assertThat(stopper.isAlive()).isFalse();
        assertThat(dispatcher.handovers.get()).isEqualTo(1);
        assertThat(handOverMillis).as("the hand-over waited for the held-back records").isLessThan(15_000);
        assertThat(dispatcher.abandonedAtRevoke.get()).as("records reported as running at the hand-over").isZero();
        assertThat(TestBroker.committed("held-back")).containsEntry(tp, submitted);
    }
}
