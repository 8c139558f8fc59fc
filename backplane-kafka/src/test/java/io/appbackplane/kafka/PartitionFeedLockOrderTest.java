package io.appbackplane.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.appbackplane.BackplaneComponent;
import java.lang.management.ManagementFactory;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.springframework.kafka.listener.MessageListenerContainer;

/**
 * The lock order between a partition's feed and its component's throttle, attacked with one fixed
 * interleaving: the consumer thread submits a record whose action is already complete (so its
 * completion, which resumes through the throttle, runs on the consumer thread inside the submit)
 * while the throttle's resume thread already holds the throttle's lock and is about to drain that
 * partition's backlog. Each thread is held at its point by latches, so the interleaving happens on
 * every run; a lock held across the submit makes it a deadlock, which the JVM reports.
 */
class PartitionFeedLockOrderTest {

    @Test
    void aCompletionInsideTheSubmitAndAResumeHoldingTheThrottleDoNotDeadlock() throws Exception {
        CountDownLatch consumerInSubmit = new CountDownLatch(1);
        CountDownLatch resumerHoldsThrottle = new CountDownLatch(1);
        AtomicReference<Thread> resumer = new AtomicReference<>();
        AtomicReference<Thread> consumer = new AtomicReference<>();

        BackplaneComponent component = proxy(BackplaneComponent.class, (method, args) -> switch (method) {
            case "name" -> "orders";
            case "operationLimit" -> 4;
            case "outstanding" -> {
                if (Thread.currentThread() == resumer.get()) { // inside the throttle's synchronized maybeResume
                    resumerHoldsThrottle.countDown();
                    awaitQuietly(consumerInSubmit);
                }
                yield 0;
            }
            default -> null;
        });
        ComponentThrottle throttle = new ComponentThrottle(component, 0.5);
        PartitionFeed.Submitter submitter = (feed, pending) -> {
            if (Thread.currentThread() == consumer.get()) {
                consumerInSubmit.countDown();
                awaitQuietly(resumerHoldsThrottle);
            }
            throttle.afterDone(); // the action was already complete: its completion runs here, inside the submit
        };
        PartitionProgress progress = new PartitionProgress(entry -> {});
        PartitionFeed feed = new PartitionFeed(new TopicPartition("orders", 0), progress, submitter, throttle);
        throttle.feeds(proxy(MessageListenerContainer.class, (method, args) -> null), feed::drain);
        throttle.pause("the test holds it paused");

        ConsumerRecord<Object, Object> record = new ConsumerRecord<>("orders", 0, 0L, "k", "v");
        Thread consumerThread = new Thread(() -> feed.offer(new PartitionFeed.Pending(record, record, "k", progress,
                progress.received(0, "ack"))), "consumer");
        Thread resumerThread = new Thread(throttle::maybeResume, "resumer");
        consumerThread.setDaemon(true);
        resumerThread.setDaemon(true);
        consumer.set(consumerThread);
        resumer.set(resumerThread);
        consumerThread.start();
        resumerThread.start();

        await().atMost(Duration.ofSeconds(60)).until(() -> !consumerThread.isAlive() && !resumerThread.isAlive()
                || deadlocked(consumerThread, resumerThread));
        assertThat(deadlocked(consumerThread, resumerThread)).as("the consumer and resume threads deadlocked").isFalse();
        assertThat(throttle.isPaused()).as("resumed once the backlog was submitted").isFalse();
        assertThat(feed.backlogSize()).isZero();
    }

    private static boolean deadlocked(Thread... threads) {
        long[] ids = ManagementFactory.getThreadMXBean().findDeadlockedThreads();
        return ids != null && Arrays.stream(threads).anyMatch(t -> Arrays.stream(ids).anyMatch(id -> id == t.getId()));
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            if (!latch.await(60, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the other thread never reached its point");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    interface Answer {
        Object answer(String method, Object[] args);
    }

    @SuppressWarnings("unchecked")
    static <T> T proxy(Class<T> type, Answer answer) {
        return (T) Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, (p, method, args) -> {
            if (method.getName().equals("toString")) {
                return type.getSimpleName();
            }
            Object value = answer.answer(method.getName(), args);
            if (value == null && method.getReturnType() == boolean.class) {
                return false;
            }
            if (value == null && method.getReturnType() == long.class) {
                return 0L;
            }
            if (value == null && method.getReturnType() == double.class) {
                return 0.0;
            }
            if (value == null && method.getReturnType().isPrimitive() && method.getReturnType() != void.class) {
                return 0;
            }
            return value;
        });
    }
}
