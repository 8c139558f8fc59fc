package io.appbackplane.benchmarks;

import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Measures how long a cache line takes to go from one core to another and back: two threads hand
 * a counter to each other through one {@link AtomicLong}, each spinning until it is its turn. On
 * the 2-vCPU VM the results page was measured on, the round trip is about 50 ns in what
 * docs/benchmarks.md calls the fast mode and about 420 ns in the slow mode (the host places the
 * two vCPUs far apart), which is what every hand-off between a producer and a worker pays. W1 and
 * W2 print it at the start of each trial, so that a fork's score can be read next to the mode it
 * ran in (measured before the warm-up: the host may move a vCPU later in the fork, so it tells the
 * mode at the start); {@code run-results.sh} logs it before each workload. Run it alone with {@code java -cp
 * backplane-benchmarks/target/benchmarks.jar io.appbackplane.benchmarks.CoreToCore}.
 */
public final class CoreToCore {

    private static final Duration ROUND = Duration.ofMillis(100);
    private static final int ROUNDS = 5;

    private CoreToCore() {}

    public static void main(String[] args) throws InterruptedException {
        System.out.println(describe(ROUNDS));
    }

    /** Prints the round trip on a line of its own at the start of a W1 or W2 trial (the fork's mode). */
    static void printAtTrialStart() throws InterruptedException {
        System.out.printf("%n%s%n", describe(3));
    }

    /** One line for a log: the median round trip over {@code rounds} rounds of 100 ms, and each round's. */
    static String describe(int rounds) throws InterruptedException {
        if (Runtime.getRuntime().availableProcessors() < 2) {
            return "core-to-core round trip: n/a (one processor: each hand-off would wait for a time slice)";
        }
        double[] nanos = new double[rounds];
        for (int i = 0; i < rounds; i++) {
            nanos[i] = roundTripNanos(ROUND);
        }
        double[] sorted = nanos.clone();
        Arrays.sort(sorted);
        StringBuilder each = new StringBuilder();
        for (double n : nanos) {
            each.append(each.length() == 0 ? "" : ", ").append(Math.round(n));
        }
        return String.format(Locale.ROOT, "core-to-core round trip: %d ns (median of %d rounds of %d ms: %s ns)",
                Math.round(sorted[rounds / 2]), rounds, ROUND.toMillis(), each);
    }

    /**
     * The mean time, in ns, for the counter to go to the other thread and back, over about {@code
     * duration}. The two threads busy both cores of a 2-core machine while it runs.
     */
    static double roundTripNanos(Duration duration) throws InterruptedException {
        AtomicLong turn = new AtomicLong(); // even: this thread's turn; odd: the echo's
        AtomicBoolean done = new AtomicBoolean();
        Thread echo = new Thread(() -> {
            for (long next = 1; ; next += 2) {
                while (turn.get() != next) {
                    if (done.get()) {
                        return;
                    }
                    Thread.onSpinWait();
                }
                turn.set(next + 1);
            }
        }, "core-to-core-echo");
        echo.setDaemon(true);
        echo.start();
        long start = System.nanoTime();
        long deadline = start + duration.toNanos();
        long value = 0;
        long trips = 0;
        while (true) {
            turn.set(value + 1);
            while (turn.get() != value + 2) {
                Thread.onSpinWait();
            }
            value += 2;
            trips++;
            if ((trips & 1023) == 0 && System.nanoTime() >= deadline) {
                break;
            }
        }
        long elapsed = System.nanoTime() - start;
        done.set(true); // the echo leaves at its next look
        echo.join(Duration.ofSeconds(10).toMillis());
        return (double) elapsed / trips;
    }
}
