package io.appbackplane.internal.scheduling;

import io.appbackplane.ComponentSpec;
import io.appbackplane.CpuLimit;
import io.appbackplane.internal.components.DefaultComponent;
import io.appbackplane.internal.objects.ActionNode;
import io.appbackplane.internal.objects.ReadyEntry;
import io.appbackplane.internal.objects.Request;
import io.appbackplane.internal.objects.WorkObject;
import io.appbackplane.internal.objects.WorkObjectLincheckTest;
import java.time.Duration;

/**
 * The real scheduling parts that the tests of {@link IdleWorkers} drive by hand, their own threads
 * (or Lincheck's) standing in for workers: ready queues of two priorities, a {@link Scheduler} with
 * ample quotas and no CPU limit, a {@link WorkerPool} of target 0 (it starts no threads, and {@code
 * live > target} is false, so only the scheduler decides), its idle workers, and a component to
 * submit to, all on the shared step-mode backplane.
 */
final class IdleWorkersHarness {

    static final int PRIORITIES = 2;

    final ReadyQueues ready = new ReadyQueues(PRIORITIES);
    final Scheduler scheduler = new Scheduler(WorkObjectLincheckTest.BACKPLANE, ready,
            new QuotaLedger(new int[] {64, 64}),
            new CpuBudget(CpuLimit.UNLIMITED, Duration.ofSeconds(1), 1, 0), 1, Duration.ofHours(1));
    final WorkerPool pool = new WorkerPool(WorkObjectLincheckTest.BACKPLANE, scheduler, 0);
    final IdleWorkers workers = pool.idleWorkers();
    final DefaultComponent component =
            new DefaultComponent(WorkObjectLincheckTest.BACKPLANE, ComponentSpec.named("c"), ready);

    /**
     * What a submitter to a fresh key does before its push: the key's object goes IDLE → READY and is
     * counted in its priority's depth; returns its entry, not yet pushed.
     */
    ReadyEntry readyEntry(int key, int priority) {
        WorkObject object = new WorkObject(component, key);
        ActionNode node = ActionNode.create(WorkerParkingLincheckTest.NeverRun.INSTANCE,
                new Request(component, key, priority, null, null, null, false), 0L, null);
        if (!(object.enqueue(node) instanceof ReadyEntry entry) || entry.object != object) {
            throw new AssertionError("a fresh object did not become READY");
        }
        return entry;
    }

    /** A whole submit to a fresh key: its entry made READY and pushed, then a worker signalled. */
    void submit(int key, int priority) {
        scheduler.push(readyEntry(key, priority)); // ready.push(entry); signalWork() is a no-op on the step-mode backplane
        workers.signal(); // what signalWork() does on a threaded backplane
    }
}
