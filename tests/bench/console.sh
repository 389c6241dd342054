# shellcheck shell=bash disable=SC2154
# (work and console_pids come from run.sh, which sources this file.)
# The console scenario of tests/bench/run.sh (`bash tests/bench/run.sh console`), sourced by
# it: uses its $work directory (removed by its trap), console_pids (stopped by its trap) and
# install_missing. Prints a table: goal, measured, peer, ratio (README "Benchmarks").
#
#   BENCH_CONSOLE_ORDERS=100000          orders in the backend
#   BENCH_CONSOLE_EVENTS=50              order status changes timed to the screen
#   BENCH_CONSOLE_WHATIF_EVENTS=10       the same with every order in the console's list
#   BENCH_SCROLL_ROWS_PER_SECOND=50      scroll speed (console and peer alike)
#   BENCH_CONSOLE_RUNS=5                 cold starts per case (median)
#   BENCH_CONSOLE_BUILD_DIR=build-release-console

scenario_console() {
  local build="${BENCH_CONSOLE_BUILD_DIR:-build-release-console}"
  local n_orders="${BENCH_CONSOLE_ORDERS:-100000}" n_events="${BENCH_CONSOLE_EVENTS:-50}"
  local n_whatif="${BENCH_CONSOLE_WHATIF_EVENTS:-10}" rps="${BENCH_SCROLL_ROWS_PER_SECOND:-50}"
  local runs="${BENCH_CONSOLE_RUNS:-5}"
  local cw="$work/console"
  local xvfb=(xvfb-run -a -s "-screen 0 1280x800x24")
  install_missing xvfb xauth wrk curl

  echo "==> building the console benchmark (Release) in $build" >&2
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DGATEHOUSE_BUILD_TESTS=OFF \
    -DGATEHOUSE_BUILD_CONSOLE=ON -DGATEHOUSE_BUILD_CONSOLE_BENCH=ON >/dev/null
  cmake --build "$build" -j "$(nproc)" --target gatehouse bench_console bench_qml_peer >&2
  local gh="$build/app/gatehouse" bench="$build/tests/bench"

  # The console's saved language (QSettings) and Qt's caches live in the scenario's directory;
  # no access log lines for 100,000 requests.
  mkdir -p "$cw/config" "$cw/cache"
  local -x XDG_CONFIG_HOME="$cw/config" XDG_CACHE_HOME="$cw/cache"
  local -x QT_LOGGING_RULES="gatehouse.access=false"

  "$gh" --headless --data-dir "$cw/data" --service-port 0 --cluster-port 0 --admin-port 0 \
    >"$cw/backend.log" 2>&1 &
  console_pids+=($!)
  for _ in $(seq 1 100); do [ -f "$cw/data/ports.json" ] && break; sleep 0.1; done
  [ -f "$cw/data/ports.json" ] || { echo "gatehouse did not start:" >&2; cat "$cw/backend.log" >&2; exit 1; }
  local svc admin_url token
  svc="http://127.0.0.1:$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["service"])' "$cw/data/ports.json")"
  admin_url="http://127.0.0.1:$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["admin"])' "$cw/data/ports.json")"
  token=$(cat "$cw/data/admin-token")
  admin_get() { curl -fsS -H "Authorization: Bearer $token" "$admin_url/admin/v1/$1"; }

  # ---- 100,000 orders through the service API (validated and stored by the order service, as
  # any order), 32 connections; wrk stops itself 64 short (bulkorders.lua), the rest one by
  # one; then until the workflow has settled (no order NEW or pending any more).
  local customer upcs load_start wrk_pid n target
  customer=$(admin_get customers | python3 -c 'import json,sys; print(json.load(sys.stdin)["items"][0]["id"])')
  upcs=$(curl -fsS "$svc/v1/beers?pageSize=100" |
         python3 -c 'import json,sys; print(" ".join(b["upc"] for b in json.load(sys.stdin)["content"]))')
  order_count() {
    admin_get customers | python3 -c 'import json,sys
print(next(c["orderCount"] for c in json.load(sys.stdin)["items"] if c["id"] == sys.argv[1]))' "$customer"
  }
  target=$(($(order_count) + n_orders))
  echo "==> loading $n_orders orders through the service API" >&2
  load_start=$(date +%s.%N)
  GH_CUSTOMER="$customer" GH_UPCS="$upcs" GH_COUNT=$((n_orders - 64)) GH_REF_PREFIX=bench \
    wrk -t1 -c32 -d3600s --timeout 30s -s tests/bench/bulkorders.lua "$svc" >"$cw/wrk.out" 2>&1 &
  wrk_pid=$!
  console_pids+=("$wrk_pid")
  # wrk's main thread sleeps for -d even when its thread has stopped: SIGINT ends it.
  while n=$(order_count) && [ "$n" -lt $((target - 64)) ]; do
    kill -0 "$wrk_pid" 2>/dev/null || { cat "$cw/wrk.out" >&2; echo "wrk ended early" >&2; exit 1; }
    sleep 0.5
  done
  sleep 1
  kill -INT "$wrk_pid" 2>/dev/null || true
  wait "$wrk_pid" 2>/dev/null || true
  grep -q "failed 0$" "$cw/wrk.out" || { cat "$cw/wrk.out" >&2; echo "some orders were refused" >&2; exit 1; }
  n=$(order_count)
  local i body
  for ((i = n; i < target; i++)); do
    body=$(printf '{"customerRef":"bench-top-up-%d","beerOrderLines":[{"upc":"%s","orderQuantity":1}]}' "$i" "${upcs%% *}")
    curl -fsS -o /dev/null -H 'Content-Type: application/json' -d "$body" "$svc/v1/customers/$customer/orders"
  done
  [ "$(order_count)" -eq "$target" ] || { echo "expected $target orders, have $(order_count)" >&2; exit 1; }
  local busy s
  for _ in $(seq 1 1200); do
    busy=0
    for s in NEW VALIDATION_PENDING VALIDATED ALLOCATION_PENDING; do
      [ "$(admin_get "orders?status=$s&limit=1" | python3 -c 'import json,sys; print(len(json.load(sys.stdin)["items"]))')" = 0 ] || busy=1
    done
    [ "$busy" = 0 ] && break
    sleep 0.5
  done
  [ "$busy" = 0 ] || { echo "the order workflow did not settle within 10 minutes" >&2; exit 1; }
  local load_s
  load_s=$(python3 -c "import sys; print(round($(date +%s.%N) - $load_start, 1))")
  echo "    $n_orders orders created and settled in $load_s s" >&2

  # ---- the transport floor for events: a plain stream reader, in its own process.
  "$bench/bench_console" sse --url "$admin_url" --token "$token" --count $((n_events + n_whatif)) \
    --seconds 3600 >"$cw/sse.txt" 2>"$cw/sse.err" &
  local sse_pid=$!
  console_pids+=("$sse_pid")
  for _ in $(seq 1 100); do grep -qs "stream open" "$cw/sse.err" && break; sleep 0.1; done

  # ---- cold start to first frame (and memory 5 s later), interleaved with the peer.
  echo "==> cold start, $runs runs each (under Xvfb)" >&2
  "${xvfb[@]}" python3 tests/bench/coldstart.py --runs "$runs" --settle 5 \
    "peer=$bench/bench_qml_peer --rows 1000" \
    "connect=$gh --connect $admin_url --admin-token $token --lang en" \
    "embedded=$gh --data-dir {tmp}/data --service-port 0 --cluster-port 0 --admin-port 0 --lang en" \
    >"$cw/coldstart.json"

  # ---- the Orders page: load, memory, scrolling, events; then the what-if with every order.
  echo "==> the Orders page (under Xvfb)" >&2
  "${xvfb[@]}" "$bench/bench_console" orders --url "$admin_url" --token "$token" \
    --rows-per-second "$rps" --events "$n_events" --all-orders --all-orders-events "$n_whatif" \
    >"$cw/console.json" 2>"$cw/console.log" || { cat "$cw/console.log" >&2; exit 1; }
  # The peer scrolls as long as the console did, at the same rows per second.
  local scroll_s
  scroll_s=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["scroll"]["seconds"])' "$cw/console.json")
  echo "==> the minimal Qt Quick peer with 100,000 rows (under Xvfb)" >&2
  "${xvfb[@]}" "$bench/bench_qml_peer" --rows 100000 --report --settle 3 \
    --scroll-seconds "$scroll_s" --rows-per-second "$rps" >"$cw/peer.json" 2>"$cw/peer.log" ||
    { cat "$cw/peer.log" >&2; exit 1; }
  for _ in $(seq 1 300); do kill -0 "$sse_pid" 2>/dev/null || break; sleep 0.1; done
  kill "$sse_pid" 2>/dev/null || true
  [ -s "$cw/sse.txt" ] || { echo "the stream reader saw no events" >&2; cat "$cw/sse.err" >&2; exit 1; }

  # ---- the list's own transport floor: the same GET the Orders page makes.
  local curl_ms=()
  for _ in $(seq 1 5); do
    curl_ms+=("$(curl -fsS -o /dev/null -w '%{time_total}' -H "Authorization: Bearer $token" \
      "$admin_url/admin/v1/orders?limit=1000")")
  done

  python3 - "$cw" "$n_orders" "$load_s" "$rps" "${curl_ms[@]}" <<'PY'
import json, os, statistics, sys
cw, n_orders, load_s, rps = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])
curl_ms = statistics.median(float(x) * 1000 for x in sys.argv[5:])
load = lambda name: json.load(open(os.path.join(cw, name)))
cold, con, peer = load("coldstart.json"), load("console.json"), load("peer.json")
for name in ("coldstart", "console", "peer"):
    print(f"({name}: {json.dumps(load(name + '.json'))})", file=sys.stderr)
def pct(values, p):  # nearest rank, as the C++ side
    v = sorted(values)
    return v[min(len(v) - 1, max(0, -(-len(v) * p // 100) - 1))] if v else 0
ms = [float(x) for x in open(os.path.join(cw, "sse.txt")).read().split()]
sse = {"count": len(ms), "p50ms": pct(ms, 50), "p95ms": pct(ms, 95)}
MB = lambda mib: mib * 1.048576  # the goal is in MB
def mem(m):
    return f"{MB(m['rssMiB']):.0f} MB (peak {MB(m['hwmMiB']):.0f})"
def frames(s):
    return (f"{s['frames']} frames in {s['seconds']:.0f} s, p50 {s['p50ms']:.1f} / p99 {s['p99ms']:.1f} / "
            f"max {s['maxms']:.0f} ms, {s['stalls']} over 50 ms")
def lat(e):
    return f"median {e['p50ms']:.1f} / p95 {e['p95ms']:.1f} ms ({e['count']} events)"
ratio = lambda a, b: f"{a / b:.2f}" if b else "-"
rows = []
p = cold["peer"]
for key, what in (("connect", "Cold start to first frame: `gatehouse --connect` (median of %d)"),
                  ("embedded", "Cold start to first frame: `gatehouse`, embedded backend, fresh data dir (median of %d)")):
    c = cold[key]
    rows.append((what % len(c["runsMs"]), "< 1 s", f"{c['medianMs']:.0f} ms",
                 "minimal Qt Quick app (Fusion, one ListView, 1,000 rows)", f"{p['medianMs']:.0f} ms",
                 ratio(c["medianMs"], p["medianMs"])))
lst = con["list"]
rows.append((f"Orders page: connect until the list is on screen ({lst['rows']} of {n_orders:,} orders; the list reads {lst['capacity']} at a time, scrolling to the end reads more)",
             "-", f"{lst['onScreenMs']:.0f} ms (loaded {lst['loadedMs']:.0f})",
             "curl, the same GET /admin/v1/orders?limit=1000", f"{curl_ms:.0f} ms", ratio(lst["onScreenMs"], curl_ms)))
rows.append((f"Memory, Orders page open, {n_orders:,} orders in the backend (console process)", "< 200 MB",
             mem(con["memoryAfterScroll"]),
             "minimal app holding 100,000 rows", mem(peer["memory"]),
             ratio(con["memoryAfterScroll"]["rssMiB"], peer["memory"]["rssMiB"])))
rows.append(("Memory, `gatehouse --connect` 5 s after its first frame (Dashboard)", "< 200 MB",
             mem(cold["connect"]["memory"]), "minimal app, 1,000 rows", mem(p["memory"]),
             ratio(cold["connect"]["memory"]["rssMiB"], p["memory"]["rssMiB"])))
sc, ps = con["scroll"], peer["scroll"]
rows.append((f"Scrolling the Orders list top to bottom ({sc['rows']:.0f} rows at {rps:.0f} rows/s)", "no stalls",
             frames(sc), f"minimal app's ListView, {ps['rows']:.0f} of 100,000 rows, same speed", frames(ps),
             f"{ratio(sc['p99ms'], ps['p99ms'])} (p99)"))
ev = con["events"]
rows.append(("Event to screen: order.status from its `time` to the frame that shows the row",
             "< 100 ms", lat(ev) + (f", {ev['missed']} missed" if ev["missed"] else ""),
             "plain SSE reader, the same events (read, not drawn)", lat(sse), f"{ratio(ev['p50ms'], sse['p50ms'])} (median)"))
w = con.get("allOrders")
if w:
    rows.append((f"Every order in the list ({w['rows']:,} rows; paged back as scrolling to the end does, {w['pages']} pages of 1000)",
                 "-", f"read {w['fetchMs'] / 1000:.1f} s, on screen {w['onScreenMs']:.0f} ms after",
                 "-", "-", "-"))
    rows.append(("Memory with every order loaded", "< 200 MB", mem(w["memoryAtEnd"]), "minimal app holding 100,000 rows",
                 mem(peer["memory"]), ratio(w["memoryAtEnd"]["rssMiB"], peer["memory"]["rssMiB"])))
    ws = w["scroll"]
    rows.append((f"Scrolling with every order loaded ({ws['rows']:.0f} rows at {rps:.0f} rows/s) / jump to the last row",
                 "no stalls", frames(ws) + f"; jump {w['jumpToEndMs']:.0f} ms", "minimal app's ListView", frames(ps),
                 f"{ratio(ws['p99ms'], ps['p99ms'])} (p99)"))
    we = con["allOrdersEvents"]
    rows.append(("Event to screen with every order loaded", "< 100 ms", lat(we), "plain SSE reader (all events)", lat(sse),
                 f"{ratio(we['p50ms'], sse['p50ms'])} (median)"))
print("| measure | goal | measured | peer | peer measured | ratio |")
print("|---|---|---|---|---|---|")
for r in rows:
    print("| " + " | ".join(r) + " |")
print(f"({n_orders:,} orders loaded through the service API in {load_s} s, {n_orders / load_s:,.0f}/s, 32 connections; "
      f"Xvfb 1280x800x24; {os.cpu_count()} cores shared by backend, console and peers)")
r = con.get("renderer", {})
print(f"(renderer: {'Qt Quick software renderer' if r.get('software') else 'Qt default (OpenGL)'} for the console, "
      f"{'the same' if peer.get('software') == r.get('software') else 'a different one'} for the peer: {r.get('reason', '?')})")
PY
}
