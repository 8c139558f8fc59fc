package io.appbackplane.benchmarks;

import io.appbackplane.Backplane;
import io.appbackplane.BackplaneComponent;
import io.appbackplane.BackplanePolicy;
import io.appbackplane.ComponentSpec;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Measures, by hand, the process CPU of an idle JVM over 3 s after a priority rise (issue 13,
 * defect 1): two workers both busy; object {@code o} gets an action at priority 6, then one at
 * priority 1; everything completes; then the JVM has nothing to do. A measurement, not a test: it
 * lets 3 s of wall time pass on purpose (the regression test is {@code IdleAfterStaleEntriesTest}).
 * Run it after {@code ./mvnw -pl backplane-benchmarks -am package -DskipTests} with
 * {@code java -cp backplane-benchmarks/target/benchmarks.jar io.appbackplane.benchmarks.IdleCpuAfterPriorityRise}
 * (argument {@code fresh} for the baseline of a backplane that saw no priority rise).
 */
public final class IdleCpuAfterPriorityRise {

    private IdleCpuAfterPriorityRise() {}

    public static void main(String[] args) throws Exception {
        boolean rise = args.length == 0 || !args[0].equals("fresh");
        BackplanePolicy policy = BackplanePolicy.builder().threads(2).build();
        try (Backplane backplane = Backplane.builder("idle-cpu").policy(policy).build()) {
            BackplaneComponent app = backplane.install(ComponentSpec.named("app"));
            if (rise) {
                CountDownLatch started = new CountDownLatch(2);
                CountDownLatch release = new CountDownLatch(1);
                CompletableFuture<?> a = app.submit("busy-a", 0, ctx -> blockUntil(started, release));
                CompletableFuture<?> b = app.submit("busy-b", 0, ctx -> blockUntil(started, release));
                started.await();
                CompletableFuture<?> low = app.submit("o", 6, ctx -> "bulk");
                CompletableFuture<?> high = app.submit("o", 1, ctx -> "urgent");
                release.countDown();
                CompletableFuture.allOf(a, b, low, high).get(10, TimeUnit.SECONDS);
            }
            Thread.sleep(200); // let the workers settle (or not)
            com.sun.management.OperatingSystemMXBean os =
                    (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
            long cpu0 = os.getProcessCpuTime();
            long wall0 = System.nanoTime();
            Thread.sleep(3_000);
            double cores = (double) (os.getProcessCpuTime() - cpu0) / (System.nanoTime() - wall0);
            System.out.printf("%s: process CPU over %.1f s idle = %.3f cores; idle workers %d of %d%n",
                    rise ? "after a priority rise" : "fresh backplane", (System.nanoTime() - wall0) / 1e9, cores,
                    backplane.statistics().idleThreads(), backplane.statistics().threads());
        }
    }

    private static boolean blockUntil(CountDownLatch started, CountDownLatch release) throws InterruptedException {
        started.countDown();
        return release.await(10, TimeUnit.SECONDS);
    }
}
