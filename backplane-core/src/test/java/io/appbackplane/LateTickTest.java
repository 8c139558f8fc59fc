package io.appbackplane;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Rule 5 with a real worker and a late real tick (found by h13-model's threaded property test):
 * once a period is over but its tick has not fired, only the tick can release budget, so a
 * throttled worker parks until the tick wakes it instead of spinning on 1 ns parks (whose CPU
 * readings were charged to the budget). The backplane's clock is a test clock that the test moves;
 * the timer thread sleeps on real time and so fires the overdue tick only when asked.
 */
class LateTickTest {

    private static final Duration WAIT = Duration.ofSeconds(20);

    private final AtomicLong now = new AtomicLong();
    private Backplane backplane;

    @AfterEach
    void close() {
        if (backplane != null) {
            backplane.shutdown(Duration.ZERO);
        }
    }

    @Test
    void aThrottledWorker_whoseTickIsOverdue_parksUntilTheTick() throws Exception {
        BackplanePolicy policy = BackplanePolicy.builder()
                .threads(1)
                .cpuLimit(CpuLimit.ofCores(0.5))
                .integrationPeriod(Duration.ofHours(1)) // the timer thread waits an hour of real time
                .cpuBudgetSlices(1)
                .build();
        backplane = Backplane.builder("late-tick").policy(policy).clock(now::get).build();
        // Idle objects released at once: the idle sweep's timer would wake the timer thread early.
        BackplaneComponent app = backplane.install(ComponentSpec.named("app").withIdleObjectRetention(Duration.ZERO));
        // The timer thread must have read the clock and gone to wait for the first tick before the
        // clock moves; a thread that starts late would see the tick overdue and fire it at once.
        await().atMost(WAIT).until(() -> timerThreadState() == Thread.State.TIMED_WAITING);
        app.submit("spender", 1, ctx -> now.addAndGet(Duration.ofMinutes(30).toNanos())).get(WAIT.toSeconds(), SECONDS);
        now.addAndGet(Duration.ofMinutes(31).toNanos()); // the period is over; its tick is overdue

        CompletableFuture<String> waiting = app.submit("waiting", 1, ctx -> "ran after the tick");

        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        await().atMost(WAIT).untilAsserted(() -> assertThat(IdleWorkers.workers(backplane))
                .singleElement().extracting(ThreadInfo::getThreadState).isEqualTo(Thread.State.WAITING));
        long[] ids = IdleWorkers.workers(backplane).stream().mapToLong(ThreadInfo::getThreadId).toArray();
        long before = IdleWorkers.cpuNanos(mx, ids);
        await().during(IdleWorkers.WINDOW).atMost(IdleWorkers.WINDOW.multipliedBy(6))
                .until(() -> IdleWorkers.cpuNanos(mx, ids) - before < IdleWorkers.CPU_ALLOWED.toNanos());
        assertThat(waiting).isNotDone();
    }

    private Thread.State timerThreadState() {
        String name = "backplane-" + backplane.name() + "-timer";
        for (ThreadInfo t : ManagementFactory.getThreadMXBean().dumpAllThreads(false, false)) {
            if (t.getThreadName().equals(name)) {
                return t.getThreadState();
            }
        }
        return null;
    }
}
