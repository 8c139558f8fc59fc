package io.appbackplane.internal.objects;

import io.appbackplane.Action;
import io.appbackplane.ActionContext;
import io.appbackplane.Backplane;
import io.appbackplane.ComponentSpec;
import io.appbackplane.ManualClock;
import io.appbackplane.ReplyHandler;
import io.appbackplane.internal.DefaultBackplane;
import io.appbackplane.internal.LincheckScenarios;
import io.appbackplane.internal.components.DefaultComponent;
import io.appbackplane.internal.scheduling.ReadyQueues;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.jetbrains.lincheck.datastructures.StressOptions;
import org.jetbrains.lincheck.datastructures.Validate;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Lincheck tests of one key's {@link WorkObject} state machine as submitters, workers, a reply
 * deliverer and a canceller see it, over real {@link ReadyQueues}.
 *
 * <p>The harness does what {@code DefaultComponent} and {@code Scheduler} do around the object —
 * look the key up (and again after {@code Refusal.RELEASED}), push the returned entry after the monitor is released,
 * poll the most urgent queue, take, run one action, decide with a {@link TurnGate} that
 * never continues, remove a RELEASED object from the map — but runs no user code: an "action" is a
 * {@link Tagged} id. Ids are handed out in enqueue order, so a step's result (the id it ran) is a
 * function of the sequential history and Lincheck compares it exactly.
 *
 * <p>Results that are <em>not</em> linearizable by design are not exposed: a submit's "pushed an
 * entry" depends on whether the object was RUNNING, a state no sequential history shows, so
 * {@code submit} returns nothing. A worker that finds no entry while the object is READY (its entry
 * not yet pushed) or RUNNING (another worker holds it) looks again, as a real worker is woken by
 * the push that follows; so {@code workerStep} returns -1 only when the object has nothing to run.
 *
 * <p>Checked on every step: no two actions of the object at once, no action twice. Checked by
 * {@code @Validate} after each scenario: {@link WorkObject#checkInvariants()} of every object
 * created; per priority, {@code depth(p)} = valid entries in queue p and each READY object has
 * exactly one; after draining, every action ran or was cancelled exactly once and the submitted
 * ones ran in FIFO order.
 */
public class WorkObjectLincheckTest {

    static final int PRIORITIES = 3;
    private static final Object KEY = "key";
    private static final TurnGate NEVER_CONTINUE = new TurnGate() {
        @Override
        public boolean mayContinue(int effectivePriority) {
            return false;
        }
    };
    /** Step mode, manual clock: no threads. Shared; each harness makes its own component and queues. */
    public static final DefaultBackplane BACKPLANE = (DefaultBackplane) Backplane.builder("lincheck-work-object")
            .clock(new ManualClock())
            .stepMode()
            .build();

    /** An action as the harness sees it; never run as user code. */
    static final class Tagged implements Action<Object>, ReplyHandler<Object, Object> {
        /** Written before the node is enqueued (under the harness lock), read by the worker that runs it. */
        int id;
        final boolean awaitsReply;
        final boolean replyHandler;

        Tagged(boolean awaitsReply, boolean replyHandler) {
            this.awaitsReply = awaitsReply;
            this.replyHandler = replyHandler;
        }

        @Override
        public Object run(ActionContext context) {
            throw new AssertionError("the harness runs no user code");
        }

        @Override
        public Object onReply(ActionContext context, Object reply, Throwable failure) {
            throw new AssertionError("the harness runs no user code");
        }

        /** The tag of a queued action, or of the reply handler a delivered reply's action runs. */
        static Tagged of(ActionNode node) {
            return node.action instanceof PendingReply.ReplyAction reply ? (Tagged) reply.handler : (Tagged) node.action;
        }
    }

    /**
     * An awaited reply as {@code PendingReply.listen} would publish it: its object and its (tagged)
     * handler. A plain class, not a record: Lincheck cannot take field offsets of record fields.
     */
    static final class Awaited {
        final WorkObject object;
        final PendingReply reply;
        final Tagged handler;

        Awaited(WorkObject object, PendingReply reply, Tagged handler) {
            this.object = object;
            this.reply = reply;
            this.handler = handler;
        }
    }

    /**
     * The operations; subclasses choose how many threads may run {@code workerStep}, and whether
     * idle objects are released at once or by a sweep that races the rest ({@link Swept}).
     */
    public abstract static class Harness {

        final ReadyQueues ready = new ReadyQueues(PRIORITIES);
        private final DefaultComponent component;
        private final ConcurrentHashMap<Object, WorkObject> objects = new ConcurrentHashMap<>();
        /** Guards the fields below it: ids are handed out in the order their nodes are enqueued. */
        private final Object lock = new Object();
        private final List<WorkObject> created = new ArrayList<>();
        private int lastId;
        private final List<Tagged> ran = new ArrayList<>();
        private final Set<Integer> cancelled = new HashSet<>();
        /** The awaited reply, published after startWaiting as {@code PendingReply.listen} would. */
        private final AtomicReference<Awaited> pending = new AtomicReference<>();
        /** Set while a worker runs an action of the key's object. */
        private final AtomicBoolean running = new AtomicBoolean();

        /** @param idleObjectRetention zero: an idle object is released at once; else only by {@link #sweepOnce}. */
        Harness(Duration idleObjectRetention) {
            component = new DefaultComponent(BACKPLANE, ComponentSpec.named("c").withIdleObjectRetention(idleObjectRetention), ready);
        }

        @Operation
        public void submit(@Param(gen = IntGen.class, conf = "0:2") int priority) {
            offer(priority, false);
        }

        /** Submits an action that, when run, awaits a reply. */
        @Operation
        public void submitAwaitingReply(@Param(gen = IntGen.class, conf = "0:2") int priority) {
            offer(priority, true);
        }

        /** Completes the awaited reply, if any; returns the id of its handler action, or -1. */
        @Operation
        public int deliverReply() {
            Awaited awaited;
            ReadyEntry entry;
            synchronized (lock) { // take the reply and number its handler in one step
                awaited = pending.getAndSet(null);
                if (awaited == null) {
                    return -1;
                }
                awaited.handler.id = lastId + 1;
                entry = awaited.object.deliver(awaited.reply, null, null, 0L);
                if (!awaited.reply.hasEnded()) {
                    throw new AssertionError("the only delivery of a reply was refused");
                }
                lastId++;
            }
            if (entry != null) {
                push(entry);
            }
            return awaited.handler.id;
        }

        /** {@code cancelQueued(key)}: removes the queued actions; returns how many. */
        @Operation
        public int cancelQueued() {
            WorkObject object = objects.get(KEY);
            if (object == null) {
                return 0;
            }
            List<ActionNode> removed = object.removeQueued();
            forgetIfReleased(object, object.settleIfIdle());
            synchronized (lock) {
                for (ActionNode node : removed) {
                    cancelled.add(((Tagged) node.action).id);
                }
            }
            return removed.size();
        }

        /**
         * One worker turn of one action; returns the id of the action it ran, or -1.
         *
         * <p>From the poll to the publication of an awaited reply the worker holds {@code lock},
         * which {@code deliverReply} takes too. In a real backplane a delivery can come in that
         * window and find no listener yet, which is correct (nothing to deliver), but no sequential
         * order of whole operations explains it: after a take, {@code cancelQueued() == 0} says the
         * worker's step came first, and {@code deliverReply() == -1} that it has not. Lincheck's
         * stress mode found that history ({@code submitAwaitingReply; workerStep() || cancelQueued();
         * deliverReply()}). The lock removes only that window: take, enqueue and deliver are
         * serialized by the object's monitor anyway, and the rest of the turn ({@code afterAction},
         * the push) still races every other operation.
         */
        int step() {
            while (true) {
                WorkObject taken = null;
                int id = -1;
                boolean stale = false;
                synchronized (lock) {
                    ReadyEntry entry = pollMostUrgent();
                    if (entry != null) {
                        WorkObject object = entry.object; // null once dead (stale)
                        if (object != null && object.take(entry)) {
                            ready.purgeDeadHead(entry.priority); // as Scheduler.select does: the next may be dead
                            taken = object;
                            id = runAction(object);
                        } else {
                            stale = true; // the object moved to a more urgent queue or left READY
                        }
                    }
                }
                if (taken != null) {
                    finishTurn(taken);
                    return id;
                }
                if (stale) {
                    continue;
                }
                WorkObject object = objects.get(KEY);
                int state = object == null ? WorkObject.IDLE : object.state();
                if (state != WorkObject.READY && state != WorkObject.RUNNING) {
                    return -1;
                }
                // READY but its entry is not pushed yet, or RUNNING on the other worker: the push that
                // follows would wake a parked worker, so look again.
                Thread.onSpinWait();
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
            // depth(p) = valid entries in queue p; every READY object has exactly one.
            List<WorkObject> taken = new ArrayList<>();
            for (int p = 0; p < PRIORITIES; p++) {
                int depth = ready.depth(p);
                // Stale entries are purged from the head (issue 13, defect 1): no work, no entry.
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
            // Drain: every action runs or was cancelled, exactly once, submitted ones in FIFO order.
            while (deliverReply() != -1 | drainStep() != -1) {
                // until nothing is left
            }
            for (WorkObject object : objectsCreated) {
                object.checkInvariants();
                int state = object.state();
                require(state == WorkObject.IDLE || state == WorkObject.RELEASED, "left in state " + state);
            }
            require(ready.totalDepth() == 0, "depth left after draining");
            synchronized (lock) {
                Set<Integer> seen = new HashSet<>(cancelled);
                int lastSubmitted = 0;
                for (Tagged action : ran) {
                    require(seen.add(action.id), "action " + action.id + " ran twice or ran after it was cancelled");
                    if (!action.replyHandler) {
                        require(action.id > lastSubmitted, "action " + action.id + " ran after " + lastSubmitted);
                        lastSubmitted = action.id;
                    }
                }
                require(seen.size() == lastId, lastId + " actions but " + seen.size() + " ran or were cancelled");
            }
        }

        /** A step that does not wait: after the scenario, READY without an entry is a lost entry. */
        private int drainStep() {
            ReadyEntry entry;
            while ((entry = pollMostUrgent()) != null) {
                if (entry.object.take(entry)) {
                    return runOneAction(entry.object);
                }
            }
            WorkObject object = objects.get(KEY);
            require(object == null || object.state() != WorkObject.READY, "READY but no valid entry in any queue");
            return -1;
        }

        /** As {@code Scheduler.push}: an entry killed before its push is purged by its pusher. */
        private void push(ReadyEntry entry) {
            ready.push(entry);
            if (entry.isDead()) {
                ready.purgeDeadHead(entry.priority);
            }
        }

        private void offer(int priority, boolean awaitsReply) {
            Tagged action = new Tagged(awaitsReply, false);
            ActionNode node = ActionNode.create(action, new Request(component, KEY, priority, null, null, null, false), 0L, null);
            while (true) {
                WorkObject object = lookUp();
                WorkObject.Enqueued offered;
                synchronized (lock) {
                    action.id = lastId + 1;
                    offered = object.enqueue(node);
                    if (offered != Refusal.RELEASED) {
                        lastId++;
                    }
                }
                if (offered == Refusal.RELEASED) {
                    objects.remove(KEY, object); // released concurrently: help remove it, then look again
                    continue;
                }
                require(offered != Refusal.ABANDONED, "abandoned without a shutdown");
                if (offered instanceof ReadyEntry entry) {
                    push(entry);
                }
                return;
            }
        }

        /** {@code computeIfAbsent}, spelled out: the harness holds no lambdas (Lincheck cannot copy their fields). */
        private WorkObject lookUp() {
            WorkObject object = objects.get(KEY);
            if (object != null) {
                return object;
            }
            WorkObject fresh = new WorkObject(component, KEY);
            object = objects.putIfAbsent(KEY, fresh);
            if (object != null) {
                return object;
            }
            synchronized (lock) {
                created.add(fresh);
            }
            return fresh;
        }

        private ReadyEntry pollMostUrgent() {
            for (int p = 0; p < PRIORITIES; p++) {
                ReadyEntry entry = ready.poll(p);
                if (entry != null) {
                    return entry;
                }
            }
            return null;
        }

        /** Runs the next action of a taken (RUNNING) object, then decides as a worker would. */
        private int runOneAction(WorkObject object) {
            int id = runAction(object);
            finishTurn(object);
            return id;
        }

        /** The action of a taken object, up to the publication of its awaited reply; returns its id. */
        private int runAction(WorkObject object) {
            require(running.compareAndSet(false, true), "two actions of one object at once");
            int id = -1;
            ActionNode node = object.next();
            if (node != null) { // take() took it off the queue already (prefetched), so only a defect gives null
                Tagged action = Tagged.of(node);
                id = action.id;
                synchronized (lock) {
                    ran.add(action);
                }
                if (action.awaitsReply) {
                    Tagged handler = new Tagged(false, true);
                    PendingReply reply = PendingReply.create(object, node.request, handler, false, null);
                    require(object.startWaiting(reply), "abandoned without a shutdown");
                    pending.set(new Awaited(object, reply, handler)); // listen(): a delivery may now race the rest of this turn
                }
            }
            return id;
        }

        /** The rest of the turn: the object's next state, acted upon. */
        private void finishTurn(WorkObject object) {
            running.set(false); // before afterAction: once it returns, another worker may take the object
            WorkObject.TurnEnd after = object.afterAction(NEVER_CONTINUE);
            if (after instanceof ReadyEntry entry) {
                push(entry);
            } else {
                forgetIfReleased(object, (AfterAction) after);
            }
        }

        /**
         * As {@code KeyedObjects.settled}: a RELEASED object leaves the map. LIST_IDLE needs no list
         * here: {@link #sweepOnce} visits the key's current object, which is idle and unpinned (there
         * are no pins here) only if it was listed.
         */
        private void forgetIfReleased(WorkObject object, AfterAction after) {
            if (after == AfterAction.RELEASE) {
                objects.remove(KEY, object);
            }
        }

        /** One visit of the idle sweep ({@code IdleObjectSweep}) to the key's object: marks it, releases it or unlists it. */
        void sweepOnce() {
            WorkObject object = objects.get(KEY);
            if (object != null && object.sweepIdle() == IdleObjectSweep.Visit.RELEASED) {
                objects.remove(KEY, object);
            }
        }

        static void require(boolean condition, String message) {
            if (!condition) {
                throw new AssertionError(message);
            }
        }
    }

    /** One worker (the contract: one worker holds an object at a time), racing submitters, a deliverer, a canceller. */
    public static class OneWorker extends Harness {

        public OneWorker() {
            super(Duration.ZERO);
        }

        @Operation(nonParallelGroup = "worker")
        public int workerStep() {
            return step();
        }
    }

    /** Two workers racing for the object's entries: never two actions at once, never one twice. */
    public static class TwoWorkers extends Harness {

        public TwoWorkers() {
            this(Duration.ZERO);
        }

        TwoWorkers(Duration idleObjectRetention) {
            super(idleObjectRetention);
        }

        @Operation
        public int workerStep() {
            return step();
        }
    }

    /**
     * Two workers with a retention: idle objects are listed, and released only by the idle sweep,
     * which races submitters (one may find the object RELEASED and look the key up again), workers,
     * the deliverer and the canceller. Never an action lost or run twice, never work queued to a
     * released object.
     */
    public static class Swept extends TwoWorkers {

        public Swept() {
            super(ComponentSpec.DEFAULT_IDLE_OBJECT_RETENTION);
        }

        @Operation
        public void sweep() {
            sweepOnce();
        }
    }

    // ---------------------------------------------------------------- tests

    @Test
    public void oneWorker_stress() {
        LincheckScenarios.quick(stress(1)).check(OneWorker.class);
    }

    @Test
    public void oneWorker_modelChecking() {
        LincheckScenarios.quickModelChecking(INVOCATIONS_MODEL_CHECKING / 2).check(OneWorker.class);
    }

    @Test
    public void twoWorkers_stress() {
        LincheckScenarios.quick(stress(1)).check(TwoWorkers.class);
    }

    @Test
    public void twoWorkers_modelChecking() {
        LincheckScenarios.quickModelChecking(INVOCATIONS_MODEL_CHECKING / 2).check(TwoWorkers.class);
    }

    @Test
    public void swept_stress() {
        LincheckScenarios.quick(stress(1)).check(Swept.class);
    }

    @Test
    public void swept_modelChecking() {
        LincheckScenarios.quickModelChecking(INVOCATIONS_MODEL_CHECKING / 2).check(Swept.class);
    }

    @Test
    @Tag("stress")
    public void longRun() {
        stress(10).check(OneWorker.class);
        modelChecking(10).check(OneWorker.class);
        stress(10).check(TwoWorkers.class);
        modelChecking(10).check(TwoWorkers.class);
        stress(5).threads(3).check(TwoWorkers.class);
        modelChecking(5).threads(3).actorsPerThread(3).check(TwoWorkers.class);
        stress(10).check(Swept.class);
        modelChecking(10).check(Swept.class);
    }

    static StressOptions stress(int scale) {
        return LincheckScenarios.stress(scale, 500);
    }

    static final int INVOCATIONS_MODEL_CHECKING = 100;

    static ModelCheckingOptions modelChecking(int scale) {
        return LincheckScenarios.modelChecking(scale, INVOCATIONS_MODEL_CHECKING);
    }
}
