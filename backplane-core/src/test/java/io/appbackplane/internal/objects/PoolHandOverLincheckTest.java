package io.appbackplane.internal.objects;

import static io.appbackplane.internal.objects.ObjectActionQueue.require;

import io.appbackplane.Backplane;
import io.appbackplane.BackplaneComponent;
import io.appbackplane.BackplanePolicy;
import io.appbackplane.ComponentSpec;
import io.appbackplane.ManualClock;
import io.appbackplane.internal.LincheckScenarios;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import org.jetbrains.kotlinx.lincheck.Actor;
import org.jetbrains.kotlinx.lincheck.execution.ExecutionScenario;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.jetbrains.lincheck.datastructures.StressOptions;
import org.jetbrains.lincheck.datastructures.Validate;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Lincheck tests of a pool's hand-over ({@link PooledObjects}): submitters racing the member that
 * goes idle or begins to wait, and a reply deliverer resuming a member, on a pool of two members
 * with one place (a backplane of one worker thread). The one worker is the step driver, the same
 * decision code as a worker thread; submits and deliveries run on the other threads.
 *
 * <p>What it catches is a request stranded in the backlog: backlogged while every place was taken,
 * with no member left to take it. Checked by {@code @Validate} after each scenario: once steps run
 * until nothing runs, nothing backlogged while a member may start; after draining (replies
 * delivered, steps run until nothing runs), every submitted action ran exactly once, and the pool is
 * quiescent (every member idle, no place held, the backlog empty). Two races are also checked in
 * every interleaving the model checker finds, as fixed scenarios: a submitter against the member
 * going idle, and against the member beginning to wait.
 */
public class PoolHandOverLincheckTest {

    /** One scenario's backplane, pool and counts; a new one per invocation. */
    public static class Harness {

        private final Backplane backplane = Backplane.builder("lincheck-pool")
                .policy(BackplanePolicy.builder().threads(1).priorities(3).build())
                .clock(new ManualClock())
                .stepMode()
                .build();
        private final PooledObjects pool;
        private final AtomicInteger submitted = new AtomicInteger();
        private final AtomicInteger ran = new AtomicInteger();
        /** The replies awaited by actions that ran, oldest first. */
        private final ConcurrentLinkedQueue<CompletableFuture<Object>> replies = new ConcurrentLinkedQueue<>();

        public Harness() {
            BackplaneComponent app = backplane.install(ComponentSpec.named("app"));
            pool = (PooledObjects) app.pool("pool", 2);
        }

        @Operation
        public void submit(@Param(gen = IntGen.class, conf = "0:2") int priority) {
            submitted.incrementAndGet();
            pool.execute(priority, ctx -> ran.incrementAndGet());
        }

        /** Submits an action that awaits a reply (its member waits, freeing its place); its handler counts as its run. */
        @Operation
        public void submitAwaitingReply(@Param(gen = IntGen.class, conf = "0:2") int priority) {
            submitted.incrementAndGet();
            pool.execute(priority, ctx -> {
                CompletableFuture<Object> reply = new CompletableFuture<>();
                replies.add(reply);
                return ctx.awaitReply(reply, (c, value, failure) -> ran.incrementAndGet());
            });
        }

        /** Completes the oldest awaited reply (its member resumes), if one is awaited. Returns nothing, as {@link #step}. */
        @Operation
        public void deliverReply() {
            deliverOldestReply();
        }

        private boolean deliverOldestReply() {
            CompletableFuture<Object> reply = replies.poll();
            if (reply == null) {
                return false;
            }
            reply.complete("reply");
            return true;
        }

        /**
         * One step of the backplane's one worker. It returns nothing: whether it ran an action is not
         * a result any order of the operations explains, since a concurrent submit that has claimed
         * the pool's one place but not yet pushed its member is invisible to the step (a real worker
         * parks, and the push wakes it), while the backlogged request behind it already waits; nor is
         * anything that depends on it, such as whether a reply is awaited yet. What must hold is
         * checked by {@code @Validate} (and an exception in any operation fails the scenario).
         */
        @Operation(nonParallelGroup = "worker")
        public void step() {
            backplane.stepper().runNext();
        }

        @Validate
        public void validate() {
            backplane.stepper().runUntilIdle();
            pool.checkNothingStranded(); // before any reply is delivered: a waiting member's return must not be what saves it
            while (true) {
                boolean delivered = false;
                while (deliverOldestReply()) {
                    delivered = true;
                }
                if (backplane.stepper().runUntilIdle() == 0 && !delivered && replies.isEmpty()) {
                    break;
                }
            }
            require(ran.get() == submitted.get(), submitted.get() + " submitted but " + ran.get()
                    + " ran: a request was stranded in the backlog");
            pool.checkQuiescent();
        }
    }

    @Test
    public void stress() {
        LincheckScenarios.quick(stress(1)).check(Harness.class);
    }

    @Test
    public void modelChecking() {
        LincheckScenarios.quick(modelChecking(1)).check(Harness.class);
    }

    /** {@code submit(1); [step() || submit(1); submit(1)]}: the member goes idle while requests are backlogged. */
    @Test
    public void memberGoingIdleAgainstSubmits_modelChecking() {
        handOver("submit").check(Harness.class);
    }

    /** {@code submitAwaitingReply(1); [step() || submit(1)]}: the member begins to wait while a request is backlogged. */
    @Test
    public void memberBeginningToWaitAgainstASubmit_modelChecking() {
        handOver("submitAwaitingReply").check(Harness.class);
    }

    /** The init part's {@code first(1)}, then {@code step()} against {@code submit(1); submit(1)}, in 300 interleavings. */
    static ModelCheckingOptions handOver(String first) {
        try {
            Actor init = new Actor(Harness.class.getMethod(first, int.class), List.<Object>of(1));
            Actor step = new Actor(Harness.class.getMethod("step"), List.of());
            Actor submit = new Actor(Harness.class.getMethod("submit", int.class), List.<Object>of(1));
            // Lincheck sets the @Validate function of a custom scenario itself.
            ExecutionScenario scenario = new ExecutionScenario(List.of(init), List.of(List.of(step), List.of(submit, submit)),
                    List.of(), null);
            return new ModelCheckingOptions().iterations(0).invocationsPerIteration(300).addCustomScenario(scenario);
        } catch (NoSuchMethodException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    @Tag("stress")
    public void longRun() {
        stress(10).check(Harness.class);
        modelChecking(10).check(Harness.class);
        stress(5).threads(3).check(Harness.class);
        modelChecking(5).threads(3).check(Harness.class);
    }

    static StressOptions stress(int scale) {
        return LincheckScenarios.stress(scale, 300);
    }

    static ModelCheckingOptions modelChecking(int scale) {
        return LincheckScenarios.modelChecking(scale, 100);
    }
}
