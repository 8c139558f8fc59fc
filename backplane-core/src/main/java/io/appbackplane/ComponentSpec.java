package io.appbackplane;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;

/**
 * How to install a component: its name, its outstanding-request limit, the admission reserve
 * within it and its make-room hook (scheduling rule 11). Immutable; the {@code with...} methods return modified copies.
 */
public final class ComponentSpec {

    /** The default outstanding-request limit of a component. */
    public static final int DEFAULT_OPERATION_LIMIT = 100_000;
    /** How long a keyed object stays idle before it is released, by default (see {@link #withIdleObjectRetention}). */
    public static final Duration DEFAULT_IDLE_OBJECT_RETENTION = Duration.ofMillis(100);
    /**
     * The shortest idle-object retention but zero: a sweep runs every retention while idle objects
     * are listed, and a shorter one would keep the timer thread busy for nothing.
     */
    public static final Duration MIN_IDLE_OBJECT_RETENTION = Duration.ofMillis(1);
    /** The longest idle-object retention allowed. */
    public static final Duration MAX_IDLE_OBJECT_RETENTION = Duration.ofHours(1);
    /** The longest queue-wait target allowed. */
    public static final Duration MAX_QUEUE_WAIT_TARGET = Duration.ofHours(1);

    private final String name;
    private final int operationLimit;
    /** The component's own admission reserve, or NaN to use the backplane policy's. */
    private final double admissionReserve;
    private final MakeRoom makeRoom;
    private final Set<String> dependencies;
    private final Map<ComponentState, List<StateHook>> hooks;
    private final Duration idleObjectRetention;
    /** The queue-wait target, or null: the operation limit stays as set. */
    private final Duration queueWaitTarget;

    private ComponentSpec(String name, int operationLimit, double admissionReserve, MakeRoom makeRoom,
            Set<String> dependencies, Map<ComponentState, List<StateHook>> hooks, Duration idleObjectRetention) {
        this(name, operationLimit, admissionReserve, makeRoom, dependencies, hooks, idleObjectRetention, null);
    }

    private ComponentSpec(String name, int operationLimit, double admissionReserve, MakeRoom makeRoom,
            Set<String> dependencies, Map<ComponentState, List<StateHook>> hooks, Duration idleObjectRetention,
            Duration queueWaitTarget) {
        this.name = name;
        this.operationLimit = operationLimit;
        this.admissionReserve = admissionReserve;
        this.makeRoom = makeRoom;
        this.dependencies = dependencies;
        this.hooks = hooks;
        this.idleObjectRetention = idleObjectRetention;
        this.queueWaitTarget = queueWaitTarget;
    }

    /** A spec for a component named {@code name} with default settings. */
    public static ComponentSpec named(String name) {
        Objects.requireNonNull(name, "component name must not be null");
        if (name.isBlank()) {
            throw new IllegalArgumentException("component name is blank; allowed: a non-blank name");
        }
        return new ComponentSpec(name, DEFAULT_OPERATION_LIMIT, Double.NaN, MakeRoom.NEVER, Set.of(), Map.of(), DEFAULT_IDLE_OBJECT_RETENTION);
    }

    /** The same spec with an outstanding-request limit of {@code limit} (1..{@value Integer#MAX_VALUE}). */
    public ComponentSpec withOperationLimit(int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException(
                    "operation-limit = " + limit + " for component '" + name + "' is invalid; allowed: 1.." + Integer.MAX_VALUE);
        }
        return new ComponentSpec(name, limit, admissionReserve, makeRoom, dependencies, hooks, idleObjectRetention, queueWaitTarget);
    }

    /**
     * The same spec with its own admission reserve (scheduling rule 11), a fraction of the operation
     * limit in [0, 1) that less urgent priorities leave free for more urgent ones: priority p of P
     * may fill the limit only up to {@code limit − ceil(limit × reserve × p / (P − 1))}, at least 1
     * (see {@link BackplanePolicy#admissionReserve()}). 0 lets every priority fill the whole limit.
     * Without this, the component uses its backplane policy's reserve (default {@value
     * BackplanePolicy#DEFAULT_ADMISSION_RESERVE}).
     */
    public ComponentSpec withAdmissionReserve(double reserve) {
        BackplanePolicy.checkAdmissionReserve("admission-reserve for component '" + name + "'", reserve);
        return new ComponentSpec(name, operationLimit, reserve, makeRoom, dependencies, hooks, idleObjectRetention, queueWaitTarget);
    }

    /**
     * The same spec with another idle-object retention (scheduling rule 16): how long a keyed object
     * that is idle (nothing queued or running, not waiting for a reply) and unpinned is kept for
     * its key's next request before it is released. It is released once it has been idle for
     * between one and two retentions; a request for its key meanwhile uses it again, without
     * creating an object. {@link Duration#ZERO} releases each object as soon as it is idle. At
     * most 65,536 idle objects are kept (about 100 bytes each, besides the key), and fewer while
     * those kept are not used again: beyond that an idle object is released at once. (Released
     * after two retentions plus the time a sweep takes on the backplane's timer thread.)
     * Default {@link #DEFAULT_IDLE_OBJECT_RETENTION}; allowed 0, or {@link
     * #MIN_IDLE_OBJECT_RETENTION} to {@link #MAX_IDLE_OBJECT_RETENTION}.
     */
    public ComponentSpec withIdleObjectRetention(Duration retention) {
        Objects.requireNonNull(retention, "idle-object-retention must not be null");
        if (!retention.isZero() && (retention.compareTo(MIN_IDLE_OBJECT_RETENTION) < 0
                || retention.compareTo(MAX_IDLE_OBJECT_RETENTION) > 0)) {
            throw new IllegalArgumentException("idle-object-retention = " + retention + " for component '" + name
                    + "' is invalid; allowed: 0 (released at once) or " + MIN_IDLE_OBJECT_RETENTION + ".."
                    + MAX_IDLE_OBJECT_RETENTION);
        }
        return new ComponentSpec(name, operationLimit, admissionReserve, makeRoom, dependencies, hooks, retention, queueWaitTarget);
    }

    /**
     * The same spec with a queue-wait target (docs/scheduling.md, "Queue-wait target"): the component's admission limit then
     * adapts, at every real tick, so that the queue wait at the most urgent priority the component
     * ran work at stays under {@code target} (its mean, and its 99th percentile: at most 1 % of
     * those actions wait longer), as high as that allows: it falls in proportion when
     * the wait is over the target, and rises while the wait is under it and the limit is what holds
     * requests back. The operation limit ({@link #withOperationLimit}) is the highest it goes, and
     * where it starts. Rule 11's admission reserve applies within the adapted limit; a request over
     * it is rejected as at any limit.
     *
     * @param target in (0, {@link #MAX_QUEUE_WAIT_TARGET}]
     */
    public ComponentSpec withQueueWaitTarget(Duration target) {
        Objects.requireNonNull(target, "queue-wait-target must not be null");
        if (target.isZero() || target.isNegative() || target.compareTo(MAX_QUEUE_WAIT_TARGET) > 0) {
            throw new IllegalArgumentException("queue-wait-target = " + target + " for component '" + name
                    + "' is invalid; allowed: a positive duration up to " + MAX_QUEUE_WAIT_TARGET + ", such as 20ms");
        }
        return new ComponentSpec(name, operationLimit, admissionReserve, makeRoom, dependencies, hooks, idleObjectRetention,
                target);
    }

    /** The queue-wait target, if the component's admission limit adapts to one. */
    public Optional<Duration> queueWaitTarget() {
        return Optional.ofNullable(queueWaitTarget);
    }

    /**
     * The same spec with a make-room hook, asked for room when a request finds the component at the
     * share of its limit that the request's priority may fill.
     */
    public ComponentSpec withMakeRoom(MakeRoom makeRoom) {
        return new ComponentSpec(name, operationLimit, admissionReserve, Objects.requireNonNull(makeRoom, "makeRoom must not be null"),
                dependencies, hooks, idleObjectRetention, queueWaitTarget);
    }

    /**
     * The same spec depending also on the components named {@code names}: this component enters a
     * state only after they have, and goes DOWN before them (docs/scheduling.md, modules and states). Checked when the
     * backplane moves: a missing name or a cycle fails the move before anything starts.
     */
    public ComponentSpec dependsOn(String... names) {
        Objects.requireNonNull(names, "dependency names must not be null");
        Set<String> all = new LinkedHashSet<>(dependencies);
        for (String dependency : names) {
            Objects.requireNonNull(dependency, "dependency name must not be null");
            if (dependency.equals(name)) {
                throw new IllegalArgumentException("component '" + name + "' cannot depend on itself");
            }
            all.add(dependency);
        }
        return new ComponentSpec(name, operationLimit, admissionReserve, makeRoom, Collections.unmodifiableSet(all), hooks, idleObjectRetention, queueWaitTarget);
    }

    /** The same spec running {@code hook} (after the hooks added before) on entering {@code state}. */
    public ComponentSpec onEnter(ComponentState state, StateHook hook) {
        Objects.requireNonNull(state, "state must not be null");
        Objects.requireNonNull(hook, "hook must not be null");
        if (state == ComponentState.START) {
            throw new IllegalArgumentException("component '" + name + "': no hook can run on entering START (it is the"
                    + " initial state); allowed: INITIALIZING, PRIMARY, SECONDARY, DOWN");
        }
        Map<ComponentState, List<StateHook>> all = new EnumMap<>(ComponentState.class);
        all.putAll(hooks);
        List<StateHook> forState = new ArrayList<>(all.getOrDefault(state, List.of()));
        forState.add(hook);
        all.put(state, List.copyOf(forState));
        return new ComponentSpec(name, operationLimit, admissionReserve, makeRoom, dependencies, Collections.unmodifiableMap(all), idleObjectRetention, queueWaitTarget);
    }

    /** The names of the components this one depends on. */
    public Set<String> dependencies() {
        return dependencies;
    }

    /** The state hooks, by the state they run on entering. */
    public Map<ComponentState, List<StateHook>> hooks() {
        return hooks;
    }

    public String name() {
        return name;
    }

    public int operationLimit() {
        return operationLimit;
    }

    /** The component's own admission reserve; empty when it uses its backplane policy's. */
    public OptionalDouble admissionReserve() {
        return Double.isNaN(admissionReserve) ? OptionalDouble.empty() : OptionalDouble.of(admissionReserve);
    }

    public MakeRoom makeRoom() {
        return makeRoom;
    }

    /** How long an idle keyed object is kept before it is released ({@link #withIdleObjectRetention}). */
    public Duration idleObjectRetention() {
        return idleObjectRetention;
    }

    /**
     * Asked, in the submitting thread, to make room when a request finds its component at the share
     * of the outstanding limit its priority may fill (scheduling rule 11), for example by {@linkplain
     * BackplaneComponent#cancelQueued cancelling} queued work that is no longer worth doing. If it
     * returns {@code true} the request is admitted when room was made (checked again against the
     * same share); otherwise it is rejected with {@link BackplaneRejectedException}.
     */
    @FunctionalInterface
    public interface MakeRoom {
        /** A hook that never makes room. */
        MakeRoom NEVER = component -> false;

        /** Tries to make room; returns whether it did. */
        boolean makeRoom(BackplaneComponent component);

        /**
         * Tries to make room for a request at {@code priority}; returns whether it did. Override it
         * to shed only work less urgent than the request (an urgent request meets the limit only
         * when its own and more urgent work fill it, or less urgent work filled it before the
         * reserve was set). By default calls {@link #makeRoom(BackplaneComponent)}.
         */
        default boolean makeRoom(BackplaneComponent component, int priority) {
            return makeRoom(component);
        }
    }

    @Override
    public String toString() {
        return "ComponentSpec{" + name + ", operationLimit=" + operationLimit
                + (Double.isNaN(admissionReserve) ? "" : ", admissionReserve=" + admissionReserve)
                + ", idleObjectRetention=" + idleObjectRetention
                + (queueWaitTarget == null ? "" : ", queueWaitTarget=" + queueWaitTarget) + "}";
    }
}
