package io.appbackplane.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.kafka.core.KafkaTemplate;

/**
 * Two nodes as separate JVM processes ({@link KillableNode}) share a topic of 6 partitions on the
 * test's broker; one is killed with SIGKILL while records flow. The survivor takes its partitions
 * once the group's session timeout expires (measured and printed: the hand-over time); every record
 * runs at least once; each node runs each key's records in order, without running one twice; the
 * group's committed offsets reach the end. Then the killed node starts again, the assignment
 * splits again, and both run the records that follow.
 *
 * <p>Tagged {@code stress}: three application JVMs start one after another, too slow for the default
 * build ({@code ./mvnw -pl backplane-kafka -am -Pstress verify -Dtest=KafkaProcessKillTest
 * -Dsurefire.failIfNoSpecifiedTests=false}; docs/scale-out.md has its timings).
 */
@Tag("stress")
class KafkaProcessKillTest {

    static final String TOPIC = "process-kill";
    static final String GROUP = "process-kill";
    static final int KEYS = 120;
    static final int STREAM = 12_000;
    static final int AFTER_RESTART = 1_200;
    static final int SESSION_TIMEOUT_MS = 3_000;

    @TempDir
    Path dir;

    private final List<Process> processes = new ArrayList<>();

    @Test
    void aNodeKilledWithSigkillMidStreamLosesNothingAndRejoinsWhenRestarted() throws Exception {
        TestBroker.createTopics(6, TOPIC, TOPIC + "-dlt");
        Map<String, Integer> nextSeq = new java.util.concurrent.ConcurrentHashMap<>();
        KafkaTemplate<byte[], byte[]> producer = TestBroker.bytesTemplate();
        try {
            Process a = start("a");
            Process b = start("b");
            awaitReady("a");
            awaitReady("b");
            await().atMost(TestBroker.patience()).until(() -> assignment().size() == 2
                    && assignment().values().stream().allMatch(partitions -> partitions.size() == 3));

            // a stream of about 2,000 records a second, while a node is killed and its partitions move
            CompletableFuture<Void> streamed = stream(producer, nextSeq, STREAM, 100, Duration.ofMillis(50));
            await().atMost(TestBroker.patience()).until(() -> lines("a").size() >= 2_000);
            Set<Integer> killedPartitions = partitionsIn(lines("a"));
            long killedAtMillis = System.currentTimeMillis();
            a.destroyForcibly(); // SIGKILL
            assertThat(a.waitFor(30, TimeUnit.SECONDS)).isTrue();
            Map<TopicPartition, Long> committedAtKill = TestBroker.committed(GROUP);
            int ranByKilled = lines("a").size();
            assertThat(distinct()).hasSizeLessThan(STREAM); // killed mid-stream

            await().atMost(TestBroker.patience()).until(() -> lines("b").stream()
                    .anyMatch(line -> killedPartitions.contains(line.partition()) && line.millis() >= killedAtMillis));
            await().atMost(TestBroker.patience()).until(() -> assignment().size() == 1
                    && assignment().values().iterator().next().size() == 6); // the survivor owns every partition
            long handOverMillis = lines("b").stream()
                    .filter(line -> killedPartitions.contains(line.partition()) && line.millis() >= killedAtMillis)
                    .mapToLong(Line::millis).min().orElseThrow() - killedAtMillis;
            streamed.get(2, TimeUnit.MINUTES);
            await().atMost(Duration.ofMinutes(2)).until(() -> distinct().size() == STREAM);
            await().atMost(TestBroker.patience()).until(() -> committedSum() == STREAM);
            int ranTwice = lines("a").size() + lines("b").size() - STREAM;
            int ranByB = lines("b").size();
            long skippedByB = skippedAsCompleted("b");

            long restartedAt = System.nanoTime();
            start("a2");
            awaitReady("a2");
            await().atMost(TestBroker.patience()).until(() -> assignment().size() == 2
                    && assignment().values().stream().allMatch(partitions -> partitions.size() == 3));
            double rejoinSeconds = (System.nanoTime() - restartedAt) / 1e9;
            stream(producer, nextSeq, AFTER_RESTART, AFTER_RESTART, Duration.ofMillis(50)).get(1, TimeUnit.MINUTES);
            await().atMost(Duration.ofMinutes(2)).until(() -> distinct().size() == STREAM + AFTER_RESTART);
            await().atMost(TestBroker.patience()).until(() -> committedSum() == STREAM + AFTER_RESTART);

            System.out.printf("[process-kill] %d records on %d keys, session timeout %d ms: node a killed (SIGKILL) after running"
                    + " %d, owning partitions %s, committed then %s; node b ran its first record of those partitions %d ms"
                    + " after the kill (the hand-over); %d records ran twice (finished on a, not in any commit), %d were skipped"
                    + " by b as completed on a (commit metadata); node a"
                    + " restarted and the assignment split 3/3 again %.1f s after its start; of the %d records after that, a ran %d,"
                    + " b %d%n", STREAM, KEYS, SESSION_TIMEOUT_MS, ranByKilled, killedPartitions, committedAtKill, handOverMillis,
                    ranTwice, skippedByB, rejoinSeconds, AFTER_RESTART, lines("a2").size(), lines("b").size() - ranByB);
            for (String node : List.of("a", "b", "a2")) {
                assertThat(orderViolations(lines(node))).as("node %s runs each key in order, once", node).isEmpty();
            }
            assertThat(lines("a2")).isNotEmpty();
            assertThat(handOverMillis).isGreaterThan(0);
        } finally {
            processes.forEach(Process::destroyForcibly);
            for (Process p : processes) {
                p.waitFor(30, TimeUnit.SECONDS);
            }
            producer.destroy();
        }
    }

    /** Starts a node: {@code java -cp <this test class path> KillableNode ...}, output to files in the temp dir. */
    private Process start(String node) throws IOException {
        String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = List.of(java, "-Xmx256m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
                "-cp", classPath, KillableNode.class.getName(),
                "--spring.application.name=" + node,
                "--spring.kafka.bootstrap-servers=" + TestBroker.bootstrapServers(),
                "--spring.kafka.consumer.properties.session.timeout.ms=" + SESSION_TIMEOUT_MS,
                "--spring.kafka.consumer.properties.heartbeat.interval.ms=500",
                "--spring.kafka.consumer.max-poll-records=200",
                "--backplane.kafka.group-id=" + GROUP,
                "--backplane.kafka.revoke-timeout=5s",
                "--kill-test.topic=" + TOPIC,
                "--kill-test.log=" + log(node));
        Process process = new ProcessBuilder(command)
                .redirectOutput(dir.resolve(node + ".out").toFile())
                .redirectError(dir.resolve(node + ".err").toFile())
                .start();
        processes.add(process);
        return process;
    }

    private void awaitReady(String node) {
        File out = dir.resolve(node + ".out").toFile();
        await().atMost(Duration.ofMinutes(2)).until(() -> {
            Process process = processes.get(processes.size() - 1);
            if (!process.isAlive() && !Files.readString(out.toPath()).contains("READY")) {
                throw new IllegalStateException("node " + node + " exited with " + process.exitValue() + ": "
                        + Files.readString(dir.resolve(node + ".err")) + Files.readString(out.toPath()));
            }
            return Files.readString(out.toPath()).contains("READY");
        });
    }

    /** What {@code node} logged as skipped on assignment: records an earlier owner completed (commit metadata). */
    private long skippedAsCompleted(String node) throws IOException {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile(": (\\d+) records beyond it completed before")
                .matcher(Files.readString(dir.resolve(node + ".out")));
        long skipped = 0;
        while (m.find()) {
            skipped += Long.parseLong(m.group(1));
        }
        return skipped;
    }

    private Path log(String node) {
        return dir.resolve(node + ".log");
    }

    /** One record as a node ran it. */
    record Line(int partition, long offset, String key, int seq, long millis) {}

    /** The records {@code node} ran, in the order it ran them; a line cut by the kill is left out. */
    private List<Line> lines(String node) throws IOException {
        Path log = log(node);
        if (!Files.exists(log)) {
            return List.of();
        }
        List<Line> lines = new ArrayList<>();
        String text = Files.readString(log, StandardCharsets.UTF_8);
        String[] all = text.split("\n", -1);
        for (int i = 0; i < all.length - 1; i++) { // the last piece is empty, or a line cut short
            String[] f = all[i].split(" ");
            lines.add(new Line(Integer.parseInt(f[0]), Long.parseLong(f[1]), f[2], Integer.parseInt(f[3]), Long.parseLong(f[4])));
        }
        return lines;
    }

    /** Every (key, seq) run by any node. */
    private Set<String> distinct() throws IOException {
        Set<String> all = new HashSet<>();
        for (String node : List.of("a", "b", "a2")) {
            lines(node).forEach(line -> all.add(line.key() + "#" + line.seq()));
        }
        return all;
    }

    private static Set<Integer> partitionsIn(List<Line> lines) {
        Set<Integer> partitions = new HashSet<>();
        lines.forEach(line -> partitions.add(line.partition()));
        return partitions;
    }

    /** A key's records must run in increasing order within one process (no reordering, no repeat). */
    private static List<String> orderViolations(List<Line> lines) {
        Map<String, Integer> last = new HashMap<>();
        List<String> violations = new ArrayList<>();
        for (Line line : lines) {
            Integer previous = last.put(line.key(), line.seq());
            if (previous != null && line.seq() <= previous) {
                violations.add(line.key() + ": " + line.seq() + " after " + previous);
            }
        }
        return violations;
    }

    private static long committedSum() {
        return TestBroker.committed(GROUP).values().stream().mapToLong(Long::longValue).sum();
    }

    /** The group's members (by member id) and the partitions each is assigned, as the broker has them. */
    private static Map<String, Set<TopicPartition>> assignment() throws Exception {
        try (Admin admin = TestBroker.admin()) {
            ConsumerGroupDescription group = admin.describeConsumerGroups(List.of(GROUP)).describedGroups().get(GROUP)
                    .get(10, TimeUnit.SECONDS);
            Map<String, Set<TopicPartition>> members = new HashMap<>();
            for (MemberDescription member : group.members()) {
                members.put(member.consumerId(), member.assignment().topicPartitions());
            }
            return members;
        }
    }

    /**
     * Sends {@code count} records, {@code perTick} every {@code tick}; each key's values are its
     * sequence numbers 0, 1, 2, ... across calls. Completes when every record is acknowledged.
     */
    private static CompletableFuture<Void> stream(KafkaTemplate<byte[], byte[]> producer, Map<String, Integer> nextSeq,
            int count, int perTick, Duration tick) {
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
        CompletableFuture<Void> done = new CompletableFuture<>();
        AtomicInteger sent = new AtomicInteger();
        List<CompletableFuture<?>> acks = new ArrayList<>();
        timer.scheduleAtFixedRate(() -> {
            try {
                for (int i = 0; i < perTick && sent.get() < count; i++) {
                    int n = sent.getAndIncrement();
                    String key = "k" + (n % KEYS);
                    int seq = nextSeq.merge(key, 1, Integer::sum) - 1;
                    acks.add(producer.send(TOPIC, key.getBytes(StandardCharsets.UTF_8),
                            Integer.toString(seq).getBytes(StandardCharsets.UTF_8)));
                }
                if (sent.get() >= count) {
                    producer.flush();
                    timer.shutdown();
                    CompletableFuture.allOf(acks.toArray(CompletableFuture[]::new)).whenComplete((r, e) -> {
                        if (e != null) {
                            done.completeExceptionally(e);
                        } else {
                            done.complete(null);
                        }
                    });
                }
            } catch (RuntimeException e) {
                timer.shutdown();
                done.completeExceptionally(e);
            }
        }, 0, tick.toMillis(), TimeUnit.MILLISECONDS);
        return done;
    }
}
