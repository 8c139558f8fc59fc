#!/usr/bin/env bash
# W7 (a queue-wait target against fixed limits when capacity halves) on its own: run-results.sh
# calls it, and it can be run alone after a change to the queue-wait target. About 7 minutes on 2
# cores: 4 modes × 2 forks × (1 warm-up + 2 measured invocations) × 3 phases of 5 s; run it on an
# otherwise idle machine.
#
#   ./mvnw -pl backplane-benchmarks -am package -DskipTests
#   backplane-benchmarks/run-w7.sh
#
# Writes the JMH JSON to docs/benchmarks/raw/w7/w7.json, the chart to docs/benchmarks/w7/W7.png
# and the table to docs/benchmarks/w7/tables.md.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
java="${JAVA:-java}"
jar="${BENCH_JAR:-$root/backplane-benchmarks/target/benchmarks.jar}"
out="$root/docs/benchmarks/w7"
raw="$root/docs/benchmarks/raw/w7"
mkdir -p "$out" "$raw"
rm -f "$raw"/*.json

echo "== w7" >&2
"$java" -Dbench.w7PhaseSeconds=5 -jar "$jar" W7QueueWaitTarget -f 2 -wi 1 -i 2 -rf json -rff "$raw/w7.json"
# The JSON names the java binary by its path on this machine; the page is for any machine.
sed -i -e 's#"jvm" : "[^"]*"#"jvm" : "java"#' "$raw/w7.json"
"$java" -cp "$jar" io.appbackplane.benchmarks.report.JmhReport "$out" "$raw/w7.json" > "$out/tables.md"
echo "chart in $out/W7.png, table in $out/tables.md" >&2
