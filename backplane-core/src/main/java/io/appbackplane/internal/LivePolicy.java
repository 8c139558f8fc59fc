package io.appbackplane.internal;

import io.appbackplane.BackplaneClock;
import io.appbackplane.BackplanePolicy;
import io.appbackplane.CpuLimit;
import io.appbackplane.internal.scheduling.CpuBudget;
import io.appbackplane.internal.scheduling.QuotaLedger;
import io.appbackplane.internal.scheduling.WorkerPool;
import java.util.Objects;

/**
 * A backplane's policy as it changes at run time: {@code setThreads}, {@code setQuota} and {@code
 * setCpuLimit} replace it whole (validated by the policy's builder, so a bad value changes nothing)
 * and apply the change to the workers, the quota ledger or the CPU budget, then wake every worker.
 * Its priorities and admission reserve never change (components keep rule 11's thresholds computed
 * from them, see {@link io.appbackplane.internal.components.ComponentAdmission}).
 *
 * <p>Thread-safe: changes are serialized by this object's monitor; readers see the current policy
 * through a volatile read.
 */
final class LivePolicy {

    private volatile BackplanePolicy policy;
    private final QuotaLedger quotas;
    private final CpuBudget cpu;
    private final BackplaneClock clock;
    private final WorkerPool workers; // null in step mode

    LivePolicy(BackplanePolicy policy, QuotaLedger quotas, CpuBudget cpu, BackplaneClock clock, WorkerPool workers) {
        this.policy = policy;
        this.quotas = quotas;
        this.cpu = cpu;
        this.clock = clock;
        this.workers = workers;
    }

    BackplanePolicy current() {
        return policy;
    }

    synchronized void setThreads(int threads) {
        if (threads < 1 || threads > BackplanePolicy.MAX_THREADS) {
            throw new IllegalArgumentException(
                    "threads = " + threads + " is invalid; allowed: 1.." + BackplanePolicy.MAX_THREADS);
        }
        policy = policy.toBuilder().threads(threads).build();
        if (workers != null) {
            workers.setThreads(threads);
        }
    }

    synchronized void setQuota(int priority, int quota) {
        policy = policy.toBuilder().quota(policy.checkPriority(priority), quota).build(); // validates
        quotas.setQuota(priority, quota);
        signalAll();
    }

    synchronized void setCpuLimit(CpuLimit cpuLimit) {
        Objects.requireNonNull(cpuLimit, "cpuLimit must not be null");
        policy = policy.toBuilder().cpuLimit(cpuLimit).build();
        cpu.setLimit(cpuLimit, clock.nanoTime());
        if (!cpu.isLimited()) {
            cpu.resumed(clock.nanoTime()); // nothing waits for budget any more: close an open throttled interval
        }
        signalAll();
    }

    private void signalAll() {
        if (workers != null) {
            workers.signalAll();
        }
    }
}
