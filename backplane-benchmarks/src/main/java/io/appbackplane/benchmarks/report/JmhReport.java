package io.appbackplane.benchmarks.report;

import io.appbackplane.benchmarks.peers.Peers;
import java.awt.Color;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.CategoryAxis;
import org.jfree.chart.axis.CategoryLabelPositions;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.CombinedDomainCategoryPlot;
import org.jfree.chart.renderer.category.StatisticalBarRenderer;
import org.jfree.chart.title.TextTitle;
import org.jfree.data.statistics.DefaultStatisticalCategoryDataset;

/**
 * Turns a JMH JSON result file into one PNG chart per workload ({@code W1.png}, {@code W2.png},
 * ...) and prints a Markdown table per workload to standard output.
 *
 * <pre>
 * java -cp backplane-benchmarks/target/benchmarks.jar io.appbackplane.benchmarks.report.JmhReport \
 *     docs/benchmarks jmh-result.json [more.json ...]
 * </pre>
 *
 * <p>A chart has one panel per benchmark method and work size (each with its own scale) and one
 * bar per peer: the JMH score (mean over all measurement iterations of all forks), with the JMH
 * 99.9% confidence half-width as the whisker when there is one. The table also gives the median
 * and the spread (min-max) of the per-fork means, and the order violations where counted.
 */
public final class JmhReport {

    private static final Pattern WORKLOAD = Pattern.compile("\\.(W\\d+)[A-Za-z0-9]*\\.([A-Za-z0-9_]+)$");

    private JmhReport() {}

    public static void main(String[] args) throws IOException {
        if (args.length < 2) {
            System.err.println("usage: JmhReport <output-directory> <jmh-result.json>...");
            System.exit(2);
        }
        System.setProperty("java.awt.headless", "true");
        Path out = Path.of(args[0]);
        List<Result> results = new ArrayList<>();
        for (int i = 1; i < args.length; i++) {
            results.addAll(read(Path.of(args[i])));
        }
        Files.createDirectories(out);
        Map<String, List<Result>> byWorkload = new TreeMap<>();
        for (Result r : results) {
            byWorkload.computeIfAbsent(r.workload, w -> new ArrayList<>()).add(r);
        }
        if (byWorkload.isEmpty()) {
            throw new IllegalArgumentException("no W<n> benchmark results in " + List.of(args).subList(1, args.length));
        }
        PrintStream stdout = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        for (Map.Entry<String, List<Result>> e : byWorkload.entrySet()) {
            sort(e.getValue());
            Path png = out.resolve(e.getKey() + ".png");
            chart(e.getKey(), e.getValue(), png);
            stdout.println("### " + e.getKey() + " (" + png + ")");
            stdout.println();
            table(e.getValue(), stdout);
            stdout.println();
        }
    }

    /** One benchmark result: a method with one set of parameters. */
    record Result(String workload, String method, String peer, String work, int threads, String unit, double score,
            double error, List<Double> forkMeans, Double violations) {

        String panel() {
            return method + ", " + work;
        }
    }

    @SuppressWarnings("unchecked")
    static List<Result> read(Path file) throws IOException {
        List<Result> results = new ArrayList<>();
        for (Object o : (List<Object>) Json.parse(Files.readString(file))) {
            Map<String, Object> run = (Map<String, Object>) o;
            Matcher m = WORKLOAD.matcher((String) run.get("benchmark"));
            if (!m.find()) {
                continue; // TaskCost and anything else that is not a workload
            }
            Map<String, Object> params = (Map<String, Object>) run.getOrDefault("params", Map.of());
            Map<String, Object> primary = (Map<String, Object>) run.get("primaryMetric");
            List<Double> forkMeans = new ArrayList<>();
            for (Object fork : (List<Object>) primary.get("rawData")) {
                forkMeans.add(((List<Object>) fork).stream().mapToDouble(v -> (Double) v).average().orElse(Double.NaN));
            }
            Map<String, Object> secondary = (Map<String, Object>) run.getOrDefault("secondaryMetrics", Map.of());
            Map<String, Object> violations = (Map<String, Object>) secondary.get("orderViolations");
            results.add(new Result(m.group(1), m.group(2), String.valueOf(params.get("peer")),
                    // W3 has no work parameter: its scored (bulk) tasks are always 5us
                    String.valueOf(params.getOrDefault("work", "5us")), ((Double) run.get("threads")).intValue(),
                    (String) primary.get("scoreUnit"), number(primary.get("score")), number(primary.get("scoreError")),
                    forkMeans, violations == null ? null : number(violations.get("score"))));
        }
        return results;
    }

    private static void sort(List<Result> results) {
        results.sort(Comparator.comparing(Result::method).thenComparing(Result::work, Comparator.reverseOrder())
                .thenComparingInt(r -> peerOrder(r.peer)));
    }

    private static double number(Object value) {
        return value instanceof Double d ? d : Double.NaN; // JMH writes "NaN" as a string
    }

    private static int peerOrder(String peer) {
        int i = Peers.NAMES.indexOf(peer);
        return i < 0 ? Integer.MAX_VALUE : i;
    }

    static void chart(String workload, List<Result> results, Path png) throws IOException {
        Map<String, DefaultStatisticalCategoryDataset> panels = new LinkedHashMap<>();
        String unit = results.get(0).unit;
        // One category per peer across all panels: marked if any of its results broke per-key order.
        Set<String> violated = new HashSet<>();
        results.stream().filter(r -> r.violations != null && r.violations > 0).forEach(r -> violated.add(r.peer));
        for (Result r : results) {
            String label = violated.contains(r.peer) ? r.peer + " (order violated)" : r.peer;
            panels.computeIfAbsent(r.panel(), p -> new DefaultStatisticalCategoryDataset())
                    .add(r.score, Double.isNaN(r.error) ? 0 : r.error, "score", label);
        }
        CategoryAxis peers = new CategoryAxis("peer");
        peers.setCategoryLabelPositions(CategoryLabelPositions.UP_45);
        CombinedDomainCategoryPlot plot = new CombinedDomainCategoryPlot(peers);
        plot.setGap(12);
        for (Map.Entry<String, DefaultStatisticalCategoryDataset> panel : panels.entrySet()) {
            NumberAxis axis = new NumberAxis(panel.getKey() + " (" + unit + ")");
            StatisticalBarRenderer renderer = new StatisticalBarRenderer();
            renderer.setSeriesPaint(0, new Color(0x3b6ea5));
            renderer.setErrorIndicatorPaint(Color.BLACK);
            renderer.setShadowVisible(false);
            renderer.setDrawBarOutline(false);
            CategoryPlot sub = new CategoryPlot(panel.getValue(), null, axis, renderer);
            sub.setBackgroundPaint(Color.WHITE);
            sub.setRangeGridlinePaint(Color.LIGHT_GRAY);
            plot.add(sub, 1);
        }
        JFreeChart chart = new JFreeChart(workload + ": throughput by peer", JFreeChart.DEFAULT_TITLE_FONT, plot, false);
        chart.addSubtitle(new TextTitle("bar: JMH score (mean of all iterations); whisker: 99.9% CI half-width"));
        chart.setBackgroundPaint(Color.WHITE);
        ChartUtils.saveChartAsPNG(png.toFile(), chart, 900, 260 * panels.size() + 180);
    }

    static void table(List<Result> results, PrintStream out) {
        boolean violations = results.stream().anyMatch(r -> r.violations != null);
        out.println("| benchmark | work | peer | score ± error | median of forks | min–max of forks | forks |"
                + (violations ? " order violations |" : ""));
        out.println("|---|---|---|---:|---:|---:|---:|" + (violations ? "---:|" : ""));
        for (Result r : results) {
            List<Double> sorted = r.forkMeans.stream().sorted().toList();
            double median = sorted.isEmpty() ? Double.NaN
                    : sorted.size() % 2 == 1 ? sorted.get(sorted.size() / 2)
                    : (sorted.get(sorted.size() / 2 - 1) + sorted.get(sorted.size() / 2)) / 2;
            String spread = sorted.isEmpty() ? "" : fmt(sorted.get(0)) + "–" + fmt(sorted.get(sorted.size() - 1));
            out.println("| " + r.method + " | " + r.work + " | " + r.peer + " | " + fmt(r.score)
                    + (Double.isNaN(r.error) ? "" : " ± " + fmt(r.error)) + " " + r.unit + " | " + fmt(median) + " | "
                    + spread + " | " + sorted.size() + " |"
                    + (violations ? " " + (r.violations == null ? "" : String.format(Locale.ROOT, "%.0f", r.violations)) + " |" : ""));
        }
    }

    private static String fmt(double v) {
        return Double.isNaN(v) ? "n/a" : String.format(Locale.ROOT, "%,.0f", v);
    }
}
