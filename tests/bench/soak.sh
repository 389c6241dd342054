#!/usr/bin/env bash
# Soak: drives `gatehouse --headless` at about half its measured capacity with a mix of the
# scenarios that exist, samples RSS and open file descriptors every 10 s, and fails if
# either keeps growing.
#   bash tests/bench/soak.sh 1800      # 30 minutes (default 300 s)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$here"
DURATION="${1:-300}"
BUILD_DIR="${BENCH_BUILD_DIR:-build-release}"
CONNS=64

# shellcheck source=scripts/packages.sh
source scripts/packages.sh
install_missing "${BUILD_PACKAGES[@]}" wrk curl
cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release -DGATEHOUSE_BUILD_TESTS=OFF -DGATEHOUSE_BUILD_CONSOLE=OFF >/dev/null
cmake --build "$BUILD_DIR" -j "$(nproc)" --target gatehouse >/dev/null

work="$(mktemp -d)"
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT

QT_LOGGING_RULES="gatehouse.access=false" "$BUILD_DIR/app/gatehouse" --headless --data-dir "$work/data" \
  --service-port 0 --cluster-port 0 --admin-port 0 >"$work/gatehouse.log" 2>&1 &
gh=$!; pids+=("$gh")
for _ in $(seq 1 100); do [ -f "$work/data/ports.json" ] && break; sleep 0.1; done
port() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$work/data/ports.json" "$1"; }
svc=$(port service); cluster=$(port cluster); admin=$(port admin)
# Assigned, then exported: `export X=$(…)` would hide a failing command from set -e.
GH_TOKEN="$(cat "$work/data/admin-token")"
export GH_TOKEN GH_CUSTOMER GH_CALLBACK GH_DELAY_MS
# Orders in the mix: a customer, and the built-in demo receiver as the callback (it verifies
# every signature); stock is topped up so orders keep reaching ALLOCATED.
GH_CUSTOMER=$(curl -fsS -X POST -H "Authorization: Bearer $GH_TOKEN" -H 'Content-Type: application/json' \
  -d '{"name":"soak"}' "http://127.0.0.1:$admin/admin/v1/customers" | python3 -c 'import json,sys; print(json.load(sys.stdin)["customer"]["id"])')
GH_CALLBACK="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["urls"]["demoReceiver"])' "$work/data/ports.json")/hooks/$GH_CUSTOMER"
beer=$(curl -fsS "http://127.0.0.1:$svc/v1/beers/upc/0631234200036" | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
curl -fsS -X POST -H "Authorization: Bearer $GH_TOKEN" -H 'Content-Type: application/json' \
  -d '{"quantity":100000}' "http://127.0.0.1:$admin/admin/v1/beers/$beer/restock" >/dev/null

echo "==> measuring capacity (mixed service traffic, 5 s, $CONNS connections)"
GH_DELAY_MS=0
cap=$(wrk -t1 -c$CONNS -d5s -s tests/bench/soak.lua "http://127.0.0.1:$svc" | awk '/Requests\/sec/ {print int($2)}')
target=$((cap / 2))
# wrk delays in whole milliseconds per connection and latency adds to it: calibrate twice.
GH_DELAY_MS=$(python3 -c "print($CONNS * 1000.0 / $target)")
for _ in 1 2; do
  got=$(wrk -t1 -c$CONNS -d3s -s tests/bench/soak.lua "http://127.0.0.1:$svc" | awk '/Requests\/sec/ {print $2}')
  GH_DELAY_MS=$(python3 -c "
c, d, r, t = $CONNS, $GH_DELAY_MS, max($got, 1.0), $target
lat = max(c * 1000.0 / r - d, 0.0)
print(max(c * 1000.0 / t - lat, 0.0))")
done
echo "    capacity ${cap} req/s -> target ${target} req/s (delay ${GH_DELAY_MS} ms per connection)"

wrk -t1 -c$CONNS -d"${DURATION}s" -s tests/bench/soak.lua "http://127.0.0.1:$svc" >"$work/wrk-service.txt" 2>&1 & pids+=("$!")
wrk -t1 -c2 -d"${DURATION}s" -s tests/bench/soak-admin.lua "http://127.0.0.1:$admin" >"$work/wrk-admin.txt" 2>&1 & pids+=("$!")
# TLS on the cluster listener: keep-alive plus a fresh handshake every second.
wrk -t1 -c2 -d"${DURATION}s" -s tests/bench/soak-admin.lua "https://127.0.0.1:$cluster/healthz" >"$work/wrk-cluster.txt" 2>&1 & pids+=("$!")
( end=$((SECONDS + DURATION)); while [ $SECONDS -lt $end ]; do
    curl -sk -o /dev/null "https://127.0.0.1:$cluster/healthz" || true; sleep 1; done ) & pids+=("$!")
# A live event-stream subscriber, reconnecting every 30 s like a console would.
( end=$((SECONDS + DURATION)); while [ $SECONDS -lt $end ]; do
    curl -s -N --max-time 30 -H "Authorization: Bearer $GH_TOKEN" "http://127.0.0.1:$admin/admin/v1/events" >/dev/null || true
  done ) & pids+=("$!")

samples="$work/samples.txt"
printf "| t (s) | RSS (KiB) | open fds |\n|---|---|---|\n"
t=0
while [ $t -le "$DURATION" ]; do
  rss=$(awk '/VmRSS/ {print $2}' "/proc/$gh/status")
  fds=$(ls "/proc/$gh/fd" | wc -l)
  echo "$t $rss $fds" >>"$samples"
  printf "| %s | %s | %s |\n" "$t" "$rss" "$fds"
  sleep 10; t=$((t + 10))
done
wait "${pids[1]}" 2>/dev/null || true
done_rate=$(awk '/Requests\/sec/ {print int($2)}' "$work/wrk-service.txt")
echo "service traffic: ${done_rate} req/s average over ${DURATION} s (capacity ${cap})"
grep -E "Non-2xx|Socket errors" "$work/wrk-service.txt" | sed "s/^/    (expected: the mix includes 404, 405 and Connection: close) /" || true

python3 - "$samples" <<'PY'
import sys
rows = [tuple(map(int, l.split())) for l in open(sys.argv[1])]
# Skip the first minute (caches, TLS contexts, thread pools warm up).
steady = [r for r in rows if r[0] >= 60] or rows
half = len(steady) // 2
first, second = steady[:half] or steady, steady[half:]
def growing(col, slack):
    a = max(r[col] for r in first)
    b = min(r[col] for r in second)
    tail = [r[col] for r in steady[-4:]]
    rising = all(x < y for x, y in zip(tail, tail[1:])) and len(tail) == 4
    return b > a + slack and rising, a, b
rss_bad, rss_a, rss_b = growing(1, max(2048, int(0.05 * steady[0][1])))
fd_bad, fd_a, fd_b = growing(2, 8)
print(f"RSS start {rows[0][1]} KiB, end {rows[-1][1]} KiB; fds start {rows[0][2]}, end {rows[-1][2]}")
if rss_bad or fd_bad:
    print("FAIL: " + ("RSS keeps growing " if rss_bad else "") + ("open fds keep growing" if fd_bad else ""))
    sys.exit(1)
print("soak ok: neither RSS nor open fds keep growing")
PY
