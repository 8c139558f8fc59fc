package io.appbackplane.kafka;

import org.slf4j.Logger;

/**
 * A log line that is written at most once per interval; the lines dropped meanwhile are counted
 * and the next line written says how many. For per-record events (dead letters) that a poison feed
 * can produce thousands of times a second.
 *
 * <p>Threads: any; {@link #warn} is synchronized (it is called once per such event, never on a hot path).
 */
final class RateLimitedLog {

    private final Logger log;
    private final long intervalNanos;
    private boolean logged;
    private long lastNanos;
    private long dropped;

    RateLimitedLog(Logger log, java.time.Duration interval) {
        this.log = log;
        this.intervalNanos = interval.toNanos();
    }

    /** Logs {@code message} at WARN unless a line was written less than the interval ago. */
    synchronized void warn(String message) {
        long now = System.nanoTime();
        if (logged && now - lastNanos < intervalNanos) {
            dropped++;
            return;
        }
        if (dropped > 0) {
            log.warn("{} ({} more like it in the last {} s, not logged)", message, dropped,
                    Math.round((now - lastNanos) / 1e9));
        } else {
            log.warn(message);
        }
        logged = true;
        lastNanos = now;
        dropped = 0;
    }
}
