#!/usr/bin/env bash
# The results run behind docs/benchmarks.md: every workload with its peers, then the charts and
# tables. Takes about 80 minutes on 2 cores; run it on an otherwise idle machine.
#
#   ./mvnw -pl backplane-benchmarks -am package -DskipTests
#   JAVA=/path/to/jdk-21+/bin/java backplane-benchmarks/run-results.sh
#
# Writes the JMH JSON (and W3's latency lines, and each W1/W2 fork's mode) to docs/benchmarks/raw/, one chart per workload to
# docs/benchmarks/W<n>.png and the Markdown tables to docs/benchmarks/tables.md; W3 run again
# with ZGC goes to docs/benchmarks/raw/zgc/ and docs/benchmarks/zgc/, and W2 in the outside
# harness's flat shape (one priority, a window of 8,192, no CPU limit) to raw/w2-flat/ and w2-flat/,
# and W7 (run-w7.sh) to raw/w7/ and w7/. JDK 21 or newer
# includes the virtual-thread peer (on 17-20 its trials fail at set-up and the run goes on).
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
java="${JAVA:-java}"
jar="${BENCH_JAR:-$root/backplane-benchmarks/target/benchmarks.jar}"
out="$root/docs/benchmarks"
raw="$out/raw"
# 5 forks of 3 × 1 s warm-up and 5 × 1 s measurement: issue 14's targets are medians over at
# least 5 forks, and on 2 cores a fork can stay in a slow mode for its life (docs/benchmarks.md).
common=(-f 5 -wi 3 -w 1s -i 5 -r 1s)

mkdir -p "$raw/zgc" "$out/zgc" "$raw/w2-flat" "$out/w2-flat"
rm -f "$raw"/*.json "$raw"/*.jsonl "$raw"/*.txt "$raw"/zgc/* "$raw"/w2-flat/*
touch "$raw/fork-modes.jsonl" # the forks append to it; stays empty on one processor (no mode to record)
cd "$raw" # W3's forks append their latency lines to ./w3-latency.jsonl

# The machine's mode before each workload (docs/benchmarks.md, Method), one line each.
log_mode() {
  echo "$(date -u +%FT%TZ) before $1: $("$java" -cp "$jar" io.appbackplane.benchmarks.CoreToCore)" >> "$raw/core-to-core.txt"
}

bench() {
  local name="$1"
  shift
  echo "== $name: $*" >&2
  log_mode "$name"
  "$java" -jar "$jar" "$@" -rf json -rff "$raw/$name.json"
}

bench taskcost TaskCost -f 2 -wi 2 -w 1s -i 3 -r 1s
bench w1 W1UnorderedThroughput "${common[@]}"
bench w2 W2OrderedThroughput.producers1 "${common[@]}"
bench w3 W3UrgentLatency "${common[@]}"
# W3 again with ZGC. With G1 (the default) a young-collection pause of several milliseconds
# (-Xlog:gc shows 2-8 ms on 2 cores) sets every peer's worst urgent latency; a service with a 1 ms
# latency target would run a low-pause collector. Same peers and options, its own files.
echo "== w3 with ZGC" >&2
log_mode w3-zgc
"$java" -Dbench.latencyFile="$raw/zgc/w3-latency.jsonl" -jar "$jar" W3UrgentLatency "${common[@]}" \
  -jvmArgsAppend "-Xms2g -Xmx2g -XX:+UseZGC" -rf json -rff "$raw/zgc/w3.json"
# W2 again in the shape of an outside peer harness (W2OrderedThroughput's javadoc): every task at
# priority 6, 8,192 tasks in flight, AppBackplane with no CPU limit. Its own files, so that its rows
# are not mixed with the default shape's.
echo "== w2 in the flat shape" >&2
log_mode w2-flat
touch "$raw/w2-flat/fork-modes.jsonl"
"$java" -Dbench.modeFile="$raw/w2-flat/fork-modes.jsonl" -jar "$jar" W2OrderedThroughput.producers1 -p shape=flat -p peer=appbackplane,striped,pekko-t5 "${common[@]}" \
  -rf json -rff "$raw/w2-flat/w2.json"
bench w4 W4MemoryPerConversation -f 3
# W5 measures the process's CPU: two warm-up iterations, as the JIT compiler is still busy after one
# on a slow machine (its work counts against the limit in the process's CPU, not in the workers').
bench w5 W5CpuLimitAccuracy -f 3 -wi 2 -i 3
# W6: W1 and W2 again with 1 and 4 workers (2 workers come from the runs above).
bench w6-w1 W1UnorderedThroughput.producers1 -p peer=appbackplane,forkjoin,striped,pekko-t5 -p work=tiny -p workers=1,4 \
  "${common[@]}"
bench w6-w2 W2OrderedThroughput.producers1 -p peer=appbackplane,striped,pekko-t5 -p work=tiny -p workers=1,4 "${common[@]}"

# The JSON names the java binary and the latency file by their paths on this machine; the page
# is for any machine, so keep only what they are (the JDK's version stays in "jdkVersion").
sed -i -e 's#"jvm" : "[^"]*"#"jvm" : "java"#' -e "s#-Dbench.latencyFile=$raw/#-Dbench.latencyFile=#" \
  -e "s#-Dbench.modeFile=$raw/#-Dbench.modeFile=#" \
  "$raw"/*.json "$raw"/zgc/*.json "$raw"/w2-flat/*.json

"$java" -cp "$jar" io.appbackplane.benchmarks.report.JmhReport "$out" "$raw"/*.json "$raw/w3-latency.jsonl" "$raw/fork-modes.jsonl" \
  > "$out/tables.md"
"$java" -cp "$jar" io.appbackplane.benchmarks.report.JmhReport "$out/zgc" "$raw/zgc/w3.json" "$raw/zgc/w3-latency.jsonl" \
  > "$out/zgc/tables.md"
"$java" -cp "$jar" io.appbackplane.benchmarks.report.JmhReport "$out/w2-flat" "$raw/w2-flat/w2.json" "$raw/w2-flat/fork-modes.jsonl" \
  > "$out/w2-flat/tables.md"
# W7 on its own (its own files, as the script can be run alone).
JAVA="$java" BENCH_JAR="$jar" "$root/backplane-benchmarks/run-w7.sh"
echo "charts in $out, tables in $out/tables.md" >&2
