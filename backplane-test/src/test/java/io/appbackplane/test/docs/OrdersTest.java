package io.appbackplane.test.docs;

// docs:getting-started:spring-test BEGIN
import static org.assertj.core.api.Assertions.assertThat;

import io.appbackplane.ManualClock;
import io.appbackplane.Stepper;
import io.appbackplane.test.AutoConfigureBackplane;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

@SpringBootTest
@AutoConfigureBackplane                                  // step mode: no worker threads, one ManualClock
class OrdersTest {

    @Autowired
    Orders orders;                                       // an @AppComponent of the application

    @Autowired
    Stepper stepper;                                     // runs queued actions on the test's thread

    @Autowired
    ManualClock clock;                                   // timers fire only when it advances

    @Test
    void anOrderIsPlacedWhenTheTestStepsIt() {
        CompletableFuture<String> placed = orders.place("o-1");
        assertThat(placed).isNotDone();                  // queued; nothing has run

        stepper.runUntilIdle();
        assertThat(placed).isCompletedWithValue("placed o-1");
    }

    @Test
    void theReminderTimerFiresOncePerSecondOfTheManualClock() {
        int before = orders.reminders();
        clock.advance(Duration.ofSeconds(1));
        stepper.runUntilIdle();
        assertThat(orders.reminders()).isEqualTo(before + 1);
    }
}
// docs:getting-started:spring-test END
