package io.appbackplane.model;

/**
 * One action start in a trace: when, which action ({@code a3}; a reply handler is {@code a3/reply}
 * or {@code a3/timeout}), on which object and at which priority.
 */
public record TraceEntry(long atNanos, String label, String key, int priority) {

    @Override
    public String toString() {
        long micros = atNanos / 1_000;
        String time = micros % 1_000 == 0 ? String.valueOf(micros / 1_000) : String.format("%.3f", micros / 1_000.0);
        return String.format("%7sms %-12s on %-3s at p%d", time, label, key, priority);
    }
}
