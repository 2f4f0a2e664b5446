#!/usr/bin/env bash
# Builds the benchmark jar and runs every benchmark plus the start-up restore and heap measurements
# and the scheduling simulation, printing one table (also written to bench/target/results.md). About
# 7 minutes on a 2-core machine, plus the build; the table's "Run time" line gives the time the run itself took.
#   bench/run.sh            everything
#   bench/run.sh --quick    1 warmup + 2 measurement iterations, 2 restarts, heap at 100,000 sessions only
#                           (about 2 minutes; its numbers are for checking that things run, not to quote)
# Other arguments go to the runner: --only REGEX, --no-heap, --no-jmh, --no-restore, --no-sim, --restore-items N,
# --heap-sessions N,M, --out FILE. The SQLite benchmarks write to java.io.tmpdir (set it with
# JAVA_TOOL_OPTIONS=-Djava.io.tmpdir=DIR to measure another disk; a tmpfs measures no fsync).
# The scheduling simulation alone (virtual time, about a second, after the build):
#   java -cp bench/target/benchmarks.jar dev.laneway.bench.SchedulingSimulation [--replications N] [--seed S]
#        [--flood-factor X] [--out FILE]
# The run holds the build lock, so no other build on this machine competes for the cores.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
. scripts/find-jdk.sh
laneway_find_jdk
scripts/mvn -q -Pbench -pl bench -am package -DskipTests
java_args=(-Xmx6g --enable-native-access=ALL-UNNAMED)   # the restore measurement loads sqlite-jdbc's native library
if [ "$(laneway_jdk_version "$JAVA_HOME")" -ge 23 ]; then
  java_args+=(--sun-misc-unsafe-memory-access=allow)   # JMH uses sun.misc.Unsafe; silence the JDK 23+ warning
fi
exec flock /tmp/laneway-mvn.lock "$JAVA_HOME/bin/java" "${java_args[@]}" -jar bench/target/benchmarks.jar \
  --out bench/target/results.md "$@"
