package io.appbackplane.benchmarks.report;

import io.appbackplane.benchmarks.report.JmhReport.Result;
import io.appbackplane.benchmarks.report.JmhReport.Spread;
import java.awt.Color;
import java.awt.geom.Rectangle2D;
import java.io.IOException;
import java.text.DecimalFormat;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.CategoryAxis;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.axis.NumberTickUnit;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.CombinedDomainCategoryPlot;
import org.jfree.chart.plot.ValueMarker;
import org.jfree.chart.renderer.category.BarRenderer;
import org.jfree.chart.renderer.category.LineAndShapeRenderer;
import org.jfree.chart.renderer.category.StandardBarPainter;
import org.jfree.chart.title.TextTitle;
import org.jfree.chart.ui.RectangleAnchor;
import org.jfree.chart.ui.TextAnchor;
import org.jfree.data.category.DefaultCategoryDataset;

/**
 * W7's chart and table: per phase (full capacity, half, back), each mode's urgent p99 queue wait
 * against the 20 ms target, and its completed actions per second. Every number is the median over
 * forks of each fork's median over its iterations ({@link JmhReport#perFork}).
 */
final class W7Report {

    /** The phases, as the benchmark names its secondary metrics ({@code fullUrgentP99Ms}, ...). */
    private static final List<String> PHASES = List.of("full", "half", "back");

    private static final List<String> PHASE_LABELS = List.of("1 core", "0.5 core", "1 core again");

    private static final double TARGET_MS = 20;

    private W7Report() {}

    static void table(List<Result> results, PrintStream out) {
        out.println("| mode | phase | urgent p99 queue wait (ms) | urgent waits over 20 ms (%) | completed/s | rejected/s | forks |");
        out.println("|---|---|---:|---:|---:|---:|---:|");
        for (Result r : results) {
            for (int i = 0; i < PHASES.size(); i++) {
                String phase = PHASES.get(i);
                Spread p99 = JmhReport.perFork(r, phase + "UrgentP99Ms", false);
                out.println("| " + mode(r) + " | " + PHASE_LABELS.get(i) + " | " + p99.format("%.1f") + " | "
                        + JmhReport.perFork(r, phase + "UrgentLatePct", false).format("%.2f") + " | "
                        + JmhReport.perFork(r, phase + "CompletedPerS", false).format("%,.0f") + " | "
                        + JmhReport.perFork(r, phase + "RejectedPerS", false).format("%,.0f") + " | " + p99.forks() + " |");
            }
        }
    }

    static void chart(List<Result> results, Path png) throws IOException {
        DefaultCategoryDataset waits = new DefaultCategoryDataset();
        DefaultCategoryDataset completed = new DefaultCategoryDataset();
        for (Result r : results) {
            for (int i = 0; i < PHASES.size(); i++) {
                String phase = PHASES.get(i);
                waits.addValue(Math.max(0.1, JmhReport.perFork(r, phase + "UrgentP99Ms", false).median()), mode(r), PHASE_LABELS.get(i));
                completed.addValue(JmhReport.perFork(r, phase + "CompletedPerS", false).median(), mode(r), PHASE_LABELS.get(i));
            }
        }
        CombinedDomainCategoryPlot plot = new CombinedDomainCategoryPlot(new CategoryAxis("phase (CPU limit)"));
        plot.setGap(12);
        LogAxis waitAxis = new LogAxis("urgent p99 queue wait (ms, log)");
        waitAxis.setBase(10);
        waitAxis.setNumberFormatOverride(new DecimalFormat("#,##0"));
        double highest = 0;
        for (int row = 0; row < waits.getRowCount(); row++) {
            for (int column = 0; column < waits.getColumnCount(); column++) {
                Number value = waits.getValue(row, column);
                highest = value == null ? highest : Math.max(highest, value.doubleValue());
            }
        }
        waitAxis.setRange(1, Math.max(100, highest * 2));
        waitAxis.setTickUnit(new NumberTickUnit(1)); // one tick per decade (a log axis's unit is the exponent)
        CategoryPlot waitPanel = new CategoryPlot(waits, null, waitAxis, dots()); // bars on a log axis start from nothing
        ValueMarker target = new ValueMarker(TARGET_MS);
        target.setPaint(Color.RED);
        target.setLabel("target 20 ms");
        target.setLabelAnchor(RectangleAnchor.TOP_RIGHT);
        target.setLabelTextAnchor(TextAnchor.BOTTOM_RIGHT);
        waitPanel.addRangeMarker(target);
        plot.add(style(waitPanel), 1);
        BarRenderer bars = bars();
        bars.setDefaultSeriesVisibleInLegend(false); // the same modes as the panel above
        plot.add(style(new CategoryPlot(completed, null, new NumberAxis("completed actions per second"), bars)), 1);
        JFreeChart chart = new JFreeChart("W7: a queue-wait target against fixed limits when capacity halves",
                JFreeChart.DEFAULT_TITLE_FONT, plot, true);
        chart.addSubtitle(new TextTitle("median over forks of each fork's median over its iterations; spread in the table"));
        chart.setBackgroundPaint(Color.WHITE);
        ChartUtils.saveChartAsPNG(png.toFile(), chart, 900, 720);
    }

    private static String mode(Result r) {
        return r.params().getOrDefault("mode", "?");
    }

    private static final Color[] COLORS = {new Color(0x3b6ea5), new Color(0x808080), new Color(0xd08c2f), new Color(0xb03a2e)};

    private static LineAndShapeRenderer dots() {
        LineAndShapeRenderer renderer = new LineAndShapeRenderer(false, true);
        for (int i = 0; i < COLORS.length; i++) {
            renderer.setSeriesPaint(i, COLORS[i]);
            renderer.setSeriesShape(i, new Rectangle2D.Double(-5, -5, 10, 10));
        }
        return renderer;
    }

    private static BarRenderer bars() {
        BarRenderer renderer = new BarRenderer();
        Color[] colors = COLORS;
        for (int i = 0; i < colors.length; i++) {
            renderer.setSeriesPaint(i, colors[i]);
        }
        renderer.setBarPainter(new StandardBarPainter());
        renderer.setShadowVisible(false);
        renderer.setDrawBarOutline(false);
        renderer.setItemMargin(0.05);
        return renderer;
    }

    private static CategoryPlot style(CategoryPlot panel) {
        panel.setBackgroundPaint(Color.WHITE);
        panel.setRangeGridlinePaint(Color.LIGHT_GRAY);
        return panel;
    }
}
