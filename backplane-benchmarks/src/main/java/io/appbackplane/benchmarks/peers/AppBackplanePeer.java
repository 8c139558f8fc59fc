package io.appbackplane.benchmarks.peers;

import io.appbackplane.Action;
import io.appbackplane.Backplane;
import io.appbackplane.BackplaneComponent;
import io.appbackplane.BackplanePolicy;
import io.appbackplane.ComponentSpec;
import io.appbackplane.CpuLimit;
import io.appbackplane.ObjectPool;

/**
 * AppBackplane as shipped: the default 8 priorities with their default quotas, CPU accounting on
 * (a CPU limit equal to the number of workers, so the budget is checked and charged for every
 * action but does not bind), default operation limits. A keyed task goes to the object for its key
 * ({@code execute}, no future); an unkeyed task to an {@link ObjectPool} of {@code 2 × workers}
 * objects (DESIGN rule 12).
 */
final class AppBackplanePeer implements KeyedExecutor {

    private final Backplane backplane;
    private final BackplaneComponent component;
    private final ObjectPool unordered;

    AppBackplanePeer(int workers) {
        BackplanePolicy policy = BackplanePolicy.builder()
                .threads(workers)
                .cpuLimit(CpuLimit.ofCores(workers))
                .build();
        backplane = Backplane.builder("benchmark").policy(policy).build();
        component = backplane.install(ComponentSpec.named("work"));
        unordered = component.pool("unordered", 2 * workers);
    }

    @Override
    public void submit(Object key, int priority, Runnable task) {
        Action<Void> action = ctx -> {
            task.run();
            return null;
        };
        if (key == null) {
            unordered.submit(priority, action);
        } else {
            component.execute(key, priority, action);
        }
    }

    @Override
    public boolean ordersPerKey() {
        return true;
    }

    @Override
    public void close() {
        unordered.release();
        backplane.close();
    }
}
