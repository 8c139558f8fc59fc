package io.appbackplane.kafka;

import io.appbackplane.BackplaneComponent;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.kafka.listener.MessageListenerContainer;

/**
 * Back pressure for one component: when the component reaches its operation limit (or rejects a
 * record), the listener containers feeding it are paused — only those, so other topics keep
 * flowing — and resumed once its outstanding requests fall to {@code resumeBelow × limit} and the
 * records held back while it was full have been submitted. A paused spring-kafka container keeps
 * polling, so its consumer stays in the group however long the pause lasts.
 *
 * <p>Threads: any. {@link #pause} is lock-free; {@link #maybeResume} is synchronized and takes
 * partition monitors (briefly: {@link PartitionFeed} never holds its monitor across a submit or a
 * call into the throttle), so the only lock order is throttle, then partition. A submit may
 * complete its action on the submitting thread and call {@link #afterDone} there: that takes the
 * throttle's lock while holding no partition monitor. Benign race: a pause between {@code maybeResume} resuming the
 * containers and clearing the flag is lost; the next rejected record pauses again.
 */
final class ComponentThrottle {

    private static final Logger LOG = LoggerFactory.getLogger(ComponentThrottle.class);

    private final BackplaneComponent component;
    private final double resumeBelow;
    private final List<MessageListenerContainer> containers = new CopyOnWriteArrayList<>();
    private final List<Backlogs> backlogs = new CopyOnWriteArrayList<>();
    private final java.util.concurrent.atomic.AtomicBoolean paused = new java.util.concurrent.atomic.AtomicBoolean();
    private final java.util.concurrent.atomic.AtomicLong pauses = new java.util.concurrent.atomic.AtomicLong();
    private volatile long pausedSince;
    private volatile long pausedNanos;

    ComponentThrottle(BackplaneComponent component, double resumeBelow) {
        this.component = component;
        this.resumeBelow = resumeBelow;
    }

    BackplaneComponent component() {
        return component;
    }

    /** The records one endpoint held back while its component was full. */
    interface Backlogs {
        /** Submits every partition's held-back records; whether all its backlogs are now empty. */
        boolean drainBacklogs();
    }

    void feeds(MessageListenerContainer container, Backlogs backlogs) {
        containers.add(container);
        this.backlogs.add(backlogs);
    }

    boolean isPaused() {
        return paused.get();
    }

    /** After a record was queued: pause before the next one would be rejected. */
    void afterSubmit() {
        if (!paused.get() && component.outstanding() >= component.operationLimit()) {
            pause("reached its operation limit of " + component.operationLimit());
        }
    }

    /** After a record finished: resume if paused and there is room again. */
    void afterDone() {
        if (paused.get() && hasRoom()) {
            maybeResume();
        }
    }

    private boolean hasRoom() {
        return component.outstanding() <= (long) Math.floor(component.operationLimit() * resumeBelow);
    }

    void pause(String why) {
        if (!paused.compareAndSet(false, true)) {
            return;
        }
        pausedSince = System.nanoTime();
        pauses.incrementAndGet();
        LOG.debug("Pausing the partitions feeding component '{}': it {}", component.name(), why);
        containers.forEach(MessageListenerContainer::pause);
    }

    /**
     * Resumes if there is room: first submits the records held back (in order, per partition); if
     * the component fills up again doing so, it stays paused.
     */
    synchronized void maybeResume() {
        if (!paused.get() || !hasRoom()) {
            return;
        }
        for (Backlogs endpoint : backlogs) {
            if (!endpoint.drainBacklogs()) {
                return; // still full, or not accepting: stay paused; the sweeper tries again
            }
        }
        LOG.debug("Resuming the partitions feeding component '{}'", component.name());
        containers.forEach(MessageListenerContainer::resume);
        pausedNanos += System.nanoTime() - pausedSince;
        paused.set(false);
    }

    /** Total time paused so far, including a pause in progress. */
    long pausedNanos() {
        return pausedNanos + (paused.get() ? System.nanoTime() - pausedSince : 0);
    }

    /** How many times it paused. */
    long pauses() {
        return pauses.get();
    }
}
