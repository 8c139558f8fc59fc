package io.appbackplane.internal.scheduling;

import io.appbackplane.Action;
import io.appbackplane.ActionContext;
import io.appbackplane.ComponentSpec;
import io.appbackplane.CpuLimit;
import io.appbackplane.internal.LincheckScenarios;
import io.appbackplane.internal.components.DefaultComponent;
import io.appbackplane.internal.objects.ActionNode;
import io.appbackplane.internal.objects.AfterAction;
import io.appbackplane.internal.objects.ReadyEntry;
import io.appbackplane.internal.objects.Refusal;
import io.appbackplane.internal.objects.Request;
import io.appbackplane.internal.objects.TurnGate;
import io.appbackplane.internal.objects.WorkObject;
import io.appbackplane.internal.objects.WorkObjectLincheckTest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.jetbrains.lincheck.datastructures.StressOptions;
import org.jetbrains.lincheck.datastructures.Validate;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Lincheck tests of selection over {@link ReadyQueues}: submitters enqueue actions to two keys at
 * three priorities (priority rises leave stale entries), workers take objects with the real {@link
 * Scheduler#select()} (quota charge before poll, refund on a stale entry, virtual tick when every
 * quota with work is spent) and run one action each.
 *
 * <p>Selection scans the priorities one by one with no global lock, so which object a concurrent
 * select takes is not linearizable (an object made READY at p0 after the scan passed p0 waits for
 * the next select; its push wakes a worker). The operations therefore return nothing; what is
 * checked is the contract: on every step, an object is held by one worker at a time and no action
 * runs twice; after each scenario ({@code @Validate}), every object's invariants, {@code depth(p)} =
 * valid entries in queue p with exactly one per READY object, {@code used(p) <= quota(p)}, and,
 * after draining with select, every action ran exactly once, each key's in FIFO order.
 */
public class ReadyQueuesLincheckTest {

    static final int PRIORITIES = 3;
    static final int KEYS = 2;
    /** One action per priority per period: selection keeps running into spent quotas and virtual ticks. */
    static final int[] QUOTAS = {1, 1, 1};
    private static final TurnGate NEVER_CONTINUE = new TurnGate() {
        @Override
        public boolean mayContinue(int effectivePriority) {
            return false;
        }
    };

    /** An action as the harness sees it: key and sequence number; never run as user code. */
    static final class Tagged implements Action<Object> {
        final int key;
        /** Written under the harness lock before the node is enqueued. */
        int seq;

        Tagged(int key) {
            this.key = key;
        }

        @Override
        public Object run(ActionContext context) {
            throw new AssertionError("the harness runs no user code");
        }
    }

    public static class Selection {

        private final ReadyQueues ready = new ReadyQueues(PRIORITIES);
        private final QuotaLedger quotas = new QuotaLedger(QUOTAS);
        private final Scheduler scheduler = new Scheduler(WorkObjectLincheckTest.BACKPLANE, ready, quotas,
                new CpuBudget(CpuLimit.UNLIMITED, Duration.ofSeconds(1), 1, 0), 1, Duration.ofHours(1));
        private final DefaultComponent component =
                new DefaultComponent(WorkObjectLincheckTest.BACKPLANE,
                        ComponentSpec.named("c").withIdleObjectRetention(Duration.ZERO), ready); // released at once, as it was
        private final ConcurrentHashMap<Integer, WorkObject> objects = new ConcurrentHashMap<>();
        private final AtomicBoolean[] held = {new AtomicBoolean(), new AtomicBoolean()};
        /** Guards the fields below. */
        private final Object lock = new Object();
        private final List<WorkObject> created = new ArrayList<>();
        private final int[] submitted = new int[KEYS];
        private final int[] ranUpTo = new int[KEYS];

        public Selection() {}

        @Operation
        public void submit(@Param(gen = IntGen.class, conf = "0:1") int key,
                @Param(gen = IntGen.class, conf = "0:2") int priority) {
            Tagged action = new Tagged(key);
            ActionNode node = ActionNode.create(action, new Request(component, key, priority, null, null, null, false), 0L, null);
            while (true) {
                WorkObject object = lookUp(key);
                WorkObject.Enqueued offered;
                synchronized (lock) {
                    action.seq = submitted[key] + 1;
                    offered = object.enqueue(node);
                    if (offered != Refusal.RELEASED) {
                        submitted[key]++;
                    }
                }
                if (offered == Refusal.RELEASED) {
                    objects.remove(key, object); // released concurrently: help remove it, then look again
                    continue;
                }
                if (offered instanceof ReadyEntry entry) {
                    scheduler.push(entry); // a step-mode backplane: push without a wake-up
                }
                return;
            }
        }

        /** A worker: select, run one action, decide (never continuing the turn), push. */
        @Operation
        public void workerStep() {
            if (scheduler.select() instanceof ReadyEntry entry) {
                runOneAction(entry.object);
            }
        }

        @Validate
        public void validate() {
            List<WorkObject> objectsCreated;
            synchronized (lock) {
                objectsCreated = new ArrayList<>(created);
            }
            int readyObjects = 0;
            for (WorkObject object : objectsCreated) {
                object.checkInvariants();
                if (object.state() == WorkObject.READY) {
                    readyObjects++;
                }
            }
            for (int p = 0; p < PRIORITIES; p++) {
                require(quotas.used(p) >= 0 && quotas.used(p) <= QUOTAS[p], "priority " + p + " used " + quotas.used(p));
            }
            List<WorkObject> taken = new ArrayList<>();
            for (int p = 0; p < PRIORITIES; p++) {
                int depth = ready.depth(p);
                // Stale entries are purged from the head: no work, no entry.
                require(depth > 0 || ready.isQueueEmpty(p), "depth(" + p + ") = 0 but its queue holds a stale entry");
                int valid = 0;
                for (ReadyEntry e = ready.poll(p); e != null; e = ready.poll(p)) {
                    WorkObject object = e.object;
                    if (object != null && object.take(e)) {
                        valid++;
                        taken.add(object);
                    }
                }
                require(valid == depth, "depth(" + p + ") = " + depth + " but queue " + p + " holds " + valid + " valid entries");
            }
            require(taken.size() == readyObjects, readyObjects + " objects READY but " + taken.size() + " valid entries");
            for (WorkObject object : taken) {
                runOneAction(object);
            }
            for (io.appbackplane.internal.objects.Selection s = scheduler.select(); s instanceof ReadyEntry e; s = scheduler.select()) {
                runOneAction(e.object);
            }
            for (WorkObject object : objectsCreated) {
                object.checkInvariants();
                int state = object.state();
                require(state == WorkObject.IDLE || state == WorkObject.RELEASED, "left in state " + state + " after draining");
            }
            synchronized (lock) {
                for (int k = 0; k < KEYS; k++) {
                    require(ranUpTo[k] == submitted[k], "key " + k + ": " + submitted[k] + " submitted, " + ranUpTo[k] + " ran");
                }
            }
        }

        private void runOneAction(WorkObject object) {
            int key = (Integer) object.key;
            require(held[key].compareAndSet(false, true), "object " + key + " taken by two workers at once");
            ActionNode node = object.next();
            require(node != null, "a taken object had no action (nothing is cancelled here)");
            Tagged action = (Tagged) node.action;
            synchronized (lock) {
                require(action.seq == ranUpTo[key] + 1,
                        "key " + key + ": action " + action.seq + " ran after " + ranUpTo[key] + " (lost, repeated or out of order)");
                ranUpTo[key] = action.seq;
            }
            held[key].set(false); // before afterAction: once it returns, another worker may take the object
            WorkObject.TurnEnd after = object.afterAction(NEVER_CONTINUE);
            if (after == AfterAction.RELEASE) {
                objects.remove(key, object);
            } else if (after instanceof ReadyEntry entry) {
                scheduler.push(entry);
            }
        }

        /** {@code computeIfAbsent}, spelled out: the harness holds no lambdas. */
        private WorkObject lookUp(int key) {
            WorkObject object = objects.get(key);
            if (object != null) {
                return object;
            }
            WorkObject fresh = new WorkObject(component, key);
            object = objects.putIfAbsent(key, fresh);
            if (object != null) {
                return object;
            }
            synchronized (lock) {
                created.add(fresh);
            }
            return fresh;
        }

        private static void require(boolean condition, String message) {
            if (!condition) {
                throw new AssertionError(message);
            }
        }
    }

    @Test
    public void selection_stress() {
        LincheckScenarios.quick(stress(1)).check(Selection.class);
    }

    @Test
    public void selection_modelChecking() {
        LincheckScenarios.quickModelChecking(INVOCATIONS_MODEL_CHECKING).check(Selection.class);
    }

    @Test
    @Tag("stress")
    public void longRun() {
        stress(10).check(Selection.class);
        modelChecking(10).check(Selection.class);
        stress(5).threads(3).check(Selection.class);
    }

    static StressOptions stress(int scale) {
        return LincheckScenarios.stress(scale, 500);
    }

    static final int INVOCATIONS_MODEL_CHECKING = 100;

    static ModelCheckingOptions modelChecking(int scale) {
        return LincheckScenarios.modelChecking(scale, INVOCATIONS_MODEL_CHECKING);
    }
}
