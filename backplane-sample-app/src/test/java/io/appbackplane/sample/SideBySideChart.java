package io.appbackplane.sample;

import io.appbackplane.sample.SideBySideRun.Result;
import io.appbackplane.sample.SideBySideRun.Sample;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * Draws the side-by-side runs as one SVG: a row per measure (urgent p99 and p50 on a log scale,
 * bulk throughput, process CPU), a column per CPU quota (none, then the cgroup's), a line per mode;
 * the x axis is the seconds of recorded load. A row has one y scale across its columns, so that
 * panels side by side compare directly. A reading the measured instance's meters did not answer
 * leaves a gap in the rows that need its answer (bulk throughput), marked by a cross on the panel's
 * x axis and counted in the legend and in the panel; the other rows are read without the instance.
 * Plain SVG text, no plotting library: it diffs and renders
 * anywhere.
 */
final class SideBySideChart {

    /** Each mode's colour: its lines are drawn in it. */
    static final Map<String, String> COLORS = Map.of(
            "backplane", "#1f77b4", "baseline", "#d62728", "baseline-virtual", "#ff7f0e");
    private static final int PANEL_W = 420;
    private static final int PANEL_H = 150;
    private static final int LEFT = 70;
    private static final int TOP = 70;
    private static final int GAP_X = 40;
    private static final int GAP_Y = 45;

    /** A measure; {@code fromInstance}: read from the measured instance's meters, so unknown when they did not answer. */
    private record Row(String title, boolean log, ToDoubleFunction<Sample> value, boolean fromInstance) {}

    private static final List<Row> ROWS = List.of(
            new Row("urgent p99 (ms, log scale)", true, Sample::urgentP99Ms, false),
            new Row("urgent p50 (ms, log scale)", true, Sample::urgentP50Ms, false),
            new Row("bulk re-pricings per second", false, Sample::bulkPerSecond, true),
            new Row("process CPU (cores)", false, Sample::cpuCores, false));

    private SideBySideChart() {
    }

    /** The SVG of {@code results}: columns in order of first appearance of each quota. */
    static String svg(List<Result> results, String title) {
        List<String> quotas = results.stream().map(Result::quota).distinct().toList();
        List<String> modes = results.stream().map(r -> r.run().mode()).distinct().toList();
        double maxSeconds = results.stream().flatMap(r -> r.samples().stream()).mapToDouble(Sample::seconds).max().orElse(1);
        int width = LEFT + quotas.size() * (PANEL_W + GAP_X);
        StringBuilder legend = new StringBuilder();
        int legendY = 40;
        int x = LEFT;
        for (String mode : modes) {
            String label = mode + unansweredNote(results, mode);
            int labelWidth = 60 + label.length() * 7;
            if (x > LEFT && x + labelWidth > width) { // wraps rather than runs off a one-column chart
                x = LEFT;
                legendY += 18;
            }
            legend.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-width=\"3\"/>\n",
                    x, legendY, x + 24, legendY, COLORS.get(mode)));
            legend.append(text(x + 30, legendY + 4, 12, "start", label));
            x += labelWidth;
        }
        int panelsTop = TOP + legendY - 40;
        int height = panelsTop + ROWS.size() * (PANEL_H + GAP_Y) + 10;
        StringBuilder svg = new StringBuilder();
        svg.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                + "font-family=\"sans-serif\" font-size=\"11\">\n", width, height));
        svg.append(String.format(Locale.ROOT, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>\n", width, height));
        svg.append(text(LEFT, 20, 14, "start", escape(title)));
        svg.append(legend);
        for (int row = 0; row < ROWS.size(); row++) {
            Row measure = ROWS.get(row);
            double[] range = range(results, measure);
            for (int column = 0; column < quotas.size(); column++) {
                String quota = quotas.get(column);
                int left = LEFT + column * (PANEL_W + GAP_X);
                int top = panelsTop + row * (PANEL_H + GAP_Y);
                panel(svg, left, top, measure, range, maxSeconds, measure.title() + " — CPU quota: " + quota);
                int notes = 0;
                for (Result result : results) {
                    if (result.quota().equals(quota)) {
                        line(svg, left, top, measure, range, maxSeconds, result);
                        if (measure.fromInstance() && result.unanswered() > 0) {
                            unanswered(svg, left, top, maxSeconds, result, notes++);
                        }
                    }
                }
            }
        }
        return svg.append("</svg>\n").toString();
    }

    /** " (meters did not answer for N of M readings)" over the mode's results, or "" if they answered every reading. */
    private static String unansweredNote(List<Result> results, String mode) {
        List<Result> ofMode = results.stream().filter(r -> r.run().mode().equals(mode)).toList();
        long unanswered = ofMode.stream().mapToLong(Result::unanswered).sum();
        long readings = ofMode.stream().mapToLong(r -> r.samples().size()).sum();
        return unanswered == 0 ? "" : " (meters did not answer for " + unanswered + " of " + readings + " readings)";
    }

    /** A cross on the x axis at each reading {@code result}'s instance did not answer, and a line saying how many. */
    private static void unanswered(StringBuilder svg, int left, int top, double maxSeconds, Result result, int index) {
        String color = COLORS.get(result.run().mode());
        double bottom = top + PANEL_H;
        for (Sample sample : result.samples()) {
            if (!sample.metersAnswered()) {
                double x = x(left, maxSeconds, sample.seconds());
                svg.append(String.format(Locale.ROOT, "<path d=\"M%.1f,%.1f l8,-8 m-8,0 l8,8\" stroke=\"%s\" stroke-width=\"1.5\"/>\n",
                        x - 4, bottom - 2, color));
            }
        }
        svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" font-size=\"10\" text-anchor=\"start\" fill=\"%s\">%s</text>\n",
                left + 6, top + 14 + 12 * index, color, escape(result.run().mode() + ": " + result.unansweredNote())));
    }

    /** The row's y range over every result: from 0 (linear) or a power of ten (log) to a rounded maximum. */
    private static double[] range(List<Result> results, Row row) {
        double max = 0;
        double min = Double.MAX_VALUE;
        for (Result result : results) {
            for (Sample sample : result.samples()) {
                double v = row.value().applyAsDouble(sample);
                if (Double.isFinite(v) && v > 0) {
                    max = Math.max(max, v);
                    min = Math.min(min, v);
                }
            }
        }
        if (max == 0) {
            return row.log() ? new double[] {1, 10} : new double[] {0, 1};
        }
        if (row.log()) {
            double low = Math.pow(10, Math.floor(Math.log10(min)));
            // at least one decade: values that are all one power of ten would otherwise give an empty range
            return new double[] {low, Math.max(low * 10, Math.pow(10, Math.ceil(Math.log10(max))))};
        }
        double step = niceStep(max / 4);
        return new double[] {0, Math.ceil(max / step) * step};
    }

    private static double niceStep(double rough) {
        double power = Math.pow(10, Math.floor(Math.log10(rough)));
        for (double m : new double[] {1, 2, 2.5, 5, 10}) {
            if (m * power >= rough) {
                return m * power;
            }
        }
        return 10 * power;
    }

    private static void panel(StringBuilder svg, int left, int top, Row row, double[] range, double maxSeconds, String title) {
        svg.append(text(left, top - 8, 12, "start", escape(title)));
        svg.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#888\"/>\n",
                left, top, PANEL_W, PANEL_H));
        List<Double> ticks = new ArrayList<>();
        if (row.log()) {
            for (double v = range[0]; v <= range[1] * 1.001; v *= 10) {
                ticks.add(v);
            }
        } else {
            double step = niceStep(range[1] / 4);
            for (double v = 0; v <= range[1] * 1.001; v += step) {
                ticks.add(v);
            }
        }
        for (double tick : ticks) {
            double y = y(top, row, range, tick);
            svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>\n",
                    left, y, left + PANEL_W, y));
            svg.append(text(left - 5, y + 4, 10, "end", number(tick)));
        }
        double step = niceStep(maxSeconds / 6);
        for (double s = 0; s <= maxSeconds * 1.001; s += step) {
            double x = x(left, maxSeconds, s);
            svg.append(text(x, top + PANEL_H + 13, 10, "middle", number(s) + (s == 0 ? "" : " s")));
        }
    }

    private static void line(StringBuilder svg, int left, int top, Row row, double[] range, double maxSeconds, Result result) {
        StringBuilder points = new StringBuilder();
        List<String> segments = new ArrayList<>();
        for (Sample sample : result.samples()) {
            double v = row.value().applyAsDouble(sample);
            if (!Double.isFinite(v) || (row.log() && v <= 0)) {
                if (!points.isEmpty()) {
                    segments.add(points.toString());
                    points.setLength(0);
                }
                continue;
            }
            points.append(String.format(Locale.ROOT, "%.1f,%.1f ", x(left, maxSeconds, sample.seconds()), y(top, row, range, v)));
        }
        if (!points.isEmpty()) {
            segments.add(points.toString());
        }
        for (String segment : segments) {
            String[] point = segment.trim().split(" ");
            if (point.length == 1) { // a reading between two gaps: a dot, as a line of one point draws nothing
                String[] xy = point[0].split(",");
                svg.append(String.format(Locale.ROOT, "<circle cx=\"%s\" cy=\"%s\" r=\"2.5\" fill=\"%s\"/>\n",
                        xy[0], xy[1], COLORS.get(result.run().mode())));
            } else {
                svg.append(String.format(Locale.ROOT, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"%s\"/>\n",
                        COLORS.get(result.run().mode()), segment.trim()));
            }
        }
    }

    private static double x(int left, double maxSeconds, double seconds) {
        return left + PANEL_W * seconds / maxSeconds;
    }

    private static double y(int top, Row row, double[] range, double value) {
        double share = row.log()
                ? (Math.log10(Math.max(value, range[0])) - Math.log10(range[0])) / (Math.log10(range[1]) - Math.log10(range[0]))
                : (value - range[0]) / (range[1] - range[0]);
        return top + PANEL_H * (1 - Math.min(1, share));
    }

    private static String number(double v) {
        return v == Math.rint(v) ? String.format(Locale.ROOT, "%.0f", v) : String.format(Locale.ROOT, "%.2g", v);
    }

    private static String text(double x, double y, int size, String anchor, String content) {
        return String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"%d\" text-anchor=\"%s\">%s</text>\n",
                x, y, size, anchor, content);
    }

    private static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}
