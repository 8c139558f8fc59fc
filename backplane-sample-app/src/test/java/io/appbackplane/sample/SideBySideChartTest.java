package io.appbackplane.sample;

import static org.assertj.core.api.Assertions.assertThat;

import io.appbackplane.sample.SideBySideRun.Result;
import io.appbackplane.sample.SideBySideRun.Sample;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The side-by-side chart and table on readings with gaps: a mode whose instance stopped answering
 * its meters stays in both, with its CPU and urgent latency, and says where its re-pricings are
 * unknown.
 */
class SideBySideChartTest {

    private static final double NO_ANSWER = Double.NaN;

    @Test
    void aModeWhoseMetersNeverAnswered_staysInTheChartAndTheTableSayingSo() {
        Result backplane = result("backplane", 3700, sample(2, 3600, true), sample(4, 3800, true), sample(6, 3700, true));
        Result virtual = result("baseline-virtual", Double.NaN, sample(2, NO_ANSWER, false), sample(4, NO_ANSWER, false),
                sample(6, NO_ANSWER, false));
        List<Result> results = List.of(backplane, virtual);

        String svg = SideBySideChart.svg(results, "title");
        assertThat(svg).doesNotContain("NaN");
        String orange = SideBySideChart.COLORS.get("baseline-virtual");
        assertThat(svg).contains(">baseline-virtual (meters did not answer for 3 of 3 readings)</text>")
                .contains(">baseline-virtual: meters did not answer for 3 of 3 readings</text>");
        assertThat(count(svg, "<polyline fill=\"none\" stroke=\"" + orange + "\""))
                .as("its urgent p99, p50 and CPU lines; no bulk line").isEqualTo(3);
        assertThat(count(svg, "<path d=\"M")).as("a cross per unanswered reading").isEqualTo(3);
        assertThat(count(svg, "<polyline fill=\"none\" stroke=\"" + SideBySideChart.COLORS.get("backplane") + "\""))
                .as("the backplane's four lines").isEqualTo(4);

        String table = SideBySide.table(results, "");
        assertThat(table).contains("| backplane | none | 10.0 ms | 40.0 ms | 90 ms | 1000 (0) | 3700 | 1.50 cores | - |")
                .contains("| baseline-virtual | none | 10.0 ms | 40.0 ms | 90 ms | 1000 (0) | meters did not answer for 3 of 3 readings"
                        + " | 1.50 cores | - |");
    }

    @Test
    void aModeWhoseMetersAnsweredSomeReadings_showsTheAnsweredOnesAndCountsTheOthers() {
        Result virtual = result("baseline-virtual", 3500, sample(2, 3400, true), sample(4, NO_ANSWER, false),
                sample(6, 3600, true), sample(8, NO_ANSWER, false), sample(10, 3500, true));

        String svg = SideBySideChart.svg(List.of(virtual), "title");
        assertThat(svg).doesNotContain("NaN");
        String orange = SideBySideChart.COLORS.get("baseline-virtual");
        assertThat(svg).contains(">baseline-virtual (meters did not answer for 2 of 5 readings)</text>");
        assertThat(count(svg, "<circle")).as("the bulk readings between gaps, as dots").isEqualTo(3);
        assertThat(count(svg, "<path d=\"M")).isEqualTo(2);
        assertThat(count(svg, "<polyline fill=\"none\" stroke=\"" + orange + "\"")).as("urgent p99, p50 and CPU").isEqualTo(3);

        assertThat(SideBySide.table(List.of(virtual), ""))
                .contains("| 3500 (meters did not answer for 2 of 5 readings) | 1.50 cores |");
    }

    private static Sample sample(double seconds, double bulkPerSecond, boolean answered) {
        return new Sample(seconds, 10, 40, bulkPerSecond, 1.5, answered);
    }

    private static Result result(String mode, double bulkPerSecond, Sample... samples) {
        SideBySideRun run = new SideBySideRun(mode, 0, Duration.ofSeconds(5), Duration.ofSeconds(10), Duration.ofSeconds(2));
        return new Result(run, List.of(samples), 10, 40, 90, 1000, 0, bulkPerSecond, 1.5, 0, 0);
    }

    private static int count(String text, String part) {
        return text.split(java.util.regex.Pattern.quote(part), -1).length - 1;
    }
}
