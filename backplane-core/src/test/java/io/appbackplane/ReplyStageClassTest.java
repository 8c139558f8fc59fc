package io.appbackplane;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Any {@link CompletionStage} works as a reply, whatever its class: the JDK's
 * minimal stages ({@code completedStage}, {@code failedStage}, {@code minimalCompletionStage}) are
 * {@code CompletableFuture} subclasses whose non-stage methods ({@code isDone}, ...) throw, so the
 * backplane may use only {@code CompletionStage} methods on a reply. Otherwise, once any wait had
 * timed out on a pending stage, a wait on a minimal stage would be handed {@code
 * UnsupportedOperationException} instead of its value.
 */
class ReplyStageClassTest {

    private static final IllegalStateException DECLINED = new IllegalStateException("declined");

    private final ManualClock clock = new ManualClock();
    private final List<String> delivered = new ArrayList<>();
    /** What the timer service logged at ERROR: a timer task that threw (strong reference: JUL keeps loggers weakly). */
    private final Logger timerLog = Logger.getLogger("io.appbackplane.internal.base.TimerService");
    private final List<LogRecord> timerErrors = new CopyOnWriteArrayList<>();
    private final Handler timerErrorHandler = new Handler() {
        @Override
        public void publish(LogRecord record) {
            if (record.getLevel().intValue() >= Level.SEVERE.intValue()) {
                timerErrors.add(record);
            }
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
    };
    private Backplane backplane;
    private BackplaneComponent app;

    @BeforeEach
    void start() {
        timerLog.addHandler(timerErrorHandler);
        backplane = Backplane.builder("stages").clock(clock).stepMode().build();
        app = backplane.install(ComponentSpec.named("app"));
    }

    @AfterEach
    void close() {
        timerLog.removeHandler(timerErrorHandler);
        backplane.close();
    }

    /** Waits on {@code key} for {@code reply}, with {@code timeout} if not null; the handler records what it was given. */
    private CompletableFuture<String> await(String key, CompletionStage<String> reply, Duration timeout) {
        ReplyHandler<String, String> handler = (ctx, value, failure) -> {
            String outcome = failure == null ? "value " + value : "failure " + failure;
            delivered.add(key + ": " + outcome);
            return outcome;
        };
        return app.submit(key, 0, ctx -> timeout == null ? ctx.awaitReply(reply, handler) : ctx.awaitReply(reply, timeout, handler));
    }

    /** Makes one wait time out on a pending stage: from then on the backplane shares listeners of such stages. */
    private void timeOutOnceOnAPendingStage() {
        await("first", new CompletableFuture<>(), Duration.ofSeconds(1));
        backplane.stepper().runUntilIdle();
        clock.advance(Duration.ofSeconds(1));
        backplane.stepper().runUntilIdle();
        assertThat(delivered).singleElement().asString().startsWith("first: failure " + ReplyTimeoutException.class.getName());
        delivered.clear();
    }

    @Test
    void minimalStages_afterATimeoutOnAnotherStage_deliverTheirOutcome() {
        timeOutOnceOnAPendingStage();
        CompletableFuture<String> source = new CompletableFuture<>();

        CompletableFuture<String> completed = await("completed", CompletableFuture.completedStage("v"), null);
        CompletableFuture<String> failed = await("failed", CompletableFuture.failedStage(DECLINED), null);
        CompletableFuture<String> minimal = await("minimal", source.minimalCompletionStage(), Duration.ofSeconds(5));
        backplane.stepper().runUntilIdle();
        source.complete("later");
        backplane.stepper().runUntilIdle();

        assertThat(delivered).containsExactlyInAnyOrder("completed: value v", "failed: failure " + DECLINED,
                "minimal: value later");
        assertThat(completed).isCompletedWithValue("value v");
        assertThat(failed).isCompletedWithValue("failure " + DECLINED);
        assertThat(minimal).isCompletedWithValue("value later");
    }

    @Test
    void aPendingMinimalStage_timedOutThenWaitedOnAgain_deliversToTheLaterWait() {
        CompletableFuture<String> source = new CompletableFuture<>();
        CompletionStage<String> stage = source.minimalCompletionStage();
        await("a", stage, Duration.ofSeconds(1));
        backplane.stepper().runUntilIdle();
        clock.advance(Duration.ofSeconds(1)); // times out while the minimal stage is pending
        backplane.stepper().runUntilIdle();
        assertThat(timerErrors).as("timer tasks that threw on the minimal stage").isEmpty();

        CompletableFuture<String> again = await("a", stage, Duration.ofSeconds(10));
        CompletableFuture<String> other = await("b", stage, null);
        backplane.stepper().runUntilIdle();
        source.complete("v");
        backplane.stepper().runUntilIdle();

        assertThat(delivered).hasSize(3);
        assertThat(delivered.get(0)).startsWith("a: failure " + ReplyTimeoutException.class.getName());
        assertThat(delivered.subList(1, 3)).containsExactlyInAnyOrder("a: value v", "b: value v");
        assertThat(again).isCompletedWithValue("value v");
        assertThat(other).isCompletedWithValue("value v");
        assertThat(backplane.statistics().outstanding()).isZero();
    }
}
