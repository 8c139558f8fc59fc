package io.appbackplane.spring.liveview;

import io.appbackplane.Backplane;
import io.appbackplane.BackplaneListener.SlowAction;
import io.appbackplane.BackplaneStatistics;
import io.appbackplane.ComponentStatistics;
import io.appbackplane.spring.autoconfigure.BackplaneRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Takes one statistics snapshot of every backplane per second, on one thread of its own, and keeps
 * the last {@code history} of {@link LiveViewFrame}s: every viewer of the page reads these, so the
 * number of viewers does not change what the backplanes pay (one snapshot per backplane per second,
 * nothing on the action path).
 *
 * <p>Thread-safety: {@link #sample()} runs on the sampler thread (or a test's); {@link #view} on
 * any thread. Each backplane's history is guarded by its own lock, held only to append or copy.
 */
final class LiveViewSampler implements SmartLifecycle {

    private static final Log log = LogFactory.getLog(LiveViewSampler.class);
    private static final int SLOWEST_SHOWN = 10;
    private static final int MAX_KEY_LENGTH = 80;

    private final BackplaneRegistry registry;
    private final SlowActionLog slowActions;
    private final Duration history;
    private final Clock clock;
    private final LongSupplier nanoTime;
    /** Changes with every start of the application, so an open page sees a restart and starts afresh. */
    private final String instance = UUID.randomUUID().toString();
    private final Map<String, History> histories = new LinkedHashMap<>();
    private ScheduledExecutorService executor;
    private volatile boolean failedOnce;

    LiveViewSampler(BackplaneRegistry registry, SlowActionLog slowActions, Duration history, Clock clock, LongSupplier nanoTime) {
        this.registry = registry;
        this.slowActions = slowActions;
        this.history = history;
        this.clock = clock;
        this.nanoTime = nanoTime;
        registry.all().keySet().forEach(name -> histories.put(name, new History((int) history.toSeconds())));
    }

    /** One sampling round: a snapshot of every backplane, and a frame for each that had one before. */
    void sample() {
        long epochMillis = clock.millis();
        for (Map.Entry<String, Backplane> e : registry.all().entrySet()) {
            long nanos = nanoTime.getAsLong();
            BackplaneStatistics stats = e.getValue().statistics();
            histories.get(e.getKey()).add(stats, nanos, epochMillis);
        }
    }

    /** What a slow action's object shows as when keys are hidden. */
    static final String HIDDEN = "******";

    /**
     * Everything the page shows, with the frames taken after {@code sinceEpochMillis} (all when
     * null); the slow actions' object keys as text if {@code showKeys}, else {@value #HIDDEN}.
     */
    LiveViewData view(Long sinceEpochMillis, boolean showKeys) {
        long since = sinceEpochMillis == null ? Long.MIN_VALUE : sinceEpochMillis;
        long slowSince = clock.millis() - history.toMillis();
        List<LiveViewData.BackplaneView> views = new ArrayList<>();
        histories.forEach((name, h) -> {
            History.Copy copy = h.copy(since);
            BackplaneStatistics latest = copy.latest();
            List<LiveViewData.ComponentView> components = new ArrayList<>();
            if (latest != null) {
                for (ComponentStatistics c : latest.components()) {
                    components.add(new LiveViewData.ComponentView(c.name(), c.state().name(), c.dependencies(),
                            c.outstanding(), c.operationLimit()));
                }
            }
            List<LiveViewData.SlowActionView> slow = new ArrayList<>();
            for (SlowActionLog.Entry entry : slowActions.slowest(name, slowSince, SLOWEST_SHOWN)) {
                SlowAction a = entry.action();
                slow.add(new LiveViewData.SlowActionView(entry.atEpochMillis(), a.component(), showKeys ? describe(a.objectKey()) : HIDDEN,
                        a.priority(), a.runTime().toNanos() / 1e6, a.threshold().toNanos() / 1e6));
            }
            views.add(new LiveViewData.BackplaneView(name, latest == null ? null : latest.components().get(0).state().name(),
                    latest == null ? 0 : latest.priorities().size(), components, slow, copy.frames()));
        });
        return new LiveViewData(instance, history.toSeconds(), views);
    }

    /** A key's text, on this thread rather than a worker's; a key whose toString fails is shown by its type. */
    private static String describe(Object key) {
        String text;
        try {
            text = String.valueOf(key);
        } catch (RuntimeException e) {
            text = key.getClass().getName() + " (toString failed)";
        }
        return text.length() > MAX_KEY_LENGTH ? text.substring(0, MAX_KEY_LENGTH - 1) + "…" : text;
    }

    private void sampleSafely() {
        try {
            sample();
        } catch (RuntimeException e) { // a thrown exception would cancel the schedule: log it once, keep sampling
            if (!failedOnce) {
                failedOnce = true;
                log.warn("live view: sampling the backplanes' statistics failed; the page may show gaps", e);
            }
        }
    }

    @Override
    public synchronized void start() {
        if (executor == null) {
            ScheduledThreadPoolExecutor ex = new ScheduledThreadPoolExecutor(1, r -> {
                Thread t = new Thread(r, "backplane-live-view");
                t.setDaemon(true);
                return t;
            });
            ex.setRemoveOnCancelPolicy(true);
            ex.scheduleAtFixedRate(this::sampleSafely, 0, 1, TimeUnit.SECONDS);
            executor = ex;
        }
    }

    @Override
    public synchronized void stop() {
        if (executor != null) {
            executor.shutdownNow();
            executor = null;
        }
    }

    @Override
    public synchronized boolean isRunning() {
        return executor != null;
    }

    /** One backplane's frames, oldest first, at most {@code capacity}, and the snapshot they were last taken from. */
    private static final class History {
        private final int capacity;
        private final ArrayDeque<LiveViewFrame> frames = new ArrayDeque<>();
        private BackplaneStatistics last;
        private long lastNanos;

        History(int capacity) {
            this.capacity = capacity;
        }

        synchronized void add(BackplaneStatistics stats, long nanos, long epochMillis) {
            if (last != null) {
                frames.addLast(LiveViewFrame.between(last, lastNanos, stats, nanos, epochMillis));
                if (frames.size() > capacity) {
                    frames.removeFirst();
                }
            }
            last = stats;
            lastNanos = nanos;
        }

        synchronized Copy copy(long sinceEpochMillis) {
            List<LiveViewFrame> after = new ArrayList<>();
            for (LiveViewFrame f : frames) {
                if (f.t() > sinceEpochMillis) {
                    after.add(f);
                }
            }
            return new Copy(last, after);
        }

        record Copy(BackplaneStatistics latest, List<LiveViewFrame> frames) {}
    }
}
