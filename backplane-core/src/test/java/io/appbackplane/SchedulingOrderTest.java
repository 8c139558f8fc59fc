package io.appbackplane;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Rules 2, 3 and 6 on a scripted mix, in step mode: the exact service order. */
class SchedulingOrderTest {

    private final ManualClock clock = new ManualClock();
    private Backplane backplane;
    private final List<String> ran = new ArrayList<>();

    @AfterEach
    void close() {
        if (backplane != null) {
            backplane.close();
        }
    }

    private BackplaneComponent start(BackplanePolicy policy) {
        backplane = Backplane.builder("test").policy(policy).clock(clock).stepMode().build();
        return backplane.install(ComponentSpec.named("app"));
    }

    private void submit(BackplaneComponent component, String key, int priority, int count) {
        for (int i = 1; i <= count; i++) {
            String label = key + i;
            component.submit(key, priority, ctx -> ran.add(label));
        }
    }

    @Test
    void rules2_3_6_quotasRoundRobinAndVirtualTicksGiveTheExactServiceOrder() {
        BackplanePolicy policy = BackplanePolicy.builder()
                .priorities(3)
                .quotas(BackplanePolicy.UNLIMITED_QUOTA, 2, 1)
                .build();
        BackplaneComponent app = start(policy);
        submit(app, "A", 1, 3);
        submit(app, "B", 1, 3);
        submit(app, "C", 2, 2);
        submit(app, "D", 2, 2);
        submit(app, "U", 0, 2);

        int steps = backplane.stepper().runUntilIdle();

        assertThat(steps).isEqualTo(12);
        assertThat(ran).containsExactly(
                "U1", "U2", // priority 0: unlimited quota, served first
                "A1", "B1", // priority 1: quota 2, round robin between objects
                "C1", // priority 2: quota 1; then every priority with work is spent → virtual tick
                "A2", "B2", "D1",
                "A3", "B3", "C2",
                "D2");
        assertThat(backplane.statistics().virtualTicks()).isEqualTo(3);
        assertThat(backplane.statistics().realTicks()).isZero();
    }

    @Test
    void rule3_urgentWorkArrivingBetweenActionsIsServedAtTheNextActionBoundary() {
        BackplaneComponent app = start(BackplanePolicy.builder().priorities(3).build());
        submit(app, "bulk", 2, 3);
        assertThat(backplane.stepper().runNext().objectKey()).isEqualTo("bulk");
        submit(app, "urgent", 0, 1);
        assertThat(backplane.stepper().runNext().objectKey()).isEqualTo("urgent");
        backplane.stepper().runUntilIdle();
        assertThat(ran).containsExactly("bulk1", "urgent1", "bulk2", "bulk3");
    }
}
