package io.appbackplane.spring.liveview;

import io.appbackplane.BackplaneListener;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The most recent slow actions (those over their backplane's slow-action threshold, as the core
 * reports them to its listeners), at most {@link #CAPACITY}, for the live view's "slowest recent
 * actions". Called on worker threads, so it only appends to a lock-free deque and trims it; the
 * object key is turned into text later, on the sampler's thread, never on a worker.
 */
final class SlowActionLog implements BackplaneListener {

    static final int CAPACITY = 256;

    /** A slow action and the wall-clock time it was reported. */
    record Entry(long atEpochMillis, SlowAction action) {}

    private final Clock clock;
    private final ConcurrentLinkedDeque<Entry> entries = new ConcurrentLinkedDeque<>();
    /** Approximately entries.size() (ConcurrentLinkedDeque.size() is O(n)); may lag a concurrent add or trim. */
    private final AtomicInteger size = new AtomicInteger();

    SlowActionLog(Clock clock) {
        this.clock = clock;
    }

    @Override
    public void onSlowAction(SlowAction slowAction) {
        entries.addLast(new Entry(clock.millis(), slowAction));
        if (size.incrementAndGet() > CAPACITY && entries.pollFirst() != null) {
            size.decrementAndGet();
        }
    }

    /** The {@code limit} slowest actions of {@code backplane} reported since {@code sinceEpochMillis}, slowest first. */
    List<Entry> slowest(String backplane, long sinceEpochMillis, int limit) {
        List<Entry> recent = new ArrayList<>();
        for (Entry e : entries) {
            if (e.atEpochMillis() >= sinceEpochMillis && e.action().backplane().equals(backplane)) {
                recent.add(e);
            }
        }
        recent.sort(Comparator.comparing((Entry e) -> e.action().runTime()).reversed());
        return recent.size() > limit ? List.copyOf(recent.subList(0, limit)) : recent;
    }
}
