package io.appbackplane.internal;

import io.appbackplane.ActionCounts;
import java.time.Duration;
import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.atomic.LongAdder;

/** Striped counters behind an {@link ActionCounts} snapshot; any thread may add. */
final class ActionCounters {

    final LongAdder submitted = new LongAdder();
    final LongAdder rejected = new LongAdder();
    final LongAdder completed = new LongAdder();
    final LongAdder failed = new LongAdder();
    final LongAdder actionsRun = new LongAdder();
    final LongAdder slowActions = new LongAdder();
    private final LongAdder queueNanos = new LongAdder();
    private final LongAdder runNanos = new LongAdder();
    private final LongAccumulator maxQueueNanos = new LongAccumulator(Math::max, 0);
    private final LongAccumulator maxRunNanos = new LongAccumulator(Math::max, 0);

    void actionRan(long queueTime, long runTime) {
        actionsRun.increment();
        queueNanos.add(queueTime);
        runNanos.add(runTime);
        maxQueueNanos.accumulate(queueTime);
        maxRunNanos.accumulate(runTime);
    }

    void finished(boolean success) {
        (success ? completed : failed).increment();
    }

    ActionCounts snapshot() {
        // Read the finishing counters before "submitted", so outstanding() is never negative.
        long done = completed.sum();
        long fail = failed.sum();
        long rej = rejected.sum();
        return new ActionCounts(
                submitted.sum(),
                rej,
                done,
                fail,
                actionsRun.sum(),
                slowActions.sum(),
                Duration.ofNanos(queueNanos.sum()),
                Duration.ofNanos(maxQueueNanos.get()),
                Duration.ofNanos(runNanos.sum()),
                Duration.ofNanos(maxRunNanos.get()));
    }

    static ActionCounts sum(Iterable<ActionCounts> parts) {
        long s = 0, r = 0, c = 0, f = 0, a = 0, slow = 0;
        Duration q = Duration.ZERO, mq = Duration.ZERO, run = Duration.ZERO, mr = Duration.ZERO;
        for (ActionCounts p : parts) {
            s += p.submitted();
            r += p.rejected();
            c += p.completed();
            f += p.failed();
            a += p.actionsRun();
            slow += p.slowActions();
            q = q.plus(p.totalQueueTime());
            run = run.plus(p.totalRunTime());
            mq = mq.compareTo(p.maxQueueTime()) >= 0 ? mq : p.maxQueueTime();
            mr = mr.compareTo(p.maxRunTime()) >= 0 ? mr : p.maxRunTime();
        }
        return new ActionCounts(s, r, c, f, a, slow, q, mq, run, mr);
    }
}
