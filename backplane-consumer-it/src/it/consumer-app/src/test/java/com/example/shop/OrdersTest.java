package com.example.shop;

import static org.assertj.core.api.Assertions.assertThat;

import io.appbackplane.Stepper;
import io.appbackplane.test.AutoConfigureBackplane;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

@SpringBootTest
@AutoConfigureBackplane
class OrdersTest {

    @Autowired
    Orders orders;

    @Autowired
    Stepper stepper;

    @Test
    void anOrderIsPlacedWhenTheTestStepsIt() {
        CompletableFuture<String> placed = orders.place("o-1");
        assertThat(placed).isNotDone();

        stepper.runUntilIdle();
        assertThat(placed).isCompletedWithValue("placed o-1");
    }
}
