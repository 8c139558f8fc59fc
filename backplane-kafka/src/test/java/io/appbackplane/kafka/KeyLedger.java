package io.appbackplane.kafka;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;

/**
 * What the test actions saw, across every node of a test (they share this JVM). Each record's value
 * is its sequence number within its key (0, 1, 2, ...). Checked in the action itself: a key never
 * runs on two workers (or nodes) at once, and never skips ahead (a record whose sequence is above
 * the highest seen + 1 ran before an earlier one). A sequence at or below the highest seen is a
 * duplicate (a redelivery), counted.
 */
final class KeyLedger {

    private final Map<String, AtomicLong> highest = new ConcurrentHashMap<>();
    private final Map<String, AtomicBoolean> running = new ConcurrentHashMap<>();
    private final Map<TopicPartition, ConcurrentSkipListSet<Long>> completedOffsets = new ConcurrentHashMap<>();
    final AtomicLong processed = new AtomicLong();
    final AtomicLong duplicates = new AtomicLong();
    final Map<String, AtomicLong> byNode = new ConcurrentHashMap<>();
    final ConcurrentLinkedQueue<String> violations = new ConcurrentLinkedQueue<>();

    /** Call at the start of the action. */
    void begin(String node, ConsumerRecord<?, ?> record) {
        String key = String.valueOf(record.key());
        if (!running.computeIfAbsent(key, k -> new AtomicBoolean()).compareAndSet(false, true)) {
            violations.add("key " + key + " ran twice at once (" + node + ", offset " + record.offset() + ")");
        }
    }

    /** Call at the end of the action: the record is complete. */
    void end(String node, ConsumerRecord<?, ?> record) {
        String key = String.valueOf(record.key());
        long seq = Long.parseLong(String.valueOf(record.value()));
        AtomicLong max = highest.computeIfAbsent(key, k -> new AtomicLong(-1));
        long before = max.get();
        if (seq <= before) {
            duplicates.incrementAndGet();
        } else if (seq != before + 1) {
            violations.add("key " + key + " ran seq " + seq + " after " + before + " on " + node);
        } else {
            max.set(seq);
            processed.incrementAndGet();
        }
        byNode.computeIfAbsent(node, n -> new AtomicLong()).incrementAndGet();
        completedOffsets.computeIfAbsent(new TopicPartition(record.topic(), record.partition()),
                tp -> new ConcurrentSkipListSet<>()).add(record.offset());
        running.get(key).set(false);
    }

    /** Every offset below each committed offset belongs to a completed record (a violation otherwise). */
    void checkCommitted(Map<TopicPartition, Long> committed) {
        committed.forEach((tp, offset) -> {
            ConcurrentSkipListSet<Long> done = completedOffsets.getOrDefault(tp, new ConcurrentSkipListSet<>());
            // offsets are dense (no transactions, no compaction): all of 0..offset-1 must be done
            if (offset > 0 && (done.size() < offset || done.headSet(offset).size() != offset)) {
                violations.add(tp + " committed up to " + offset + " but only " + done.headSet(offset).size()
                        + " records below it completed");
            }
        });
    }

    List<String> violations() {
        return List.copyOf(violations);
    }
}
