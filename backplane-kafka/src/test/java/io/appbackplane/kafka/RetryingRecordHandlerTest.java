package io.appbackplane.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.appbackplane.ActionEndpoint;
import io.appbackplane.Backplane;
import io.appbackplane.BackplaneComponent;
import io.appbackplane.BackplanePolicy;
import io.appbackplane.ComponentSpec;
import io.appbackplane.ComponentState;
import io.appbackplane.EndpointSpec;
import io.appbackplane.Stepper;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.function.Supplier;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * How a {@code @KafkaEndpoint} method's result becomes the record's outcome, in step mode: a stage
 * that is already complete is taken in the record's own turn (no wait, no second turn); a pending
 * one is waited for as a reply; a failure, either way, is retried and then fails the record.
 */
class RetryingRecordHandlerTest {

    /** The endpoint method under test: answers each call with the next stage from {@link #answers}. */
    public static class Bean {
        final Deque<Supplier<CompletableFuture<String>>> answers = new ArrayDeque<>();
        int calls;

        public CompletableFuture<String> onRecord(String value) {
            calls++;
            return answers.removeFirst().get();
        }
    }

    private final Bean bean = new Bean();
    private Backplane backplane;
    private ActionEndpoint<PartitionFeed.Pending, Object> endpoint;

    @AfterEach
    void close() {
        if (backplane != null) {
            backplane.close();
        }
    }

    private void start(int attempts) throws Exception {
        backplane = Backplane.builder("records").policy(BackplanePolicy.builder().priorities(3).build()).stepMode().build();
        BackplaneComponent component = backplane.install(ComponentSpec.named("app"));
        BackplaneKafkaProperties.Retry retry = new BackplaneKafkaProperties.Retry();
        retry.setAttempts(attempts);
        retry.setInitialBackoff(Duration.ofMillis(1));
        RecordInvoker invoker = new RecordInvoker(bean, Bean.class.getMethod("onRecord", String.class));
        endpoint = component.endpoint(EndpointSpec.<PartitionFeed.Pending, Object>named("onRecord",
                new RetryingRecordHandler(invoker, retry)).keyedBy(RecordDispatcher::objectKey).withPriority(1));
        CompletableFuture<Void> up = backplane.moveTo(ComponentState.PRIMARY);
        backplane.stepper().runUntilIdle();
        assertThat(up).isCompletedWithValue(null);
    }

    private CompletableFuture<Object> call() {
        PartitionProgress progress = new PartitionProgress(last -> { });
        ConsumerRecord<Object, Object> record = new ConsumerRecord<>("t", 0, 0, "k", "v");
        return endpoint.call(new PartitionFeed.Pending(record, record, "k", progress, progress.received(0, null)));
    }

    private int stepsUntilIdle() {
        int ran = 0;
        while (backplane.stepper().runNext().kind() == Stepper.Kind.RAN) {
            ran++;
        }
        return ran;
    }

    @Test
    void aStageAlreadyCompleteIsTheRecordsResultInItsOwnTurn() throws Exception {
        start(3);
        bean.answers.add(() -> CompletableFuture.completedFuture("done"));
        CompletableFuture<Object> outcome = call();

        assertThat(stepsUntilIdle()).isOne();
        assertThat(outcome).isCompletedWithValue("done");
    }

    @Test
    void aPendingStageIsWaitedForAsAReply() throws Exception {
        start(3);
        CompletableFuture<String> later = new CompletableFuture<>();
        bean.answers.add(() -> later);
        CompletableFuture<Object> outcome = call();

        assertThat(stepsUntilIdle()).isOne();
        assertThat(outcome).isNotDone();
        later.complete("answered");
        assertThat(stepsUntilIdle()).isOne(); // the reply handler's turn
        assertThat(outcome).isCompletedWithValue("answered");
    }

    @Test
    void aStageAlreadyFailedIsRetriedLikeAThrownFailure() throws Exception {
        start(2);
        bean.answers.add(() -> CompletableFuture.failedFuture(new IllegalStateException("first try")));
        bean.answers.add(() -> CompletableFuture.completedFuture("second try"));
        CompletableFuture<Object> outcome = call();

        // the first attempt, then a wait for the back-off timer (real time), then the second attempt
        await().atMost(Duration.ofSeconds(10)).until(() -> {
            stepsUntilIdle();
            return outcome.isDone();
        });
        assertThat(outcome).isCompletedWithValue("second try");
        assertThat(bean.calls).isEqualTo(2);
    }

    @Test
    void aStageAlreadyFailedOnTheLastAttemptFailsTheRecordWithItsCause() throws Exception {
        start(1);
        bean.answers.add(() -> CompletableFuture.failedFuture(new IllegalStateException("no way")));
        CompletableFuture<Object> outcome = call();

        assertThat(stepsUntilIdle()).isOne();
        assertThat(outcome).failsWithin(Duration.ZERO).withThrowableOfType(ExecutionException.class)
                .havingCause().isInstanceOf(RetryingRecordHandler.RecordFailedException.class)
                .withMessageContaining("failed 1 time").havingCause().isInstanceOf(IllegalStateException.class)
                .withMessage("no way");
    }
}
