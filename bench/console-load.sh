#!/usr/bin/env bash
# Measures the operator console's cost on the server (docs/behaviour.md §18): the CPU time of an idle
# gateway (the real jar: console channel, echo agent, no traffic) over a window with no console open
# (the baseline), then over the same window with ten consoles streaming GET /events (curl), and the
# page weight of a first load. Prints one small table; about 2.5 minutes.
#   bench/console-load.sh [window-seconds]      (default 60; builds app/target/laneway.jar when missing)
# Linux only (reads /proc/<pid>/stat). Only 127.0.0.1 is used. Run it when nothing else loads the
# machine; it takes the build lock so no build competes for the cores.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
window="${1:-60}"
consoles=10
. scripts/find-jdk.sh
laneway_find_jdk
[ -f app/target/laneway.jar ] || scripts/mvn -q -pl app -am package -DskipTests
work="$(mktemp -d)"
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  [ -n "${gw:-}" ] && kill "$gw" 2>/dev/null || true
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
port=$(( 20000 + RANDOM % 20000 ))
cat > "$work/laneway.yaml" <<YAML
gateway:
  dataDir: $work/data
  http: { bind: 127.0.0.1, port: $port }
agents:
  list:
    assistant: { provider: echo }
YAML
mkfifo "$work/stdin"
exec 3<>"$work/stdin"   # keeps the console channel's input open and silent
# hold the build lock while measuring (waits for a build in flight)
exec 4>/tmp/laneway-maven.lock
flock 4
"$JAVA_HOME/bin/java" -jar app/target/laneway.jar run --config "$work/laneway.yaml" <"$work/stdin" >"$work/out" 2>"$work/err" &
gw=$!
for _ in $(seq 1 100); do
  curl -fs "http://127.0.0.1:$port/readyz" >/dev/null 2>&1 && break
  sleep 0.2
done
curl -fs "http://127.0.0.1:$port/readyz" >/dev/null || { echo "the gateway did not start:" >&2; cat "$work/err" >&2; exit 1; }
ticks() { awk '{print $14 + $15}' "/proc/$gw/stat"; }
hz=$(getconf CLK_TCK)
sleep 10   # start-up's JIT settles
t0=$(ticks); sleep "$window"; t1=$(ticks)
for i in $(seq 1 "$consoles"); do
  curl -sN "http://127.0.0.1:$port/events" >"$work/events.$i" &
  pids+=($!)
done
sleep 5
t2=$(ticks); sleep "$window"; t3=$(ticks)
for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
idle=$(( t1 - t0 )); watched=$(( t3 - t2 ))
snapshots=$(grep -c '^event: snapshot' "$work/events.1" || true)
bytes=$(wc -c <"$work/events.1")
weight=0
for asset in / /console.js /console.css; do
  weight=$(( weight + $(curl -fs "http://127.0.0.1:$port$asset" | wc -c) ))
done
awk -v idle="$idle" -v watched="$watched" -v hz="$hz" -v w="$window" -v n="$consoles" -v snaps="$snapshots" \
    -v bytes="$bytes" -v weight="$weight" 'BEGIN {
  printf "| measure | value |\n|---|---|\n"
  printf "| page weight, first load (index.html + console.js + console.css, uncompressed) | %d bytes |\n", weight
  printf "| gateway CPU, idle, no console (baseline) | %.3f s in %d s (%.2f %% of a core) |\n", idle / hz, w, 100 * idle / hz / w
  printf "| gateway CPU, idle, %d consoles open | %.3f s in %d s (%.2f %% of a core) |\n", n, watched / hz, w, 100 * watched / hz / w
  printf "| ratio (consoles / baseline) | %.1f x (%+.2f %% of a core) |\n", (idle > 0 ? watched / idle : 0), 100 * (watched - idle) / hz / w
  printf "| one console received | %d snapshots, %d bytes (%.1f kB/s) |\n", snaps, bytes, bytes / 1024 / (w + 5)
}'
