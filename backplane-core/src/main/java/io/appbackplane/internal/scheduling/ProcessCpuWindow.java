package io.appbackplane.internal.scheduling;

import java.util.function.LongSupplier;

/**
 * The cores the whole process used over a trailing window as long as the kernel's enforcement
 * period, read from samples of the process's CPU time taken at most once per {@code sampleNanos}.
 *
 * <p>With {@code c(t)} the process's CPU time sampled at {@code t} and {@code o} the oldest sample
 * kept ({@code samples} samples ago, or the first): {@code cores(now) = (c(s) − c(o)) / (s − o)},
 * where {@code s} is the latest sample, taken by the first call at or after {@code
 * nextSampleAt}. A sample older than {@code window + sampleNanos} is dropped (samples are at least
 * {@code sampleNanos} apart), so the rate never spans much more than the window.
 *
 * <p>Thread-safe: any worker calls {@link #cores(long)}; one of them takes each sample (under this
 * object's lock, entered only when a sample is due: once per {@code sampleNanos}), the others read
 * the last result.
 */
final class ProcessCpuWindow {

    private final LongSupplier processCpuNanos;
    private final long sampleNanos;
    private final long windowNanos;
    /** Sample times and CPU times, a ring; guarded by this. */
    private final long[] sampledAt;
    private final long[] cpuAt;
    private int next;
    private int kept;
    private volatile long nextSampleAt;
    private volatile double cores;

    /**
     * @param processCpuNanos the process's CPU time so far, -1 if unknown (then the window reads 0 cores)
     * @param windowNanos how far back the rate looks
     * @param sampleNanos the least time between two samples
     * @param now the clock now: the first sample, the base of the next, is taken now
     */
    ProcessCpuWindow(LongSupplier processCpuNanos, long windowNanos, long sampleNanos, long now) {
        this.processCpuNanos = processCpuNanos;
        this.sampleNanos = sampleNanos;
        this.windowNanos = windowNanos;
        int samples = (int) Math.max(1, windowNanos / sampleNanos);
        this.sampledAt = new long[samples];
        this.cpuAt = new long[samples];
        this.nextSampleAt = now;
        sample(now);
    }

    /** The cores the process used over the trailing window, as of the latest sample (taken now if due). */
    double cores(long now) {
        if (now - nextSampleAt >= 0) {
            sample(now);
        }
        return cores;
    }

    private synchronized void sample(long now) {
        if (now - nextSampleAt < 0) {
            return; // another worker took this sample
        }
        nextSampleAt = now + sampleNanos;
        long cpu = processCpuNanos.getAsLong();
        if (cpu < 0) {
            cores = 0;
            return;
        }
        int n = sampledAt.length;
        while (kept > 0 && now - sampledAt[(next - kept + n) % n] > windowNanos + sampleNanos) {
            kept--; // older than the window (the workers sampled nothing for a while): no longer a fair base
        }
        if (kept > 0) {
            int oldest = (next - kept + n) % n;
            long wall = now - sampledAt[oldest];
            cores = wall > 0 ? Math.max(0, cpu - cpuAt[oldest]) / (double) wall : cores;
        } else {
            cores = 0; // nothing to measure against yet
        }
        sampledAt[next] = now;
        cpuAt[next] = cpu;
        next = (next + 1) % n;
        kept = Math.min(kept + 1, n);
    }
}
