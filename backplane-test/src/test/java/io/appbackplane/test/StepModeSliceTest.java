package io.appbackplane.test;

import static org.assertj.core.api.Assertions.assertThat;

import io.appbackplane.Stepper;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.test.autoconfigure.json.JsonTest;
import org.springframework.context.annotation.Import;

/**
 * A slice test ({@code @JsonTest} loads only the JSON auto-configuration) gets the backplane, in step
 * mode, from {@code @AutoConfigureBackplane}, and the component it imports works as in the
 * application.
 */
@JsonTest
@AutoConfigureBackplane
@Import(Orders.class)
class StepModeSliceTest {

    @Autowired
    Orders orders;

    @Autowired
    Stepper stepper;

    @Test
    void theSliceHasTheComponentUpAndSteppable() {
        CompletableFuture<String> placed = orders.place("o-2");
        assertThat(placed).isNotDone();

        stepper.runUntilIdle();

        assertThat(placed).isCompletedWithValue("placed o-2");
    }

    @SpringBootConfiguration(proxyBeanMethods = false)
    static class App {}
}
