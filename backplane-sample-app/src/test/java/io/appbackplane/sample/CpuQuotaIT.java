package io.appbackplane.sample;

import static org.assertj.core.api.Assertions.assertThat;

import io.appbackplane.sample.CpuQuotaRun.Result;
import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@code cpu-limit: auto} against the kernel's CPU quota, with real parts: the sample jar with the
 * {@code quiet} profile in a child CPU cgroup with a 1-core quota, its load (urgent orders over
 * HTTP, and a bulk re-pricing run started over HTTP) from a second sample process outside the
 * cgroup; the kernel's throttled periods read from the cgroup's {@code cpu.stat}. Each run makes
 * and removes its own cgroup. Skipped with a notice where no cgroup can be made; failing instead
 * when CI=true.
 */
class CpuQuotaIT {

    /** The default build's smoke run: a short load, auto only. */
    @Test
    void auto_followsTheQuotaOfTheCgroupTheJarRunsIn_smoke() throws Exception {
        Result auto = new CpuQuotaRun("auto", 1.0, Duration.ZERO, Duration.ofSeconds(8)).measure();
        System.out.println("CpuQuotaIT smoke: " + auto + "\n  " + auto.summaryLines());

        // Right after start-up the JIT compiler alone takes the process over a 1-core quota, so the
        // smoke run checks that the quota is found and followed, not how much the kernel throttles.
        assertThat(auto.periods()).as("the process ran in the cgroup: " + auto).isGreaterThan(20);
        assertThat(auto.autoLine()).as("the summary shows the quota followed").contains("auto: quota 1.00");
        assertThat(auto.urgentAnswered()).as(auto.toString()).isPositive();
    }

    /**
     * The full comparison (60 s of recorded load each, or {@code -DcpuQuotaIT.loadSeconds=N}, after a
     * load that lets the JIT compiler settle: 180 s, or {@code -DcpuQuotaIT.settleSeconds=N}; after
     * 60 s the compiler's bursts alone still took the process over its quota on a 2-core machine):
     * auto in a 1-core quota keeps throttled periods under 5 %, where the sample's fixed limit
     * (1500m) is throttled in more; urgent p99 under auto stays within twice its value with no
     * quota at all. The recorded load is 600 kernel periods, not 200: the compiler still works in
     * bursts for a while after the settle load, and a few such periods in the first 20 s were a
     * share of 200 that said more about the compiler than about auto. Each run's {@code threads:}
     * line shows whether the compiler was still at work in the recorded load.
     */
    @Test
    @Tag("stress")
    void auto_versusAFixedLimit_inAOneCoreQuota() throws Exception {
        Duration settle = Duration.ofSeconds(Long.getLong("cpuQuotaIT.settleSeconds", 180));
        Duration load = Duration.ofSeconds(Long.getLong("cpuQuotaIT.loadSeconds", 60));
        Result auto = new CpuQuotaRun("auto", 1.0, settle, load).measure();
        Result fixed = new CpuQuotaRun("1500m", 1.0, settle, load).measure();
        Result noQuota = new CpuQuotaRun("auto", 0, settle, load).measure();
        System.out.println("CpuQuotaIT:\n  " + auto + "\n  " + fixed + "\n  " + noQuota + "\n  " + auto.summaryLines() + "\n  "
                + fixed.summaryLines() + "\n  " + noQuota.summaryLines());

        assertThat(auto.throttledShare()).as(auto.toString()).isLessThan(0.05);
        assertThat(fixed.throttledShare()).as(fixed.toString()).isGreaterThan(auto.throttledShare());
        assertThat(auto.urgentP99Ms()).as(auto + " against " + noQuota).isLessThanOrEqualTo(2 * noQuota.urgentP99Ms());
    }
}
