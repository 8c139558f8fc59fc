package io.appbackplane.internal.base;

/**
 * The padding rule of {@link CacheLines}, for objects' fields rather than arrays' values: padding
 * (68 bytes, more than a line of {@value CacheLines#BYTES}) ahead of the fields of a subclass whose
 * instances belong to one worker and are written by it on every action or turn ({@link RunContext},
 * {@link CpuMeter}, a worker's {@link Parker} with its busy flag). Such objects of
 * different workers are created one after the other and may end up side by side wherever the
 * garbage collector copies them; without padding, two workers' per-action writes could then land
 * on one cache line and every action would pay for moving it between cores (docs/benchmarks.md,
 * "slow and fast modes").
 *
 * <p>HotSpot lays out a subclass's fields after its superclass's, except that a subclass field may
 * fill a gap the superclass leaves; the int fills the only such gap (after a 12-byte object header;
 * with a 16- or 8-byte header the padding has no gap either). So at least 64 bytes separate two
 * padded objects' own fields, whatever the header size. This is HotSpot's layout, not a language
 * guarantee, and only the front is padded: an object's last fields may still share a line with
 * whatever the collector puts after it.
 */
@SuppressWarnings("unused")
public abstract class WorkerLocalPadding {
    private int p0;
    private long p1, p2, p3, p4, p5, p6, p7, p8;
}
