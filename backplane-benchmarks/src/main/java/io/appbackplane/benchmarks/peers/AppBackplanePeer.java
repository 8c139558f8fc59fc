package io.appbackplane.benchmarks.peers;

import io.appbackplane.Action;
import io.appbackplane.Backplane;
import io.appbackplane.BackplaneComponent;
import io.appbackplane.BackplanePolicy;
import io.appbackplane.BackplaneStatistics;
import io.appbackplane.ComponentSpec;
import io.appbackplane.CpuLimit;
import io.appbackplane.ObjectPool;
import java.util.Locale;

/**
 * AppBackplane as shipped: the default 8 priorities with their default quotas, CPU accounting on
 * (a CPU limit equal to the number of workers, so the budget is checked and charged for every
 * action but does not bind) unless the benchmark asks for no limit, default operation limits. A keyed task goes to the object for its key
 * ({@code execute}, no future); an unkeyed task to an {@link ObjectPool} of {@code 2 × workers}
 * objects (rule 12 of docs/scheduling.md; {@code ObjectPool.execute}, no future), one pool per priority: an object runs its actions in FIFO order, so a
 * user who wants urgent unkeyed work to overtake bulk work gives it its own objects, exactly as
 * the {@code two-pools} peer gives it its own threads.
 *
 * <p>{@code -Dbench.actionsPerTurn=N} on the {@code java} command line (the forks inherit it) sets
 * the policy's actions per turn (rule 7; default 1), to see what the round robin between objects
 * costs; results with it are not the shipped configuration.
 */
final class AppBackplanePeer implements KeyedExecutor {

    private final Backplane backplane;
    private final BackplaneComponent component;
    /** The unkeyed tasks' pools, by priority, created on first use by the (single) producer or ticker. */
    private final ObjectPool[] unordered;
    private final int poolSize;

    AppBackplanePeer(int workers, boolean cpuLimited) {
        BackplanePolicy.Builder builder = BackplanePolicy.builder().threads(workers);
        Integer actionsPerTurn = Integer.getInteger("bench.actionsPerTurn");
        if (actionsPerTurn != null) {
            builder.actionsPerTurn(actionsPerTurn);
        }
        if (cpuLimited) {
            builder.cpuLimit(CpuLimit.ofCores(workers));
        }
        BackplanePolicy policy = builder.build();
        backplane = Backplane.builder("benchmark").policy(policy).build();
        component = backplane.install(ComponentSpec.named("work"));
        poolSize = 2 * workers;
        unordered = new ObjectPool[policy.priorities()];
    }

    @Override
    public void submit(Object key, int priority, Runnable task) {
        Action<Void> action = ctx -> {
            task.run();
            return null;
        };
        if (key == null) {
            pool(priority).execute(priority, action);
        } else {
            component.execute(key, priority, action);
        }
    }

    private ObjectPool pool(int priority) {
        ObjectPool pool = unordered[priority];
        if (pool == null) {
            // component.pool is idempotent per name, so two threads racing here get the same pool
            pool = component.pool("unordered-p" + priority, poolSize);
            unordered[priority] = pool;
        }
        return pool;
    }

    @Override
    public boolean ordersPerKey() {
        return true;
    }

    @Override
    public void close() {
        // One line per trial, so that a fork's score can be read next to what the backplane did
        // (a CPU limit of `workers` cores is not meant to bind; throttled time says whether it did).
        BackplaneStatistics stats = backplane.statistics();
        System.out.printf(Locale.ROOT, "%nappbackplane: throttled %d ms, virtual ticks %d, actions run %d%n",
                stats.cpu().throttledTime().toMillis(), stats.virtualTicks(), component.statistics().counts().actionsRun());
        for (ObjectPool pool : unordered) {
            if (pool != null) {
                pool.release();
            }
        }
        backplane.close();
    }
}
