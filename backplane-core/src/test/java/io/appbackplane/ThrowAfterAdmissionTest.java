package io.appbackplane;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.appbackplane.Backplane.ShutdownReport;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * User code that throws after a request was admitted (a key's {@code hashCode} or {@code equals},
 * the clock) un-counts the request and fails it with the cause, which the submitter gets thrown:
 * nothing stays counted that will never finish. A request left in {@code outstanding} would stay
 * there for good: its component's limit one smaller, and shutdown waiting out its drain and DOWN
 * timeouts.
 */
class ThrowAfterAdmissionTest {

    private final ManualClock clock = new ManualClock();
    private Backplane backplane;

    @AfterEach
    void close() {
        if (backplane != null) {
            backplane.close();
        }
    }

    /** A key whose hashCode throws, as an uninitialised ORM proxy's may. */
    private static final class HashThrowingKey {
        static final IllegalStateException FAILURE = new IllegalStateException("proxy not initialised");

        @Override
        public int hashCode() {
            throw FAILURE;
        }

        @Override
        public boolean equals(Object other) {
            return this == other;
        }
    }

    /** A key with a fixed hash whose equals throws: the second such key meets the first in the map. */
    private static final class EqualsThrowingKey {
        static final IllegalStateException FAILURE = new IllegalStateException("half-built key");

        @Override
        public int hashCode() {
            return 42;
        }

        @Override
        public boolean equals(Object other) {
            if (this == other) {
                return true;
            }
            throw FAILURE;
        }
    }

    private BackplaneComponent stepModeComponent(int operationLimit) {
        backplane = Backplane.builder("throws").clock(clock).stepMode().build();
        return backplane.install(ComponentSpec.named("app").withOperationLimit(operationLimit));
    }

    private void assertNothingCounted(BackplaneComponent app, long submitted, long failed) {
        assertThat(app.outstanding()).isZero();
        assertThat(backplane.statistics().outstanding()).isZero();
        ActionCounts counts = app.statistics().counts();
        assertThat(counts.submitted()).isEqualTo(submitted);
        assertThat(counts.failed()).isEqualTo(failed);
        assertThat(counts.rejected()).isZero();
        assertThat(counts.outstanding()).isZero();
    }

    @Test
    void submit_keyWhoseHashCodeThrows_isUncountedAndTheCauseIsThrown() {
        BackplaneComponent app = stepModeComponent(1);

        assertThatThrownBy(() -> app.submit(new HashThrowingKey(), 0, ctx -> "never")).isSameAs(HashThrowingKey.FAILURE);
        assertThatThrownBy(() -> app.execute(new HashThrowingKey(), 0, ctx -> "never")).isSameAs(HashThrowingKey.FAILURE);

        assertNothingCounted(app, 2, 2);
        // The whole limit (1) is still there for good keys.
        CompletableFuture<Object> good = app.submit("good", 0, ctx -> "ran");
        backplane.stepper().runUntilIdle();
        assertThat(good).isCompletedWithValue("ran");
        assertNothingCounted(app, 3, 2);
    }

    @Test
    void submit_keyWhoseEqualsThrows_isUncountedAndTheCauseIsThrown() {
        BackplaneComponent app = stepModeComponent(10);
        EqualsThrowingKey first = new EqualsThrowingKey();
        app.submit(first, 0, ctx -> "first"); // its object is in the map now; the next key's lookup meets it

        assertThatThrownBy(() -> app.submit(new EqualsThrowingKey(), 0, ctx -> "never")).isSameAs(EqualsThrowingKey.FAILURE);

        assertThat(app.outstanding()).isEqualTo(1); // only the first
        backplane.stepper().runUntilIdle();
        assertNothingCounted(app, 2, 1);
    }

    @Test
    void shutdown_afterAThrowingKey_doesNotWaitForTheUncountedRequest() {
        BackplaneComponent app = stepModeComponent(10);
        assertThatThrownBy(() -> app.submit(new HashThrowingKey(), 0, ctx -> "never")).isSameAs(HashThrowingKey.FAILURE);

        CompletableFuture<ShutdownReport> report = backplane.shutdown(Duration.ofSeconds(30));

        // Nothing is outstanding, so the drain ends at once: the clock never moved.
        assertThat(report).isCompletedWithValue(new ShutdownReport(0, 0));
    }

    @Test
    void timerFiring_onAKeyWhoseHashCodeThrows_isUncountedAndSkipped() {
        BackplaneComponent app = stepModeComponent(10);
        TimerHandle timer = app.scheduleAtFixedRate(new HashThrowingKey(), 0, Duration.ofSeconds(1), Duration.ofSeconds(1),
                ctx -> "never");

        clock.advance(Duration.ofSeconds(3));

        assertThat(timer.skippedFirings()).isEqualTo(3);
        assertThat(timer.isCancelled()).isFalse(); // a firing that could not be queued never ends its timer
        assertNothingCounted(app, 3, 3);
        timer.cancel();
    }

    @Test
    void submit_whenTheClockThrowsAfterAdmission_isUncountedOnRealWorkers() throws Exception {
        AtomicBoolean failNextRead = new AtomicBoolean();
        IllegalStateException clockFailure = new IllegalStateException("clock unavailable");
        Thread submitter = Thread.currentThread();
        BackplaneClock clock = () -> {
            if (Thread.currentThread() == submitter && failNextRead.compareAndSet(true, false)) {
                throw clockFailure;
            }
            return System.nanoTime();
        };
        backplane = Backplane.builder("throwing-clock").policy(BackplanePolicy.builder().threads(1).build()).clock(clock).build();
        BackplaneComponent app = backplane.install(ComponentSpec.named("app").withOperationLimit(1));
        backplane.moveTo(ComponentState.PRIMARY).get(10, TimeUnit.SECONDS);

        failNextRead.set(true);
        assertThatThrownBy(() -> app.submit("key", 0, ctx -> "never")).isSameAs(clockFailure);

        assertThat(app.outstanding()).isZero();
        assertThat(app.submit("key", 0, ctx -> "ran").get(10, TimeUnit.SECONDS)).isEqualTo("ran");
        // The drain finds nothing outstanding: it does not wait for its 60 s timeout.
        ShutdownReport report = backplane.shutdown(Duration.ofSeconds(60)).get(30, TimeUnit.SECONDS);
        assertThat(report.failedAtShutdown()).isZero();
    }
}
