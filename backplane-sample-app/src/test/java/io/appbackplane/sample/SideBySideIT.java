package io.appbackplane.sample;

import static org.assertj.core.api.Assertions.assertThat;

import io.appbackplane.sample.SideBySideRun.Result;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A short run of the side-by-side comparison's Java part against the sample jar: the backplane and
 * the baseline mode, each loaded over real HTTP by a separate sample process, their meters read over
 * Actuator on 127.0.0.1; the chart and the table must hold both modes' numbers. (The full run, with
 * the CPU quota half and baseline-virtual, is backplane-sample-app/why/run-side-by-side.sh.)
 */
class SideBySideIT {

    /** The default build's run: the full warm-up, then a load just long enough for a few readings of the meters. */
    @Test
    void bothModesUnderTheSameLoad_giveOneChartAndOneTableWithEachModesNumbers(@TempDir Path out) throws Exception {
        bothModes(Duration.ofSeconds(3), Duration.ofSeconds(5), out);
    }

    /** The same comparison with a longer load (the stress profile's run). */
    @Test
    @Tag("stress")
    void bothModesUnderALongerLoad_giveOneChartAndOneTableWithEachModesNumbers(@TempDir Path out) throws Exception {
        bothModes(Duration.ofSeconds(3), Duration.ofSeconds(10), out);
    }

    private static void bothModes(Duration warmup, Duration load, Path out) throws Exception {
        List<Result> results = SideBySide.run(warmup, load, Duration.ofSeconds(1), 0, List.of("backplane", "baseline"));
        results.forEach(r -> System.out.println("SideBySideIT: " + r));

        assertThat(results).extracting(r -> r.run().mode()).containsExactly("backplane", "baseline");
        for (Result result : results) {
            assertThat(result.urgentAnswered()).as("urgent orders answered: " + result).isPositive();
            assertThat(result.urgentP99Ms()).as(result.toString()).isGreaterThanOrEqualTo(result.urgentP50Ms()).isPositive();
            assertThat(result.bulkPerSecond()).as("re-pricings counted by the measured instance: " + result).isPositive();
            assertThat(result.cpuCores()).as("the measured process's CPU time: " + result).isPositive();
            assertThat(result.samples()).as("readings of the meters while the load ran: " + result).isNotEmpty()
                    .allSatisfy(sample -> assertThat(sample.cpuCores()).isPositive());
        }

        SideBySide.write(results, out, "smoke run");
        String svg = Files.readString(out.resolve("side-by-side.svg"));
        assertThat(svg).startsWith("<svg").endsWith("</svg>\n").contains(">backplane</text>", ">baseline</text>",
                "urgent p99", "urgent p50", "bulk re-pricings per second", "process CPU");
        assertThat(svg.split("<polyline", -1)).as("a line per mode and measure").hasSizeGreaterThanOrEqualTo(1 + 2 * 4);
        String table = Files.readString(out.resolve("side-by-side.md"));
        assertThat(table).contains("**smoke run**")
                .containsPattern("\\| backplane \\| none \\| \\d+\\.\\d ms \\| \\d+\\.\\d ms \\|")
                .containsPattern("\\| baseline \\| none \\| \\d+\\.\\d ms \\| \\d+\\.\\d ms \\|");

        Path doc = out.resolve("why.md");
        Files.writeString(doc, "# Why\n\n" + SideBySide.BEGIN + "\nold numbers\n" + SideBySide.END + "\n\nThe end.\n");
        SideBySide.updateDoc(doc, table);
        assertThat(Files.readString(doc)).doesNotContain("old numbers").contains(table).endsWith(SideBySide.END + "\n\nThe end.\n");
    }
}
