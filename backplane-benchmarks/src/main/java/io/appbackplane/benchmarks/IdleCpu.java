package io.appbackplane.benchmarks;

import io.appbackplane.Action;
import io.appbackplane.Backplane;
import io.appbackplane.BackplaneComponent;
import io.appbackplane.BackplanePolicy;
import io.appbackplane.BackplaneStatistics;
import io.appbackplane.ComponentSpec;
import io.appbackplane.ObjectPool;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * Measures, by hand, the process CPU of an idle JVM over 3 s after each of the situations that once
 * could leave a worker spinning, as an idle JVM must use next to no CPU: a fresh backplane (the
 * baseline), a load of 200,000 tiny actions on keys and a pool at mixed priorities, a priority
 * rise on a READY object, the cancellation of queued actions (by {@code cancelQueued} and by
 * cancelling futures), and a reply timeout. Each scenario gets a backplane of its own with 2
 * workers; when its work has completed, the JVM has nothing to do. A measurement, not a test: it
 * lets wall time pass on purpose (the regression tests are {@code IdleAfterStaleEntriesTest} and
 * the threaded property test). Run it after {@code ./mvnw -pl backplane-benchmarks -am package
 * -DskipTests} with {@code java -cp backplane-benchmarks/target/benchmarks.jar
 * io.appbackplane.benchmarks.IdleCpu} (optionally naming scenarios: {@code fresh load rise cancel
 * timeout}). One line per scenario: process CPU in cores over the idle window, the backplane's worker
 * threads' share of it, the time the JIT compiler spent compiling in it (a load leaves the compiler
 * busy for a while, more so on a slow machine: CPU of the process, not of the backplane), and the
 * idle workers.
 */
public final class IdleCpu {

    private static final Duration IDLE_WINDOW = Duration.ofSeconds(3);
    private static final List<String> SCENARIOS = List.of("fresh", "load", "rise", "cancel", "timeout");

    private IdleCpu() {}

    public static void main(String[] args) throws Exception {
        List<String> chosen = args.length == 0 ? SCENARIOS : List.of(args);
        for (String scenario : chosen) {
            if (!SCENARIOS.contains(scenario)) {
                throw new IllegalArgumentException("unknown scenario '" + scenario + "'; allowed: " + SCENARIOS);
            }
        }
        for (String scenario : chosen) {
            measure(scenario);
        }
    }

    private static void measure(String scenario) throws Exception {
        BackplanePolicy policy = BackplanePolicy.builder().threads(2).build();
        String name = "idle-" + scenario; // the backplane's name, which its worker threads' names carry
        try (Backplane backplane = Backplane.builder(name).policy(policy).build()) {
            BackplaneComponent app = backplane.install(ComponentSpec.named("app"));
            switch (scenario) {
                case "load" -> load(app);
                case "rise" -> priorityRise(app);
                case "cancel" -> cancellation(app);
                case "timeout" -> replyTimeout(app);
                default -> { } // fresh: nothing
            }
            Thread.sleep(200); // let the workers settle (or not): a bounded spin before parking is allowed
            long cpu0 = CpuTimes.process();
            long workers0 = CpuTimes.workerThreads(name);
            long jit0 = CpuTimes.jitMillis();
            long wall0 = System.nanoTime();
            Thread.sleep(IDLE_WINDOW.toMillis());
            long wall = System.nanoTime() - wall0;
            double cores = (double) (CpuTimes.process() - cpu0) / wall;
            double workerCores = (double) (CpuTimes.workerThreads(name) - workers0) / wall;
            long jitMillis = jit0 < 0 ? -1 : CpuTimes.jitMillis() - jit0;
            BackplaneStatistics stats = backplane.statistics();
            System.out.printf(Locale.ROOT, "%-8s process CPU over %.1f s idle = %.3f cores (worker threads %.3f; JIT compiling %s);"
                    + " idle workers %d of %d; actions run %d%n",
                    scenario, wall / 1e9, cores, workerCores, jitMillis < 0 ? "not reported" : jitMillis + " ms",
                    stats.idleThreads(), stats.threads(), app.statistics().counts().actionsRun());
        }
    }

    /** 200,000 tiny actions: half on 1,000 keys, half on a pool of 4, at priorities 1, 3 and 6. */
    private static void load(BackplaneComponent app) throws Exception {
        ObjectPool pool = app.pool("load", 4);
        int total = 200_000;
        Semaphore window = new Semaphore(5_000); // in flight at most: well under the default limits
        CountDownLatch done = new CountDownLatch(total);
        Action<Void> task = ctx -> {
            window.release();
            done.countDown();
            return null;
        };
        for (int i = 0; i < total; i++) {
            int priority = i % 8 == 0 ? 1 : i % 2 == 0 ? 3 : 6;
            check(window.tryAcquire(10, TimeUnit.SECONDS), "the load stalled");
            if (i % 2 == 0) {
                app.execute("k" + (i % 1_000), priority, task);
            } else {
                pool.execute(priority, task);
            }
        }
        check(done.await(30, TimeUnit.SECONDS), "the load did not complete in 30 s");
        pool.release();
    }

    /** Two workers busy; object o gets an action at priority 6, then one at priority 1 (its priority rises). */
    private static void priorityRise(BackplaneComponent app) throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        List<CompletableFuture<?>> busy = occupyBothWorkers(app, release);
        CompletableFuture<?> low = app.submit("o", 6, ctx -> "bulk");
        CompletableFuture<?> high = app.submit("o", 1, ctx -> "urgent");
        release.countDown();
        CompletableFuture.allOf(busy.get(0), busy.get(1), low, high).get(10, TimeUnit.SECONDS);
    }

    /**
     * Two workers busy; 1,000 actions queued on object c are cancelled with {@code cancelQueued}, and
     * 1,000 more on 100 keys by cancelling their futures before they run.
     */
    private static void cancellation(BackplaneComponent app) throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        List<CompletableFuture<?>> all = new ArrayList<>(occupyBothWorkers(app, release));
        for (int i = 0; i < 1_000; i++) {
            all.add(app.submit("c", 3, ctx -> "never runs"));
        }
        check(app.cancelQueued("c") == 1_000, "cancelQueued did not remove the 1,000 queued actions");
        for (int i = 0; i < 1_000; i++) {
            CompletableFuture<?> f = app.submit("k" + (i % 100), 3 + i % 3, ctx -> "cancelled");
            f.cancel(true);
            all.add(f);
        }
        release.countDown();
        // A cancelled future's action is dropped when a worker reaches it; a last action per object
        // (FIFO per key) completes after that.
        List<CompletableFuture<?>> last = new ArrayList<>();
        last.add(app.submit("c", 3, ctx -> "last"));
        for (int k = 0; k < 100; k++) {
            last.add(app.submit("k" + k, 3, ctx -> "last"));
        }
        CompletableFuture.allOf(last.toArray(CompletableFuture[]::new)).get(10, TimeUnit.SECONDS);
        CompletableFuture.allOf(all.toArray(CompletableFuture[]::new)).handle((v, t) -> null).get(10, TimeUnit.SECONDS);
        check(app.statistics().outstanding() == 0, "requests still outstanding after the cancellations");
    }

    /** An action awaits a reply that never comes, with a 50 ms timeout; its handler sees the timeout. */
    private static void replyTimeout(BackplaneComponent app) throws Exception {
        CompletableFuture<String> never = new CompletableFuture<>();
        CompletableFuture<String> outcome = app.submit("t", 3,
                ctx -> ctx.awaitReply(never, Duration.ofMillis(50), (c, reply, failure) -> failure == null ? "reply" : "timed out"));
        check("timed out".equals(outcome.get(10, TimeUnit.SECONDS)), "the reply did not time out");
    }

    /** Blocks both workers in an action each until {@code release}; returns once both run. */
    private static List<CompletableFuture<?>> occupyBothWorkers(BackplaneComponent app, CountDownLatch release)
            throws InterruptedException {
        CountDownLatch started = new CountDownLatch(2);
        List<CompletableFuture<?>> busy = List.of(
                app.submit("busy-a", 0, ctx -> blockUntil(started, release)),
                app.submit("busy-b", 0, ctx -> blockUntil(started, release)));
        started.await();
        return busy;
    }

    private static boolean blockUntil(CountDownLatch started, CountDownLatch release) throws InterruptedException {
        started.countDown();
        return release.await(10, TimeUnit.SECONDS);
    }

    private static void check(boolean condition, String message) {
        if (!condition) {
            throw new IllegalStateException(message);
        }
    }
}
