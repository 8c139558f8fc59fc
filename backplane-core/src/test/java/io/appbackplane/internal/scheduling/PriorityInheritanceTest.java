package io.appbackplane.internal.scheduling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.appbackplane.Backplane;
import io.appbackplane.BackplaneComponent;
import io.appbackplane.BackplanePolicy;
import io.appbackplane.ComponentSpec;
import io.appbackplane.ManualClock;
import java.lang.ref.WeakReference;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * The JVM-wide registry behind shouldYield: it compares backplanes by relative
 * urgency, and it does not keep a backplane that was never shut down reachable.
 */
class PriorityInheritanceTest {

    @Test
    void equivalentPriorityComparesRelativeUrgency() {
        assertThat(PriorityInheritance.equivalentPriority(3, 8, 8)).isEqualTo(3); // same backplane shape: plain order
        assertThat(PriorityInheritance.equivalentPriority(4, 8, 2)).isEqualTo(1); // 4/7: only 0 of 2 is more urgent
        assertThat(PriorityInheritance.equivalentPriority(7, 8, 2)).isEqualTo(1); // 1.0: 0 of 2 is, 1 of 2 is not
        assertThat(PriorityInheritance.equivalentPriority(1, 2, 8)).isEqualTo(7); // 1.0: 0..6 of 8 are more urgent
        assertThat(PriorityInheritance.equivalentPriority(0, 8, 8)).isZero();
        assertThat(PriorityInheritance.equivalentPriority(3, 8, 1)).isEqualTo(1); // a one-priority backplane: urgency 0
        assertThat(PriorityInheritance.equivalentPriority(0, 1, 8)).isZero();
    }

    @Test
    void aLessUrgentPriorityOfABackplaneWithFewerPrioritiesDoesNotAskForAYield() {
        ManualClock clock = new ManualClock();
        try (Backplane two = Backplane.builder("two").clock(clock).stepMode()
                        .policy(BackplanePolicy.builder().priorities(2).build()).build();
                Backplane eight = Backplane.builder("eight").clock(clock).stepMode().build()) {
            BackplaneComponent bulk = two.install(ComponentSpec.named("bulk"));
            BackplaneComponent work = eight.install(ComponentSpec.named("work"));
            bulk.submit("least-urgent-of-two", 1, ctx -> "waits"); // urgency 1.0
            CompletableFuture<Boolean> middle = work.submit("middle", 4, ctx -> ctx.shouldYield()); // urgency 4/7
            eight.stepper().runNext();
            assertThat(middle.join()).as("priority 1 of 2 is less urgent than 4 of 8").isFalse();

            bulk.submit("most-urgent-of-two", 0, ctx -> "urgent"); // urgency 0
            CompletableFuture<Boolean> again = work.submit("middle-2", 4, ctx -> ctx.shouldYield());
            eight.stepper().runNext();
            assertThat(again.join()).isTrue();
        }
    }

    @Test
    void aBackplaneDroppedWithoutShutdownIsNotKeptReachableByTheRegistry() {
        WeakReference<Backplane> dropped = dropABackplaneWithReadyWork();

        await().atMost(Duration.ofSeconds(30)).until(() -> {
            System.gc();
            return dropped.get() == null;
        });
    }

    private static WeakReference<Backplane> dropABackplaneWithReadyWork() {
        Backplane backplane = Backplane.builder("dropped").clock(new ManualClock()).stepMode().build();
        backplane.install(ComponentSpec.named("app")).submit("k", 3, ctx -> "never run"); // READY: its entry is in the queues
        return new WeakReference<>(backplane);
    }
}
