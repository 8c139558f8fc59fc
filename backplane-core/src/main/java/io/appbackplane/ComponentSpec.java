package io.appbackplane;

import java.util.Objects;

/**
 * How to install a component: its name, its outstanding-request limit and its make-room hook
 * (DESIGN rule 11). Immutable; the {@code with...} methods return modified copies.
 */
public final class ComponentSpec {

    /** The default outstanding-request limit of a component. */
    public static final int DEFAULT_OUTSTANDING_LIMIT = 100_000;

    private final String name;
    private final int outstandingLimit;
    private final MakeRoom makeRoom;

    private ComponentSpec(String name, int outstandingLimit, MakeRoom makeRoom) {
        this.name = name;
        this.outstandingLimit = outstandingLimit;
        this.makeRoom = makeRoom;
    }

    /** A spec for a component named {@code name} with default settings. */
    public static ComponentSpec named(String name) {
        Objects.requireNonNull(name, "component name must not be null");
        if (name.isBlank()) {
            throw new IllegalArgumentException("component name is blank; allowed: a non-blank name");
        }
        return new ComponentSpec(name, DEFAULT_OUTSTANDING_LIMIT, MakeRoom.NEVER);
    }

    /** The same spec with an outstanding-request limit of {@code limit} (1..{@value Integer#MAX_VALUE}). */
    public ComponentSpec withOutstandingLimit(int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException(
                    "operation-limit = " + limit + " for component '" + name + "' is invalid; allowed: 1.." + Integer.MAX_VALUE);
        }
        return new ComponentSpec(name, limit, makeRoom);
    }

    /** The same spec with a make-room hook, asked for room when the component is at its limit. */
    public ComponentSpec withMakeRoom(MakeRoom makeRoom) {
        return new ComponentSpec(name, outstandingLimit, Objects.requireNonNull(makeRoom, "makeRoom must not be null"));
    }

    public String name() {
        return name;
    }

    public int outstandingLimit() {
        return outstandingLimit;
    }

    public MakeRoom makeRoom() {
        return makeRoom;
    }

    /**
     * Asked, in the submitting thread, to make room when a component is at its outstanding limit,
     * for example by {@linkplain BackplaneComponent#cancelQueued cancelling} queued work that is no
     * longer worth doing. If it returns {@code true} the request is admitted when room was made;
     * otherwise it is rejected with {@link BackplaneRejectedException}.
     */
    @FunctionalInterface
    public interface MakeRoom {
        /** A hook that never makes room. */
        MakeRoom NEVER = component -> false;

        /** Tries to make room; returns whether it did. */
        boolean makeRoom(BackplaneComponent component);
    }

    @Override
    public String toString() {
        return "ComponentSpec{" + name + ", outstandingLimit=" + outstandingLimit + "}";
    }
}
