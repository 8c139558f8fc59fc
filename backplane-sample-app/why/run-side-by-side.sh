#!/usr/bin/env bash
# The side-by-side comparison of docs/why.md: the sample's order desk in each mode (backplane,
# baseline = plain Spring @Async, baseline-virtual = the same on virtual threads, JDK 21+ only)
# under the same load from a separate process for the same time, without a CPU quota and in a
# 1-core cgroup quota (root only; elsewhere that half is left out, and the output says why).
# Regenerates docs/why/side-by-side.svg, docs/why/side-by-side.md and the table in docs/why.md.
#
# Usage: backplane-sample-app/why/run-side-by-side.sh [duration] [warm-up] [--name=value ...]
#   duration  recorded load per run (default 30s); warm-up before it (default 15s)
#   options   passed to io.appbackplane.sample.SideBySide: --quota=0 (no cgroup half),
#             --modes=backplane,baseline, --every=2s, --note="a line above the table"
# The java of JAVA_HOME (or on the PATH) runs everything; use a JDK 21+ to include baseline-virtual.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
duration="30s"
warmup="15s"
if [ $# -gt 0 ] && [[ "$1" != --* ]]; then duration="$1"; shift; fi
if [ $# -gt 0 ] && [[ "$1" != --* ]]; then warmup="$1"; shift; fi

cd "$root"
classpath_file="$root/backplane-sample-app/target/side-by-side.classpath"
# The sample jar and the test classes (the runner lives there, next to the helpers it shares with
# the tests), and their class path; a reactor build, so the modules come from this checkout.
./mvnw -q -pl backplane-sample-app -am package dependency:build-classpath -DskipTests \
  -Dmdep.includeScope=test -Dmdep.outputFile="$classpath_file"

cd "$root/backplane-sample-app"
jar="$(ls target/backplane-sample-app-*.jar | grep -v -e '-tests\.jar$' -e '-sources\.jar$' | head -n 1)"
java="${JAVA_HOME:+$JAVA_HOME/bin/}java"
exec "$java" -cp "target/test-classes:target/classes:$(cat "$classpath_file")" -Dsample.jar="$jar" \
  io.appbackplane.sample.SideBySide --duration="$duration" --warmup="$warmup" \
  --out="$root/docs/why" --doc="$root/docs/why.md" "$@"
