package io.appbackplane.test.docs;

// docs:getting-started:junit-extension BEGIN
import static org.assertj.core.api.Assertions.assertThat;

import io.appbackplane.Backplane;
import io.appbackplane.BackplaneComponent;
import io.appbackplane.ComponentSpec;
import io.appbackplane.ComponentState;
import io.appbackplane.ManualClock;
import io.appbackplane.Stepper;
import io.appbackplane.test.BackplaneExtension;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(BackplaneExtension.class)                   // a step-mode backplane per test, closed after it
class ExtensionExampleTest {

    @Test
    void aReplyTimeoutFiresWhenTheClockPassesIt(Backplane backplane, Stepper stepper, ManualClock clock) {
        BackplaneComponent app = backplane.install(ComponentSpec.named("app"));
        backplane.moveTo(ComponentState.PRIMARY);
        CompletableFuture<String> paid = app.submit("order-1", 1, ctx -> ctx.awaitReply(
                new CompletableFuture<String>(), Duration.ofSeconds(2),
                (c, receipt, failure) -> failure == null ? "paid" : "timed out"));
        stepper.runUntilIdle();                          // the transitions, then the action: it now waits
        assertThat(paid).isNotDone();

        clock.advance(Duration.ofSeconds(2));            // the reply timeout fires
        stepper.runUntilIdle();
        assertThat(paid).isCompletedWithValue("timed out");
    }
}
// docs:getting-started:junit-extension END
