package io.appbackplane.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.appbackplane.spring.annotation.AppComponent;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Import;
import org.springframework.kafka.core.KafkaTemplate;

/**
 * Partitions move between nodes: a node closed mid-stream hands its partitions over after its
 * in-flight records finish (no loss, no key out of order, duplicates only for records still running
 * when the wait ran out); a node whose records never finish ("killed": nothing it received completes,
 * so nothing is committed) has all of them delivered again to the next owner.
 */
class KafkaHandOverTest {

    static final KeyLedger LEDGER = new KeyLedger();
    static final List<CompletableFuture<Void>> STUCK = new java.util.concurrent.CopyOnWriteArrayList<>();
    static final AtomicInteger KILLED_NODE_RECEIVED = new AtomicInteger();
    static final Map<String, AtomicInteger> KILL_TEST_DONE = new java.util.concurrent.ConcurrentHashMap<>();

    @AppComponent("ledger")
    static class Ledger {
        private final String node;

        Ledger(@Value("${node.name}") String node) {
            this.node = node;
        }

        @KafkaEndpoint(topics = "hand-over")
        void onRecord(ConsumerRecord<String, String> record) {
            LEDGER.begin(node, record);
            long until = System.nanoTime() + 20_000; // 20 us of work, so the stream is still running at the close
            while (System.nanoTime() < until) {
                Thread.onSpinWait();
            }
            LEDGER.end(node, record);
        }
    }

    @AppComponent("stuckable")
    static class Stuckable {
        private final String node;

        Stuckable(@Value("${node.name}") String node) {
            this.node = node;
        }

        @KafkaEndpoint(topics = "kill")
        CompletableFuture<Void> onRecord(ConsumerRecord<String, String> record) {
            if (node.equals("killed")) {
                KILLED_NODE_RECEIVED.incrementAndGet();
                CompletableFuture<Void> never = new CompletableFuture<>(); // the node dies before this completes
                STUCK.add(never);
                return never;
            }
            KILL_TEST_DONE.computeIfAbsent(record.key() + "@" + record.offset() + "/" + record.partition(),
                    k -> new AtomicInteger()).incrementAndGet();
            return CompletableFuture.completedFuture(null);
        }
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(Ledger.class)
    static class LedgerApp {}

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(Stuckable.class)
    static class StuckableApp {}

    @Test
    void aNodeClosedMidStreamHandsOverWithoutLossOrReordering() throws Exception {
        int records = 40_000;
        int keys = 500;
        String group = "hand-over-group";
        TestBroker.createTopics(6, "hand-over");
        String[] props = {"backplane.kafka.group-id=" + group};
        Node a = Node.start("a", LedgerApp.class, props);
        try (Node b = Node.start("b", LedgerApp.class, props)) {
            send("hand-over", records, keys);
            // Both nodes must own partitions (b's join rebalance over) before a closes: a close in the
            // middle of a cooperative rebalance makes Kafka report a's partitions LOST, not revoked
            // (a's queued records are then cancelled, only its running ones may overlap: that case is
            // KafkaLostPartitionsTest; this test is about the clean hand-over).
            await().atMost(TestBroker.patience()).until(() -> LEDGER.byNode.getOrDefault("a", new java.util.concurrent.atomic.AtomicLong()).get() > 2_000
                    && LEDGER.byNode.getOrDefault("b", new java.util.concurrent.atomic.AtomicLong()).get() > 0
                    && LEDGER.processed.get() > records / 5);
            long processedAtClose = LEDGER.processed.get();
            RecordDispatcher closed = a.dispatcher("ledger", "onRecord");
            long closing = System.nanoTime();
            a.close();
            double closeMillis = (System.nanoTime() - closing) / 1e6;
            await().atMost(Duration.ofSeconds(120)).until(() -> LEDGER.processed.get() >= records);
            RecordDispatcher survivor = b.dispatcher("ledger", "onRecord");
            System.out.printf("[hand-over] %d records, %d keys: processed %d (a %s, b %s), %d when a closed; duplicates %d;"
                    + " a: hand-overs %d, last %.1f ms, max %.1f ms, records still running when handed over %d;"
                    + " b: hand-overs %d, max %.1f ms; a's close took %.0f ms%n",
                    records, keys, LEDGER.processed.get(), LEDGER.byNode.get("a"), LEDGER.byNode.get("b"), processedAtClose,
                    LEDGER.duplicates.get(), closed.handovers.get(), closed.lastHandoverNanos.get() / 1e6,
                    closed.maxHandoverNanos.get() / 1e6, closed.abandonedAtRevoke.get(), survivor.handovers.get(),
                    survivor.maxHandoverNanos.get() / 1e6, closeMillis);
            assertThat(processedAtClose).isLessThan(records); // closed mid-stream
            assertThat(LEDGER.violations()).isEmpty();
            assertThat(LEDGER.processed.get()).isEqualTo(records);
            // duplicates only for records that were still running, uncommitted, when a handed over
            assertThat(LEDGER.duplicates.get()).isLessThanOrEqualTo(closed.abandonedAtRevoke.get() + survivor.abandonedAtRevoke.get());
            await().atMost(TestBroker.patience()).until(() ->
                    TestBroker.committed(group).values().stream().mapToLong(Long::longValue).sum() == records);
            LEDGER.checkCommitted(TestBroker.committed(group));
            assertThat(LEDGER.violations()).isEmpty();
        } finally {
            a.close();
        }
    }

    @Test
    void aKilledNodesUncommittedRecordsAreDeliveredAgain() throws Exception {
        int records = 600;
        String group = "kill-group";
        TestBroker.createTopics(6, "kill", "kill-dlt");
        String[] props = {"backplane.kafka.group-id=" + group, "backplane.kafka.revoke-timeout=500ms",
                "spring.lifecycle.timeout-per-shutdown-phase=2s"};
        Node killed = Node.start("killed", StuckableApp.class, props);
        RecordDispatcher dead;
        try {
            send("kill", records, 50);
            dead = killed.dispatcher("stuckable", "onRecord");
            RecordDispatcher receiving = dead;
            // the first record of each key never finishes, so the key's later records wait behind it
            await().atMost(TestBroker.patience()).until(() -> receiving.feeds().values().stream()
                    .mapToInt(f -> f.progress.snapshot().inFlight()).sum() == records && KILLED_NODE_RECEIVED.get() == 50);
        } finally {
            killed.close(); // nothing it received finished: nothing may be committed
        }
        Map<TopicPartition, Long> committedAfterKill = TestBroker.committed(group);
        System.out.printf("[kill] %d records received by the killed node (%d started, one per key), completed there %d, committed after the kill %s,"
                + " counted as redelivered %d%n", records, KILLED_NODE_RECEIVED.get(), dead.completed.get(), committedAfterKill,
                dead.abandonedAtRevoke.get());
        assertThat(committedAfterKill.values()).allMatch(offset -> offset == 0);
        assertThat(dead.abandonedAtRevoke.get()).isEqualTo(records);
        assertThat(dead.deadLettered.get()).isZero(); // a shutdown is not a failure of the record

        try (Node next = Node.start("next", StuckableApp.class, props)) {
            await().atMost(TestBroker.patience()).until(() -> KILL_TEST_DONE.size() == records);
            await().atMost(TestBroker.patience()).until(() ->
                    TestBroker.committed(group).values().stream().mapToLong(Long::longValue).sum() == records);
            System.out.printf("[kill] next node processed %d of %d redelivered records%n", KILL_TEST_DONE.size(), records);
            assertThat(KILL_TEST_DONE.values()).allMatch(count -> count.get() == 1);
            assertThat(next.dispatcher("stuckable", "onRecord").completed.get()).isEqualTo(records);
        }
        STUCK.forEach(f -> f.complete(null)); // late completions of the dead node change nothing
        assertThat(TestBroker.committed(group).values().stream().mapToLong(Long::longValue).sum()).isEqualTo(records);
    }

    static void send(String topic, int records, int keys) throws Exception {
        KafkaTemplate<byte[], byte[]> producer = TestBroker.bytesTemplate();
        List<CompletableFuture<?>> sent = new ArrayList<>();
        for (int i = 0; i < records; i++) {
            sent.add(producer.send(topic, ("k" + (i % keys)).getBytes(StandardCharsets.UTF_8),
                    Long.toString(i / keys).getBytes(StandardCharsets.UTF_8)));
        }
        producer.flush();
        CompletableFuture.allOf(sent.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
    }
}
