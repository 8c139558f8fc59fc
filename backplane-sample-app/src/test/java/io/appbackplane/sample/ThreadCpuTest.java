package io.appbackplane.sample;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.appbackplane.sample.ThreadCpu.Breakdown;
import io.appbackplane.sample.ThreadCpu.Group;
import io.appbackplane.sample.ThreadCpu.Share;
import io.appbackplane.sample.ThreadCpu.Snapshot;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link ThreadCpu} and {@link JvmThreadNames} on a fake {@code /proc} tree and thread dump. */
class ThreadCpuTest {

    private static final long PID = 4242;
    private static final List<Group> GROUPS = List.of(
            Group.of("backplane workers", "backplane-.*-worker-\\d+"),
            Group.of("Tomcat request threads", "http-nio-.*-exec-\\d+"),
            Group.of("JIT compiler", "C[12] CompilerThre.*"),
            Group.of("GC", "G1 .*|GC Thread#\\d+"));

    @TempDir
    Path proc;

    @Test
    void groupsEachThreadsGrowthByName_theKernelsTruncatedNameWhereNoFullNameIsKnown() throws IOException {
        ThreadCpu cpu = new ThreadCpu(proc, 100);
        process(1000);
        thread(4242, "java", 10, 5);
        thread(4250, "C2 CompilerThre", 300, 20);
        thread(4251, "GC Thread#0", 40, 10);
        thread(4260, "backplane-defau", 100, 0);
        thread(4261, "backplane-defau", 50, 0);
        thread(4270, "http-nio-127.0.", 30, 30);
        Snapshot before = cpu.read(PID, 1_000_000_000L);

        process(1000 + 200 + 50 + 40 + 60 + 25 + 15 + 35);
        thread(4242, "java", 10, 5);                  // idle
        thread(4250, "C2 CompilerThre", 450, 70);     // +200 ticks: 1 core over 2 s
        thread(4251, "GC Thread#0", 80, 20);          // +50
        thread(4260, "backplane-defau", 140, 0);      // worker: +40
        thread(4261, "backplane-defau", 110, 0);      // timer: +60
        thread(4270, "http-nio-127.0.", 45, 40);      // request thread: +25
        thread(4280, "pricing-runs", 10, 5);          // started in the window: all its 15
        // a thread that ran in the window and ended: its 35 ticks are only in the process's count above
        Snapshot after = cpu.read(PID, 3_000_000_000L);

        Breakdown window = cpu.between(before, after,
                Map.of(4260, "backplane-default-worker-1", 4261, "backplane-default-timer", 4270, "http-nio-127.0.0.1-auto-1-exec-3"),
                GROUPS);

        assertThat(window.seconds()).isEqualTo(2.0);
        assertThat(window.processCores()).isCloseTo(4.25 / 2, within(1e-9)); // 425 ticks in 2 s
        assertThat(window.groups()).extracting(Share::group).containsExactly(
                "backplane workers", "Tomcat request threads", "JIT compiler", "GC", ThreadCpu.OTHER, ThreadCpu.EXITED);
        assertThat(window.cores("JIT compiler")).isCloseTo(1.0, within(1e-9));
        assertThat(window.cores("backplane workers")).isCloseTo(0.2, within(1e-9));
        assertThat(window.cores("Tomcat request threads")).isCloseTo(0.125, within(1e-9));
        assertThat(window.cores("GC")).isCloseTo(0.25, within(1e-9));
        // the timer (full name known) and pricing-runs (started in the window) match no group; "java" used nothing
        assertThat(window.cores(ThreadCpu.OTHER)).isCloseTo((60 + 15) / 200.0, within(1e-9));
        assertThat(window.cores(ThreadCpu.EXITED)).isCloseTo(0.175, within(1e-9));
        assertThat(window.groups().stream().mapToDouble(Share::cores).sum()).isCloseTo(window.processCores(), within(1e-9));
        assertThat(window.groups().get(4).threads()).as("java, the timer, pricing-runs").isEqualTo(3);
        assertThat(window.toString()).startsWith("process 2.13 cores over 2.0 s: backplane workers 0.20 (1); Tomcat request threads 0.13 (1);");
    }

    @Test
    void aThreadIdReusedInTheWindowCountsAsANewThread() throws IOException {
        ThreadCpu cpu = new ThreadCpu(proc, 100);
        process(500);
        thread(4300, "GC Thread#1", 400, 0);
        Snapshot before = cpu.read(PID, 0);
        process(500 + 400 + 10);
        thread(4300, "GC Thread#1", 10, 0); // the old thread (400 ticks) ended; a new one got its id
        Snapshot after = cpu.read(PID, 1_000_000_000L);

        Breakdown window = cpu.between(before, after, Map.of(), GROUPS);

        assertThat(window.cores("GC")).isCloseTo(0.1, within(1e-9));
        assertThat(window.cores(ThreadCpu.EXITED)).as("the old thread's last use, only in the process's count").isCloseTo(4.0, within(1e-9));
    }

    @Test
    void readsTheTicksAfterANameHoldingSpacesAndParentheses() {
        assertThat(ThreadCpu.ticks("17 (a (b) c) S 1 17 17 0 -1 4194560 100 0 0 0 123 45 0 0 20 0 1 0 99 0 0")).isEqualTo(168);
        assertThatThrownBy(() -> ThreadCpu.ticks("17 (short) S 1 2")).hasMessageContaining("at least 13 expected");
        assertThatThrownBy(() -> new ThreadCpu(proc, 0)).hasMessageContaining("ticksPerSecond must be positive, was 0");
    }

    @Test
    void takesTheFullNamesOfAThreadDumpByKernelId() {
        String dump = """
                2026-11-27 16:20:00
                Full thread dump OpenJDK 64-Bit Server VM (17.0.13+11 mixed mode, sharing):

                "http-nio-127.0.0.1-auto-1-exec-1" #40 daemon prio=5 os_prio=0 cpu=120.50ms elapsed=30.1s tid=0x00007f nid=0x10d2 waiting on condition  [0x00007f]
                   java.lang.Thread.State: WAITING (parking)

                "GC Thread#0" os_prio=0 cpu=80.1ms elapsed=31.0s tid=0x00007f nid=0x10a1 runnable
                "backplane-default-worker-1" #52 prio=5 os_prio=0 cpu=1.0ms elapsed=29.0s tid=0x00007f nid=4400 runnable
                """;

        assertThat(JvmThreadNames.parse(dump)).containsOnly(Map.entry(0x10d2, "http-nio-127.0.0.1-auto-1-exec-1"),
                Map.entry(0x10a1, "GC Thread#0"), Map.entry(4400, "backplane-default-worker-1"));
    }

    private void process(long ticks) throws IOException {
        Files.createDirectories(proc.resolve(PID + "/task"));
        Files.writeString(proc.resolve(PID + "/stat"), stat(PID, "java", ticks - 3, 3));
    }

    private void thread(int tid, String comm, long utime, long stime) throws IOException {
        Path dir = Files.createDirectories(proc.resolve(PID + "/task/" + tid));
        Files.writeString(dir.resolve("comm"), comm + "\n");
        Files.writeString(dir.resolve("stat"), stat(tid, comm, utime, stime));
    }

    private static String stat(long id, String comm, long utime, long stime) {
        return id + " (" + comm + ") S 1 " + PID + " " + PID + " 0 -1 4194624 2000 0 0 0 " + utime + " " + stime
                + " 0 0 20 0 30 0 12345 0 0\n";
    }
}
