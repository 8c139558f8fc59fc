package io.appbackplane.sample;

import static org.assertj.core.api.Assertions.assertThat;

import io.appbackplane.sample.SideBySideRun.Result;
import io.appbackplane.sample.SideBySideRun.Sample;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.ToDoubleFunction;
import java.util.stream.Stream;
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

    /**
     * The default build's run: the full warm-up, then a load long enough for a few readings of the
     * meters even when the overloaded instance takes seconds to answer one (the baseline mode on a
     * busy machine), so that each mode has a reading with urgent requests in its window.
     */
    @Test
    void bothModesUnderTheSameLoad_giveOneChartAndOneTableWithEachModesNumbers(@TempDir Path out) throws Exception {
        bothModes(Duration.ofSeconds(3), Duration.ofSeconds(10), out);
    }

    /** The same comparison with a longer load (the stress profile's run). */
    @Test
    @Tag("stress")
    void bothModesUnderALongerLoad_giveOneChartAndOneTableWithEachModesNumbers(@TempDir Path out) throws Exception {
        bothModes(Duration.ofSeconds(3), Duration.ofSeconds(20), out);
    }

    private static void bothModes(Duration warmup, Duration load, Path out) throws Exception {
        List<Result> results = SideBySide.run(warmup, load, Duration.ofSeconds(1), 0, List.of("backplane", "baseline"));
        results.forEach(r -> System.out.println("SideBySideIT: " + r + "; readings: " + r.samples()));

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
        assertThat(svg).startsWith("<svg").endsWith("</svg>\n").contains("urgent p99", "urgent p50", "bulk re-pricings per second",
                "process CPU");
        for (Result result : results) {
            // The legend counts the readings the instance's meters left unanswered (a busy machine may
            // delay an answer beyond a reading), if any.
            String mode = result.run().mode();
            assertThat(svg).contains(">" + mode + (result.unanswered() == 0 ? "" : " (meters did not answer for " + result.unanswered()
                    + " of " + result.samples().size() + " readings)") + "</text>");
            // CPU comes with every reading, re-pricings with every reading the instance answered, an
            // urgent percentile with a reading whose window held an answered urgent request (an
            // overloaded mode may have none in a short run); a measure's readings draw a line, or a
            // dot for a reading between gaps.
            long measures = Stream.<ToDoubleFunction<Sample>>of(Sample::urgentP50Ms, Sample::urgentP99Ms, Sample::bulkPerSecond)
                    .filter(measure -> result.samples().stream().mapToDouble(measure).anyMatch(v -> v > 0)).count();
            String color = SideBySideChart.COLORS.get(mode);
            int drawn = svg.split("stroke=\"" + color + "\" stroke-width=\"2\"", -1).length - 1
                    + svg.split("r=\"2.5\" fill=\"" + color + "\"", -1).length - 1;
            assertThat(drawn).as("a line or dots per measure with readings, for " + mode + "; its readings: " + result.samples())
                    .isGreaterThanOrEqualTo(1 + (int) measures);
        }
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
