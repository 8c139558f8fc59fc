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
import java.util.function.ToDoubleFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.CategoryAxis;
import org.jfree.chart.axis.CategoryLabelPositions;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.CombinedDomainCategoryPlot;
import org.jfree.chart.plot.ValueMarker;
import org.jfree.chart.renderer.category.BarRenderer;
import org.jfree.chart.renderer.category.LineAndShapeRenderer;
import org.jfree.chart.renderer.category.StandardBarPainter;
import org.jfree.chart.renderer.category.StatisticalBarRenderer;
import org.jfree.chart.title.TextTitle;
import org.jfree.chart.ui.RectangleAnchor;
import org.jfree.chart.ui.TextAnchor;
import org.jfree.data.category.DefaultCategoryDataset;
import org.jfree.data.statistics.DefaultStatisticalCategoryDataset;

/**
 * Turns a JMH JSON result file into one PNG chart per workload ({@code W1.png}, {@code W2.png},
 * ...) and prints a Markdown table per workload to standard output.
 *
 * <pre>
 * java -cp backplane-benchmarks/target/benchmarks.jar io.appbackplane.benchmarks.report.JmhReport \
 *     docs/benchmarks jmh-result.json [more.json ...] [w3-latency.jsonl ...] [fork-modes.jsonl]
 * </pre>
 *
 * <p>Throughput workloads (W1, W2, and W3's bulk score): a chart has one panel per benchmark method
 * and work size (each with its own scale) and one bar per peer: the JMH score (mean over all
 * measurement iterations of all forks), with the JMH 99.9% confidence half-width as the whisker
 * when there is one. The table also gives the median and the spread (min-max) of the per-fork
 * means, and the order violations where counted.
 *
 * <p>A file named {@code fork-modes.jsonl} is read as the W1 and W2 forks' modes ({@link
 * ForkModes}), and a table then puts each fork's score beside the mode it started in.
 *
 * <p>Other files named {@code *.jsonl} are read as W3's urgent-latency lines (one per fork, written by
 * {@code W3UrgentLatency}); W3's table and chart then also show, per peer, the median over forks of
 * p50, p99, p99.9 and max, with min-max over forks.
 *
 * <p>W4 and W5 report per-iteration secondary metrics ({@code @AuxCounters}), whose JMH "score" is
 * a sum over iterations; the report uses the JSON's {@code rawData} instead. A fork's value is the
 * median of its measurement iterations (for W5's longest pause: the longest of them), and the tables
 * give the median and min-max of those per-fork values: W4 bytes per waiting conversation and
 * threads per peer; W5 cores used, error against the limit and longest pause, per limit.
 */
public final class JmhReport {

    static final Pattern WORKLOAD = Pattern.compile("\\.(W\\d+)[A-Za-z0-9]*\\.([A-Za-z0-9_]+)$");

    private JmhReport() {}

    public static void main(String[] args) throws IOException {
        if (args.length < 2) {
            System.err.println("usage: JmhReport <output-directory> <jmh-result.json>...");
            System.exit(2);
        }
        System.setProperty("java.awt.headless", "true");
        Path out = Path.of(args[0]);
        List<Result> results = new ArrayList<>();
        List<Latency> latencies = new ArrayList<>();
        ForkModes modes = null;
        for (int i = 1; i < args.length; i++) {
            Path file = Path.of(args[i]);
            if (file.getFileName().toString().endsWith("fork-modes.jsonl")) {
                modes = ForkModes.read(file);
            } else if (file.getFileName().toString().endsWith(".jsonl")) {
                latencies.addAll(readLatencies(file));
            } else {
                results.addAll(read(file));
            }
        }
        Files.createDirectories(out);
        Map<String, List<Result>> byWorkload = new TreeMap<>();
        Set<String> scaled = scaledSeries(results);
        for (Result r : results) {
            if (scaled.contains(r.series())) {
                byWorkload.computeIfAbsent("W6", w -> new ArrayList<>()).add(r);
            }
            if (r.workers() == DEFAULT_WORKERS) {
                byWorkload.computeIfAbsent(r.workload, w -> new ArrayList<>()).add(r);
            }
        }
        if (byWorkload.isEmpty()) {
            throw new IllegalArgumentException("no W<n> benchmark results in " + List.of(args).subList(1, args.length));
        }
        PrintStream stdout = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        for (Map.Entry<String, List<Result>> e : byWorkload.entrySet()) {
            sort(e.getValue());
            Path png = out.resolve(e.getKey() + ".png");
            stdout.println("### " + e.getKey() + " (" + png.getFileName() + ")");
            stdout.println();
            switch (e.getKey()) {
                case "W3" -> {
                    List<Result> byPeer = e.getValue();
                    chartW3(byPeer, latencies, png);
                    table(byPeer, stdout);
                    stdout.println();
                    latencyTable(byPeer, latencies, stdout);
                }
                case "W4" -> {
                    chartW4(e.getValue(), png);
                    footprintTable(e.getValue(), stdout);
                }
                case "W5" -> {
                    chartW5(e.getValue(), png);
                    accuracyTable(e.getValue(), stdout);
                }
                case "W6" -> {
                    chartW6(e.getValue(), png);
                    scalingTable(e.getValue(), stdout);
                }
                case "W7" -> {
                    W7Report.chart(e.getValue(), png);
                    W7Report.table(e.getValue(), stdout);
                }
                default -> {
                    chart(e.getKey(), e.getValue(), png);
                    table(e.getValue(), stdout);
                }
            }
            stdout.println();
        }
        if (modes != null) {
            List<Result> throughput = new ArrayList<>(results.stream()
                    .filter(r -> r.workload.equals("W1") || r.workload.equals("W2")).toList());
            throughput.sort(Comparator.comparing(Result::workload).thenComparing(Result::method)
                    .thenComparing(Result::work, Comparator.reverseOrder()).thenComparingInt(Result::workers)
                    .thenComparingInt(r -> peerOrder(r.peer)));
            stdout.println("### Forks by mode (W1, W2 and W6; fast: round trip under " + ForkModes.SLOW_FROM_NANOS + " ns)");
            stdout.println();
            modes.table(throughput, stdout);
            stdout.println();
        }
    }

    /** One benchmark result: a method with one set of parameters. */
    record Result(String workload, String method, String peer, String work, int threads, String unit, double score,
            double error, List<Double> forkMeans, Double violations, Map<String, String> params,
            Map<String, List<List<Double>>> secondary) {

        String panel() {
            return method + ", " + work;
        }

        /** The worker threads the peer had ({@code workers} parameter; the workloads' default when absent). */
        int workers() {
            return Integer.parseInt(params.getOrDefault("workers", String.valueOf(DEFAULT_WORKERS)));
        }

        /** The result's identity apart from its worker count: one line of the W6 chart. */
        String series() {
            return workload + "." + method + "/" + work + "/" + peer;
        }

        /** A secondary metric's per-iteration values, one list per fork (empty if absent). */
        List<List<Double>> raw(String metric) {
            return secondary.getOrDefault(metric, List.of());
        }
    }

    /** One fork's W3 urgent-latency percentiles, in microseconds. */
    record Latency(String peer, int workers, double p50, double p99, double p999, double max, long count) {}

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
            Map<String, List<List<Double>>> raw = new TreeMap<>();
            for (Map.Entry<String, Object> metric : secondary.entrySet()) {
                List<List<Double>> forks = new ArrayList<>();
                Object data = ((Map<String, Object>) metric.getValue()).get("rawData");
                if (data instanceof List<?> list) {
                    for (Object fork : list) {
                        forks.add(((List<Object>) fork).stream().map(JmhReport::number).toList());
                    }
                }
                raw.put(metric.getKey(), forks);
            }
            Map<String, String> parameters = new TreeMap<>();
            params.forEach((k, v) -> parameters.put(k, String.valueOf(v)));
            results.add(new Result(m.group(1), m.group(2), String.valueOf(params.getOrDefault("peer", "appbackplane")),
                    // W3 has no work parameter: its scored (bulk) tasks are always 5us
                    String.valueOf(params.getOrDefault("work", "5us")), ((Double) run.get("threads")).intValue(),
                    (String) primary.get("scoreUnit"), number(primary.get("score")), number(primary.get("scoreError")),
                    forkMeans, violations == null ? null : number(violations.get("score")), parameters, raw));
        }
        return results;
    }

    /** W3's latency lines: one JSON object per line, one line per fork. */
    @SuppressWarnings("unchecked")
    static List<Latency> readLatencies(Path file) throws IOException {
        List<Latency> latencies = new ArrayList<>();
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            if (line.isBlank()) {
                continue;
            }
            Map<String, Object> l = (Map<String, Object>) Json.parse(line);
            latencies.add(new Latency(String.valueOf(l.get("peer")), ((Double) l.get("workers")).intValue(),
                    number(l.get("p50Us")), number(l.get("p99Us")), number(l.get("p999Us")), number(l.get("maxUs")),
                    ((Double) l.get("count")).longValue()));
        }
        return latencies;
    }

    /** The workloads' worker count; W1/W2 results with another count are W6's scaling runs. */
    static final int DEFAULT_WORKERS = 2;

    /**
     * W6 (scaling) is W1 and W2 run with {@code -p workers=1,2,4}: every W1/W2 series (method,
     * work, peer) that has a result with a worker count other than {@link #DEFAULT_WORKERS}
     * belongs to W6, with all its worker counts; only the default count appears under W1/W2.
     */
    static Set<String> scaledSeries(List<Result> results) {
        Set<String> scaled = new HashSet<>();
        Set<String> withDefault = new HashSet<>();
        for (Result r : results) {
            if (r.workload.equals("W1") || r.workload.equals("W2")) {
                (r.workers() == DEFAULT_WORKERS ? withDefault : scaled).add(r.series());
            }
        }
        // Only series measured at the default count too (a W2 run of a peer that does not order per
        // key, such as forkjoin, has no W2 result at 2 workers and is not a W2 result at all).
        scaled.retainAll(withDefault);
        return scaled;
    }

    /** W6: per workload method and work size, the median over forks per peer against the worker count. */
    static void chartW6(List<Result> results, Path png) throws IOException {
        Map<String, DefaultCategoryDataset> panels = new LinkedHashMap<>();
        List<Result> ordered = new ArrayList<>(results);
        ordered.sort(Comparator.comparing((Result r) -> r.workload).thenComparing(Result::method)
                .thenComparing(Result::work, Comparator.reverseOrder()).thenComparingInt(r -> peerOrder(r.peer))
                .thenComparingInt(Result::workers));
        for (Result r : ordered) {
            panels.computeIfAbsent(r.workload + " " + r.panel(), p -> new DefaultCategoryDataset())
                    .addValue(Spread.of(r.forkMeans).median(), r.peer, Integer.valueOf(r.workers()));
        }
        CombinedDomainCategoryPlot plot = new CombinedDomainCategoryPlot(new CategoryAxis("worker threads"));
        plot.setGap(12);
        for (Map.Entry<String, DefaultCategoryDataset> panel : panels.entrySet()) {
            LineAndShapeRenderer renderer = new LineAndShapeRenderer(true, true);
            CategoryPlot sub = new CategoryPlot(panel.getValue(), null, new NumberAxis(panel.getKey() + " (ops/s)"), renderer);
            sub.setBackgroundPaint(Color.WHITE);
            sub.setRangeGridlinePaint(Color.LIGHT_GRAY);
            plot.add(sub, 1);
        }
        JFreeChart chart = new JFreeChart("W6: throughput by worker threads", JFreeChart.DEFAULT_TITLE_FONT, plot, true);
        chart.addSubtitle(new TextTitle("point: median of the per-fork means"));
        chart.setBackgroundPaint(Color.WHITE);
        ChartUtils.saveChartAsPNG(png.toFile(), chart, 900, 300 * panels.size() + 200);
    }

    static void scalingTable(List<Result> results, PrintStream out) {
        List<Result> ordered = new ArrayList<>(results);
        ordered.sort(Comparator.comparing((Result r) -> r.workload).thenComparing(Result::method)
                .thenComparing(Result::work, Comparator.reverseOrder()).thenComparingInt(r -> peerOrder(r.peer))
                .thenComparingInt(Result::workers));
        out.println("| benchmark | work | peer | workers | median of forks (ops/s) | min–max of forks | forks |");
        out.println("|---|---|---|---:|---:|---:|---:|");
        for (Result r : ordered) {
            Spread s = Spread.of(r.forkMeans);
            out.println("| " + r.workload + "." + r.method + " | " + r.work + " | " + r.peer + " | " + r.workers() + " | "
                    + fmt(s.median()) + " | " + fmt(s.min()) + "–" + fmt(s.max()) + " | " + s.forks() + " |");
        }
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

    /** Median and spread of per-fork values. */
    record Spread(double median, double min, double max, int forks) {

        static Spread of(List<Double> values) {
            List<Double> sorted = values.stream().filter(v -> !Double.isNaN(v)).sorted().toList();
            if (sorted.isEmpty()) {
                return new Spread(Double.NaN, Double.NaN, Double.NaN, 0);
            }
            return new Spread(medianOf(sorted), sorted.get(0), sorted.get(sorted.size() - 1), sorted.size());
        }

        /** {@code median (min–max)} with {@code pattern} for each number. */
        String format(String pattern) {
            if (forks == 0) {
                return "n/a";
            }
            String m = String.format(Locale.ROOT, pattern, median);
            return forks == 1 ? m : m + " (" + String.format(Locale.ROOT, pattern, min) + "–"
                    + String.format(Locale.ROOT, pattern, max) + ")";
        }
    }

    private static double medianOf(List<Double> sorted) {
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    /** Per-fork values of a secondary metric: the median (or, with {@code longest}, the max) of each fork's iterations. */
    static Spread perFork(Result r, String metric, boolean longest) {
        List<Double> forks = new ArrayList<>();
        for (List<Double> iterations : r.raw(metric)) {
            List<Double> sorted = iterations.stream().filter(v -> !Double.isNaN(v)).sorted().toList();
            if (!sorted.isEmpty()) {
                forks.add(longest ? sorted.get(sorted.size() - 1) : medianOf(sorted));
            }
        }
        return Spread.of(forks);
    }

    /** W3's latency by peer, in the order of the throughput results (peers without results last). */
    private static Map<String, List<Latency>> latenciesByPeer(List<Result> results, List<Latency> latencies) {
        Map<String, List<Latency>> byPeer = new LinkedHashMap<>();
        for (Result r : results) {
            byPeer.put(r.peer, new ArrayList<>());
        }
        List<Latency> sorted = new ArrayList<>(latencies);
        sorted.sort(Comparator.comparingInt(l -> peerOrder(l.peer)));
        for (Latency l : sorted) {
            byPeer.computeIfAbsent(l.peer, p -> new ArrayList<>()).add(l);
        }
        return byPeer;
    }

    static void latencyTable(List<Result> results, List<Latency> latencies, PrintStream out) {
        if (latencies.isEmpty()) {
            out.println("(no W3 latency lines: pass the w3-latency.jsonl file(s) the forks wrote)");
            return;
        }
        out.println("| peer | urgent p50 (µs) | p99 (µs) | p99.9 (µs) | max (µs) | urgent tasks per fork | forks |");
        out.println("|---|---:|---:|---:|---:|---:|---:|");
        for (Map.Entry<String, List<Latency>> e : latenciesByPeer(results, latencies).entrySet()) {
            List<Latency> forks = e.getValue();
            if (forks.isEmpty()) {
                continue;
            }
            out.println("| " + e.getKey() + " | " + spread(forks, Latency::p50).format("%,.0f") + " | "
                    + spread(forks, Latency::p99).format("%,.0f") + " | " + spread(forks, Latency::p999).format("%,.0f")
                    + " | " + spread(forks, Latency::max).format("%,.0f") + " | "
                    + spread(forks, l -> (double) l.count).format("%,.0f") + " | " + forks.size() + " |");
        }
    }

    private static Spread spread(List<Latency> forks, ToDoubleFunction<Latency> value) {
        return Spread.of(forks.stream().map(l -> value.applyAsDouble(l)).toList());
    }

    static void chartW3(List<Result> results, List<Latency> latencies, Path png) throws IOException {
        CategoryAxis peers = new CategoryAxis("peer");
        peers.setCategoryLabelPositions(CategoryLabelPositions.UP_45);
        CombinedDomainCategoryPlot plot = new CombinedDomainCategoryPlot(peers);
        plot.setGap(12);
        DefaultStatisticalCategoryDataset bulk = new DefaultStatisticalCategoryDataset();
        for (Result r : results) {
            bulk.add(r.score, Double.isNaN(r.error) ? 0 : r.error, "score", r.peer);
        }
        plot.add(statisticalPanel(bulk, "bulk " + results.get(0).work + " tasks (" + results.get(0).unit + ")"), 1);
        if (!latencies.isEmpty()) {
            DefaultCategoryDataset urgent = new DefaultCategoryDataset();
            for (Map.Entry<String, List<Latency>> e : latenciesByPeer(results, latencies).entrySet()) {
                List<Latency> forks = e.getValue();
                if (forks.isEmpty()) {
                    continue;
                }
                urgent.addValue(Math.max(0.1, spread(forks, Latency::p50).median), "p50", e.getKey());
                urgent.addValue(Math.max(0.1, spread(forks, Latency::p99).median), "p99", e.getKey());
                urgent.addValue(Math.max(0.1, spread(forks, Latency::max).median), "max", e.getKey());
            }
            LogAxis axis = new LogAxis("urgent submit-to-start (µs, log)");
            axis.setStandardTickUnits(NumberAxis.createStandardTickUnits());
            LineAndShapeRenderer dots = new LineAndShapeRenderer(false, true);
            dots.setSeriesPaint(0, new Color(0x3b6ea5));
            dots.setSeriesPaint(1, new Color(0xd08c2f));
            dots.setSeriesPaint(2, new Color(0xb03a2e));
            dots.setDefaultSeriesVisibleInLegend(true);
            CategoryPlot sub = new CategoryPlot(urgent, null, axis, dots);
            sub.setBackgroundPaint(Color.WHITE);
            sub.setRangeGridlinePaint(Color.LIGHT_GRAY);
            plot.add(sub, 1);
        }
        JFreeChart chart = new JFreeChart("W3: bulk throughput and urgent latency under overload",
                JFreeChart.DEFAULT_TITLE_FONT, plot, !latencies.isEmpty());
        chart.addSubtitle(new TextTitle("top: JMH score (mean of all iterations), whisker 99.9% CI half-width;"
                + " bottom: median over forks of each fork's percentile"));
        chart.setBackgroundPaint(Color.WHITE);
        ChartUtils.saveChartAsPNG(png.toFile(), chart, 900, 260 * (latencies.isEmpty() ? 1 : 2) + 200);
    }

    private static CategoryPlot statisticalPanel(DefaultStatisticalCategoryDataset data, String label) {
        StatisticalBarRenderer renderer = new StatisticalBarRenderer();
        renderer.setSeriesPaint(0, new Color(0x3b6ea5));
        renderer.setErrorIndicatorPaint(Color.BLACK);
        renderer.setShadowVisible(false);
        renderer.setDrawBarOutline(false);
        renderer.setSeriesVisibleInLegend(0, false);
        CategoryPlot sub = new CategoryPlot(data, null, new NumberAxis(label), renderer);
        sub.setBackgroundPaint(Color.WHITE);
        sub.setRangeGridlinePaint(Color.LIGHT_GRAY);
        return sub;
    }

    private static CategoryPlot barPanel(DefaultCategoryDataset data, String label, Color... colors) {
        BarRenderer renderer = new BarRenderer();
        for (int i = 0; i < colors.length; i++) {
            renderer.setSeriesPaint(i, colors[i]);
        }
        renderer.setBarPainter(new StandardBarPainter());
        renderer.setShadowVisible(false);
        renderer.setDrawBarOutline(false);
        renderer.setItemMargin(0.05);
        CategoryPlot sub = new CategoryPlot(data, null, new NumberAxis(label), renderer);
        sub.setBackgroundPaint(Color.WHITE);
        sub.setRangeGridlinePaint(Color.LIGHT_GRAY);
        return sub;
    }

    static void footprintTable(List<Result> results, PrintStream out) {
        out.println("| peer | bytes per waiting conversation | platform threads added | resume of all (ms) | forks | iterations per fork |");
        out.println("|---|---:|---:|---:|---:|---:|");
        for (Result r : results) {
            Spread bytes = perFork(r, "bytesPerConversation", false);
            out.println("| " + r.peer + " | " + bytes.format("%,.0f") + " | "
                    + perFork(r, "threads", false).format("%.0f") + " | "
                    + perFork(r, "resumeMillis", false).format("%,.0f") + " | " + bytes.forks + " | "
                    + r.raw("bytesPerConversation").stream().mapToInt(List::size).max().orElse(0) + " |");
        }
    }

    static void chartW4(List<Result> results, Path png) throws IOException {
        DefaultCategoryDataset bytes = new DefaultCategoryDataset();
        DefaultCategoryDataset threads = new DefaultCategoryDataset();
        for (Result r : results) {
            bytes.addValue(perFork(r, "bytesPerConversation", false).median, "bytes", r.peer);
            threads.addValue(perFork(r, "threads", false).median, "threads", r.peer);
        }
        CategoryAxis peers = new CategoryAxis("peer");
        CombinedDomainCategoryPlot plot = new CombinedDomainCategoryPlot(peers);
        plot.setGap(12);
        plot.add(barPanel(bytes, "heap bytes per waiting conversation", new Color(0x3b6ea5)), 2);
        plot.add(barPanel(threads, "platform threads added", new Color(0x6a8f3b)), 1);
        JFreeChart chart = new JFreeChart("W4: memory and threads per waiting conversation",
                JFreeChart.DEFAULT_TITLE_FONT, plot, false);
        chart.addSubtitle(new TextTitle("bar: median over forks (each fork: median of its iterations); min–max in the table"));
        chart.setBackgroundPaint(Color.WHITE);
        ChartUtils.saveChartAsPNG(png.toFile(), chart, 700, 620);
    }

    /** W5's results in ascending order of the limit. */
    private static List<Result> byLimit(List<Result> results) {
        return results.stream().sorted(Comparator.comparingDouble(r -> limit(r))).toList();
    }

    private static double limit(Result r) {
        try {
            return Double.parseDouble(r.params.getOrDefault("limit", "NaN"));
        } catch (NumberFormatException e) {
            return Double.NaN;
        }
    }

    static void accuracyTable(List<Result> results, PrintStream out) {
        out.println("| limit (cores) | process cores used | error (% of limit) | worker threads' cores | longest pause (ms) | actions/s | forks |");
        out.println("|---:|---:|---:|---:|---:|---:|---:|");
        for (Result r : byLimit(results)) {
            Spread used = perFork(r, "coresUsed", false);
            out.println("| " + r.params.getOrDefault("limit", "?") + " | " + used.format("%.3f") + " | "
                    + errorPercent(r).format("%+.1f") + " | " + perFork(r, "workerCores", false).format("%.3f") + " | "
                    + perFork(r, "longestPauseMs", true).format("%.1f") + " | " + Spread.of(r.forkMeans).format("%,.0f")
                    + " | " + used.forks + " |");
        }
    }

    /** W5's error against the limit, {@code percentOfLimit - 100}, per fork. */
    private static Spread errorPercent(Result r) {
        Spread p = perFork(r, "percentOfLimit", false);
        return new Spread(p.median - 100, p.min - 100, p.max - 100, p.forks);
    }

    static void chartW5(List<Result> results, Path png) throws IOException {
        DefaultCategoryDataset cores = new DefaultCategoryDataset();
        DefaultCategoryDataset pauses = new DefaultCategoryDataset();
        for (Result r : byLimit(results)) {
            String limit = r.params.getOrDefault("limit", "?");
            cores.addValue(limit(r), "limit", limit);
            cores.addValue(perFork(r, "coresUsed", false).median, "process CPU used", limit);
            pauses.addValue(perFork(r, "longestPauseMs", true).median, "longest pause", limit);
        }
        CombinedDomainCategoryPlot plot = new CombinedDomainCategoryPlot(new CategoryAxis("CPU limit (cores)"));
        plot.setGap(12);
        plot.add(barPanel(cores, "cores", new Color(0xb0b0b0), new Color(0x3b6ea5)), 1);
        CategoryPlot pause = barPanel(pauses, "longest pause in service (ms)", new Color(0xd08c2f));
        ValueMarker target = new ValueMarker(100);
        target.setPaint(Color.RED);
        target.setLabel("target: period / slices");
        target.setLabelAnchor(RectangleAnchor.TOP_RIGHT);
        target.setLabelTextAnchor(TextAnchor.BOTTOM_RIGHT);
        pause.addRangeMarker(target);
        pause.getRangeAxis().setUpperMargin(0.25);
        plot.add(pause, 1);
        JFreeChart chart = new JFreeChart("W5: CPU-limit accuracy (AppBackplane, 2 workers)",
                JFreeChart.DEFAULT_TITLE_FONT, plot, true);
        chart.addSubtitle(new TextTitle("median over forks (each fork: median of its iterations; pause: longest of"
                + " its iterations); min–max in the table"));
        chart.setBackgroundPaint(Color.WHITE);
        ChartUtils.saveChartAsPNG(png.toFile(), chart, 700, 640);
    }

    private static String fmt(double v) {
        return Double.isNaN(v) ? "n/a" : String.format(Locale.ROOT, "%,.0f", v);
    }
}
