#!/usr/bin/env bash
# Benchmark harness: builds Release, starts `gatehouse --headless` on ephemeral ports with
# a temporary data dir, runs wrk scenarios against it and against a peer measured in the
# same run, and prints a table with req/s, p50, p99 and the ratio to the peer.
#
#   bash tests/bench/run.sh                 all scenarios, 10 s each
#   BENCH_DURATION=30s bash tests/bench/run.sh healthz
#   BENCH_ROUNDS=3 bash tests/bench/run.sh oauth   each pair run 3 times, alternating; a row per
#                                                round, then the median ratio (machines here are
#                                                noisy: one 10 s run of the same binary varies
#                                                by 15 % and more)
#
# Scenarios:
#   healthz   GET /healthz vs nginx-light returning a static body, keep-alive, c16 and c64.
#   orders    POST an order with two lines and a callback URL (persisted with its outbox row,
#             durable across a process crash) vs a bare QtHttpServer 6.4 JSON echo
#             (tests/bench/qthttpserver_echo.cpp) and nginx-light answering a static 201;
#             then how long the orders' deliveries took to drain, and the rate end to end;
#             then the same POST while the lifecycle works through a backlog (the orders of a
#             DURATION with the lifecycle held, then released) vs the same POST without one.
#   webhooks  signed deliveries per second to a local Node receiver and the latency from a
#             status change to its receipt (tests/bench/deliveries.mjs), vs the receiver's
#             own capacity under wrk, measured right after each burst; BENCH_ROUNDS bursts and
#             the median ratios (the receiver alone varied from 20k to 40k requests/s in one
#             session: one round's ratio says little).
#   oauth     the authorization server vs node oidc-provider configured alike
#             (tests/bench/oidc/server.mjs): client_credentials with RS256 JWT, ES256 JWT and
#             opaque tokens, introspection, JWKS, discovery; c16.
#   cluster   GET a node over mTLS keep-alive and new mTLS connections per second (EC client
#             certificate; tests/bench/kubeload.cpp, since wrk has no client certificates; its
#             TLS is crypto/tls.h on OpenSSL, a full handshake per new connection, leaf only) vs
#             nginx-light with ssl_verify_client on the same certificates answering a static
#             node; RBAC decisions in-process with 1,000 bindings, indexed vs a linear scan
#             (tests/bench/bench_rbac.cpp); watch fan-out: 100 watchers of node-1 while its
#             labels change as fast as the server takes them (tests/bench/watchfanout.mjs),
#             events delivered vs every change to every watcher, and the server's memory.
#   console   the QML console under Xvfb against its own backend holding 100,000 orders (loaded
#             through the service API): cold start to first frame of gatehouse --connect and of
#             the embedded gatehouse vs a minimal Qt Quick app (tests/bench/qml_peer.cpp); the
#             Orders page's load, memory, scrolling and event-to-screen latency
#             (tests/bench/console_bench.cpp) vs the same minimal app and a plain SSE reader.
#             Built in its own directory (BENCH_CONSOLE_BUILD_DIR, default build-release-console)
#             with -DGATEHOUSE_BUILD_CONSOLE_BENCH=ON. Not part of "all" (it takes ~5 minutes).
#   storage   the same binary on PostgreSQL 15 (tests/postgres/server.sh, durable as SQLite's
#             WAL with synchronous=NORMAL: synced WAL, commits not waiting for the sync) vs on
#             SQLite: POST order (2 lines + callback) and client_credentials (RS256 JWT), c16,
#             BENCH_ROUNDS pairs alternating, each run started with both instances quiet (the
#             orders of the run before delivered) (docs/storage.md). Not part of "all".
#   fleet     three instances of one PostgreSQL database behind nginx (deploy/run-local.sh) vs
#             one instance behind the same recipe: POST order and client_credentials through
#             nginx, c16 and c64, BENCH_ROUNDS pairs alternating, each run started with every
#             instance quiet (deploy/README.md, "Measuring
#             scaling"). On one machine the cores are the limit: the point is that three do not
#             do less than one. Not part of "all".
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$here"
DURATION="${BENCH_DURATION:-10s}"
ROUNDS="${BENCH_ROUNDS:-1}"
case "$ROUNDS" in '' | *[!0-9]* | 0) echo "BENCH_ROUNDS must be a positive integer" >&2; exit 2 ;; esac
BUILD_DIR="${BENCH_BUILD_DIR:-build-release}"
ONLY="${1:-all}"
case "$ONLY" in
  all | healthz | orders | webhooks | oauth | cluster | console | storage | fleet) ;;
  *) echo "unknown scenario $ONLY (known: healthz, orders, webhooks, oauth, cluster, console, storage, fleet)" >&2; exit 2 ;;
esac

# install_missing and the package lists of the README's commands: on a fresh machine the
# benchmarks install what building Gatehouse needs as well as their own tools.
# shellcheck source=scripts/packages.sh
source scripts/packages.sh
install_missing "${BUILD_PACKAGES[@]}" curl wrk nginx-light
ensure_node # the webhooks and oauth scenarios run Node (tests/e2e packages, tests/bench/oidc)

work="$(mktemp -d)"
gh_pid=""; nginx_pid=""; console_pids=(); pg_gh_pid=""; fleet_pids=()
cleanup() {
  local p
  [ -n "$pg_gh_pid" ] && kill "$pg_gh_pid" 2>/dev/null && wait "$pg_gh_pid" 2>/dev/null || true
  for p in "${fleet_pids[@]}"; do # deploy/run-local.sh stops its instances and nginx on TERM
    kill "$p" 2>/dev/null && wait "$p" 2>/dev/null || true
  done
  [ ! -f "$work/pg/url" ] || bash tests/postgres/server.sh stop "$work/pg" || true
  for p in "${console_pids[@]}"; do
    kill "$p" 2>/dev/null && wait "$p" 2>/dev/null || true
  done
  [ -n "$gh_pid" ] && kill "$gh_pid" 2>/dev/null && wait "$gh_pid" 2>/dev/null || true
  [ -n "$nginx_pid" ] && kill "$nginx_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

if [ "$ONLY" = console ]; then
  # shellcheck source=tests/bench/console.sh
  source tests/bench/console.sh
  scenario_console
  exit 0
fi

echo "==> building Release in $BUILD_DIR" >&2
cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release -DGATEHOUSE_BUILD_TESTS=OFF -DGATEHOUSE_BUILD_CONSOLE=OFF >/dev/null
cmake --build "$BUILD_DIR" -j "$(nproc)" --target gatehouse bench_qthttpserver_echo bench_kubeload bench_rbac >&2
if [ ! -d tests/e2e/node_modules/standardwebhooks ]; then
  (cd tests/e2e && npm ci --no-audit --no-fund --prefer-offline >&2)
fi

QT_LOGGING_RULES="gatehouse.access=false" "$BUILD_DIR/app/gatehouse" --headless --data-dir "$work/data" \
  --service-port 0 --cluster-port 0 --admin-port 0 --webhook-allow-loopback \
  >"$work/gatehouse.log" 2>&1 &
gh_pid=$!
for _ in $(seq 1 100); do [ -f "$work/data/ports.json" ] && break; sleep 0.1; done
[ -f "$work/data/ports.json" ] || { echo "gatehouse did not start:" >&2; cat "$work/gatehouse.log" >&2; exit 1; }
gh_port=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["service"])' "$work/data/ports.json")
gh_admin=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["admin"])' "$work/data/ports.json")
gh_token=$(cat "$work/data/admin-token")

nginx_port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
nginx_tls_port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
pki="$work/data/pki"
mkdir -p "$work/nginx"
cat >"$work/nginx/nginx.conf" <<CONF
worker_processes 1;
daemon off;
pid $work/nginx/nginx.pid;
error_log $work/nginx/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  keepalive_requests 1000000;
  client_body_temp_path $work/nginx/body;
  server {
    listen 127.0.0.1:$nginx_port;
    location = /healthz { default_type text/plain; return 200 "ok"; }
    location = /hooks { return 204; }
    location /v1/ { default_type application/json; return 201 '{"id":"5b1f6c8e-0d0a-4c55-9a2e-6f1b7d2f3c11","orderStatus":"NEW"}'; }
  }
  # The cluster scenario's peer: mTLS with Gatehouse's own server certificate and cluster CA.
  server {
    listen 127.0.0.1:$nginx_tls_port ssl;
    ssl_certificate $pki/server.crt;
    ssl_certificate_key $pki/server.key;
    ssl_client_certificate $pki/ca.crt;
    ssl_verify_client on;
    ssl_session_tickets off;
    ssl_session_cache off;
    location / { default_type application/json; return 200 '{"kind":"Node","apiVersion":"v1","metadata":{"name":"node-1"}}'; }
  }
}
CONF
nginx -c "$work/nginx/nginx.conf" -p "$work/nginx" &
nginx_pid=$!
for _ in $(seq 1 50); do curl -fs "http://127.0.0.1:$nginx_port/healthz" >/dev/null 2>&1 && break; sleep 0.1; done

# run_wrk URL CONNECTIONS [wrk args...] -> "rps p50ms p99ms errors" (errors: non-2xx answers
# and socket errors: failed connects, reads, writes, timeouts)
run_wrk() {
  local out url="$1" conns="$2"
  shift 2
  out=$(wrk -t1 -c"$conns" -d"$DURATION" --latency "$@" "$url")
  python3 - "$out" <<'PY'
import re, sys
out = sys.argv[1]
def ms(v):
    m = re.match(r"([\d.]+)(us|ms|s)", v)
    x = float(m.group(1)); u = m.group(2)
    return x / 1000 if u == "us" else x * 1000 if u == "s" else x
rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
p50 = ms(re.search(r"^\s+50%\s+(\S+)", out, re.M).group(1))
p99 = ms(re.search(r"^\s+99%\s+(\S+)", out, re.M).group(1))
non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
# "Socket errors: connect N, read N, write N, timeout N" (only when there were some).
sockets = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", out)
errs = (int(non2xx.group(1)) if non2xx else 0) + (sum(map(int, sockets.groups())) if sockets else 0)
if errs:  # which kind, for the failure's message (a timeout is wrk's 2 s without an answer)
    print((non2xx.group(0) + "; " if non2xx else "") + (sockets.group(0) if sockets else ""),
          file=sys.stderr)
print(f"{rps:.0f} {p50:.3f} {p99:.3f} {errs}")
PY
}

# A benchmark of error answers measures nothing: a row fails (exit 1) on any non-2xx answer
# or failed request, from Gatehouse or from its peer.
#   require_ok LABEL NAME COUNT [NAME COUNT ...]
require_ok() {
  local label="$1"
  shift
  while [ $# -gt 0 ]; do
    [ "$2" = 0 ] || { echo "$1 answered $2 non-2xx responses or failed requests ($label)" >&2; exit 1; }
    shift 2
  done
}

printf "| scenario | conns | gatehouse req/s | p50 ms | p99 ms | peer | peer req/s | p50 ms | p99 ms | ratio |\n"
printf "|---|---|---|---|---|---|---|---|---|---|\n"
scenario_healthz() {
  for c in 16 64; do
    read -r g_rps g_p50 g_p99 g_err < <(run_wrk "http://127.0.0.1:$gh_port/healthz" "$c")
    read -r n_rps n_p50 n_p99 n_err < <(run_wrk "http://127.0.0.1:$nginx_port/healthz" "$c")
    require_ok "GET /healthz c$c" gatehouse "$g_err" nginx "$n_err"
    ratio=$(python3 -c "print(f'{$g_rps/$n_rps:.2f}')")
    printf "| GET /healthz keep-alive | %s | %s | %s | %s | nginx-light | %s | %s | %s | %s |\n" \
      "$c" "$g_rps" "$g_p50" "$g_p99" "$n_rps" "$n_p50" "$n_p99" "$ratio"
  done
}
row() { # scenario conns g_rps g_p50 g_p99 peer p_rps p_p50 p_p99
  ratio=$(python3 -c "print(f'{$3/$7:.2f}')")
  printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n" "$1" "$2" "$3" "$4" "$5" "$6" "$7" "$8" "$9" "$ratio"
}
admin_json() { curl -fsS -H "Authorization: Bearer $gh_token" -H 'Content-Type: application/json' "$@"; }
# wait_quiet ADMIN_PORT TOKEN: waits (at most 5 minutes) until that instance has no order
# waiting for its lifecycle, no delivery in flight or waiting, nothing queued for its writer,
# and its count of attempts stayed the same over two polls 0.1 s apart.
wait_quiet() {
  python3 - "http://127.0.0.1:$1/admin/v1/status" "$2" <<'PY'
import json, sys, time, urllib.request
url, token = sys.argv[1], sys.argv[2]
def status():
    req = urllib.request.Request(url, headers={"Authorization": "Bearer " + token})
    return json.load(urllib.request.urlopen(req))
quiet, last = 0, None
for _ in range(3000):  # at most 5 minutes
    s = status()
    busy = (s["orders"]["lifecycleBacklog"], s["webhooks"]["inFlight"],
            s["webhooks"]["ordersWaiting"], s["writer"]["queued"])
    quiet = quiet + 1 if not any(busy) and s["webhooks"]["attempts"] == last else 0
    last = s["webhooks"]["attempts"]
    if quiet >= 2:
        sys.exit(0)
    time.sleep(0.1)
sys.exit("the orders' lifecycle and deliveries did not drain in 5 minutes")
PY
}
# drain_orders CONNS RPS: waits until the orders taken in have run their lifecycle and every
# delivery is done, and prints how long that took and the rate end to end.
drain_orders() {
  local start end
  start=$(date +%s.%N)
  if ! wait_quiet "$gh_admin" "$gh_token"; then
    # (called in a command substitution, where set -e does not hold: said, and failed, here)
    echo "(c$1: FAILED: the orders' deliveries were still pending after 5 minutes)"
    return 1
  fi
  end=$(date +%s.%N)
  python3 -c "
import re
secs = float(re.match(r'([\d.]+)', '$DURATION').group(1)) * {'s': 1, 'm': 60}.get('$DURATION'[-1], 1)
taken = $2 * secs
drain = $end - $start - 0.2  # the last two quiet polls
print(f'(c$1: {taken:,.0f} orders taken in {secs:.0f} s; their lifecycle and deliveries were done '
      f'{drain:.1f} s later: {taken / (secs + drain):,.0f} orders/s end to end)')"
}
scenario_orders() {
  local echo_pid echo_port customer upcs
  "$BUILD_DIR/tests/bench/bench_qthttpserver_echo" >"$work/echo.port" 2>"$work/echo.log" &
  echo_pid=$!
  for _ in $(seq 1 50); do [ -s "$work/echo.port" ] && break; sleep 0.1; done
  echo_port=$(head -1 "$work/echo.port")
  customer=$(admin_json -X POST "http://127.0.0.1:$gh_admin/admin/v1/customers" -d '{"name":"bench"}' |
             python3 -c 'import json,sys; print(json.load(sys.stdin)["customer"]["id"])')
  upcs=$(curl -fsS "http://127.0.0.1:$gh_port/v1/beers?pageSize=2" |
         python3 -c 'import json,sys; print(" ".join(b["upc"] for b in json.load(sys.stdin)["content"]))')
  export GH_CUSTOMER="$customer" GH_UPC1="${upcs%% *}" GH_UPC2="${upcs##* }"
  export GH_CALLBACK="http://127.0.0.1:$nginx_port/hooks"
  local drained=() drain_failed=0 g16_rps="" g16_p50="" g16_p99=""
  for c in 16 64; do
    read -r g_rps g_p50 g_p99 g_err < <(run_wrk "http://127.0.0.1:$gh_port" "$c" -s tests/bench/orders.lua)
    # The deliveries (five an order) run behind the requests: the peers run once they are
    # done (else they would share the CPU with them), and the time that took is reported.
    drained+=("$(drain_orders "$c" "$g_rps")") || drain_failed=1
    read -r q_rps q_p50 q_p99 q_err < <(run_wrk "http://127.0.0.1:$echo_port" "$c" -s tests/bench/orders.lua)
    read -r n_rps n_p50 n_p99 n_err < <(run_wrk "http://127.0.0.1:$nginx_port" "$c" -s tests/bench/orders.lua)
    require_ok "POST order c$c" gatehouse "$g_err" "the QtHttpServer echo" "$q_err" nginx "$n_err"
    [ "$c" != 16 ] || { g16_rps="$g_rps" g16_p50="$g_p50" g16_p99="$g_p99"; }
    row "POST order (2 lines + outbox row)" "$c" "$g_rps" "$g_p50" "$g_p99" "QtHttpServer echo" "$q_rps" "$q_p50" "$q_p99"
    row "POST order (2 lines + outbox row)" "$c" "$g_rps" "$g_p50" "$g_p99" "nginx-light static 201" "$n_rps" "$n_p50" "$n_p99"
  done
  kill "$echo_pid" 2>/dev/null || true
  # Intake while a backlog drains: orders taken in for DURATION with the lifecycle held, then
  # released, and the same POST measured while the lifecycle works through them; the peer is
  # the same POST without a backlog (c16 above). Intake-first means the backlog does not hold
  # up the 201s (issue 28).
  local c16_rps="$g16_rps" backlog_before backlog_after
  admin_json -X POST "http://127.0.0.1:$gh_admin/admin/v1/orders/lifecycle/hold" >/dev/null
  read -r _ _ _ h_err < <(run_wrk "http://127.0.0.1:$gh_port" 16 -s tests/bench/orders.lua)
  require_ok "POST order, lifecycle held" gatehouse "$h_err"
  backlog_before=$(admin_json "http://127.0.0.1:$gh_admin/admin/v1/status" |
                   python3 -c 'import json,sys; print(json.load(sys.stdin)["orders"]["lifecycleBacklog"])')
  admin_json -X POST "http://127.0.0.1:$gh_admin/admin/v1/orders/lifecycle/release" >/dev/null
  read -r b_rps b_p50 b_p99 b_err < <(run_wrk "http://127.0.0.1:$gh_port" 16 -s tests/bench/orders.lua)
  require_ok "POST order while a backlog drains" gatehouse "$b_err"
  backlog_after=$(admin_json "http://127.0.0.1:$gh_admin/admin/v1/status" |
                  python3 -c 'import json,sys; print(json.load(sys.stdin)["orders"]["lifecycleBacklog"])')
  row "POST order while $backlog_before orders' lifecycle drains" 16 "$b_rps" "$b_p50" "$b_p99" \
    "the same POST without a backlog (above)" "$c16_rps" "$g16_p50" "$g16_p99"
  drained+=("(backlog: $backlog_before orders when released, $backlog_after still waiting after the run)")
  # (the rate end to end counts the backlog's orders as taken in during the run)
  drained+=("$(drain_orders "16 with the backlog" \
    "$(python3 -c "import re; d='$DURATION'; secs=float(re.match(r'([\d.]+)', d).group(1)) * {'s': 1, 'm': 60}.get(d[-1], 1); print($b_rps + $backlog_before / secs)")")") ||
    drain_failed=1
  printf '%s\n' "${drained[@]}"
  [ "$drain_failed" = 0 ] || { echo "orders scenario: deliveries did not drain" >&2; exit 1; }
  local orders
  orders=$(admin_json "http://127.0.0.1:$gh_admin/admin/v1/status" |
           python3 -c 'import json,sys; print(json.load(sys.stdin).get("webhooks", {}))')
  echo "(after the orders scenario: $orders)" >&2
}
scenario_webhooks() {
  # BENCH_ROUNDS bursts, each followed by the receiver's own capacity under wrk (the peer
  # varies most here: 20k to 39k requests/s in one session for the same Node receiver), a row
  # each, then the median ratios.
  local node_pid line url i r_rps r_err e2e=() engine=()
  export GH_BODY='{"orderId":"5b1f6c8e-0d0a-4c55-9a2e-6f1b7d2f3c11","orderStatus":"ALLOCATED"}'
  for ((i = 1; i <= ROUNDS; ++i)); do
    GH_SERVICE="http://127.0.0.1:$gh_port" GH_ADMIN="http://127.0.0.1:$gh_admin" GH_TOKEN="$gh_token" \
      KEEP_SERVING=1 ORDERS="${BENCH_ORDERS:-10000}" node tests/bench/deliveries.mjs >"$work/deliveries.out" 2>&1 &
    node_pid=$!
    for _ in $(seq 1 3000); do grep -q deliveriesPerSecond "$work/deliveries.out" && break
      kill -0 "$node_pid" 2>/dev/null || break; sleep 0.1; done
    line=$(grep deliveriesPerSecond "$work/deliveries.out") || { cat "$work/deliveries.out" >&2; exit 1; }
    echo "$line" >&2
    url=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["receiverUrl"])' "$line")
    read -r r_rps _ _ r_err < <(run_wrk "$url/hooks" 128 -s tests/bench/post.lua)
    kill "$node_pid" 2>/dev/null || true
    wait "$node_pid" 2>/dev/null || true
    require_ok "POST to the webhook receiver c128" "the Node receiver" "$r_err"
    local suffix=""
    [ "$ROUNDS" -gt 1 ] && suffix=" (round $i)"
    python3 - "$line" "$r_rps" "$suffix" <<'PY'
import json, sys
d = json.loads(sys.argv[1]); peer = float(sys.argv[2]); suffix = sys.argv[3]
print(f"| webhook deliveries, signed, {d['deliveries']} to a Node receiver{suffix} | - | {d['deliveriesPerSecond']} | "
      f"{d['latencyP50ms']} (status change to receipt) | {d['latencyP99ms']} | wrk POST to the same receiver, c128 | "
      f"{peer:.0f} | - | - | {d['deliveriesPerSecond']/peer:.2f} |")
print(f"| webhook deliveries, signed, {d['releasedDeliveries']} of orders held then released (the engine alone){suffix} | - | "
      f"{d['releasedDeliveriesPerSecond']} | - | - | wrk POST to the same receiver, c128 | "
      f"{peer:.0f} | - | - | {d['releasedDeliveriesPerSecond']/peer:.2f} |")
PY
    e2e+=("$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["deliveriesPerSecond"] / float(sys.argv[2]))' "$line" "$r_rps")")
    engine+=("$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["releasedDeliveriesPerSecond"] / float(sys.argv[2]))' "$line" "$r_rps")")
  done
  if [ "$ROUNDS" -gt 1 ]; then
    printf "| webhook deliveries, signed, median of %s rounds | - | | | | the Node receiver under wrk c128 | | | | **%s** |\n" \
      "$ROUNDS" "$(median "${e2e[@]}")"
    printf "| webhook deliveries of released orders (the engine alone), median of %s rounds | - | | | | the Node receiver under wrk c128 | | | | **%s** |\n" \
      "$ROUNDS" "$(median "${engine[@]}")"
  fi
}
# paired LABEL PEER GATEHOUSE_FN PEER_FN: runs both functions (each prints run_wrk's
# "rps p50 p99 errors") ROUNDS times, alternating; a row per round, and with more than one
# round a row with the median of the ratios.
paired() {
  local label="$1" peer="$2" gfn="$3" pfn="$4" i name ratios=()
  for ((i = 1; i <= ROUNDS; ++i)); do
    read -r g_rps g_p50 g_p99 g_err < <("$gfn")
    read -r o_rps o_p50 o_p99 o_err < <("$pfn")
    require_ok "$label" gatehouse "$g_err" oidc-provider "$o_err"
    name="$label"
    [ "$ROUNDS" -gt 1 ] && name="$label (round $i)"
    row "$name" 16 "$g_rps" "$g_p50" "$g_p99" "$peer" "$o_rps" "$o_p50" "$o_p99"
    ratios+=("$(python3 -c "print($g_rps/$o_rps)")")
  done
  if [ "$ROUNDS" -gt 1 ]; then
    printf "| %s, median of %s rounds | 16 | | | | %s | | | | **%s** |\n" "$label" "$ROUNDS" "$peer" \
      "$(python3 -c 'import statistics,sys; print(f"{statistics.median(map(float, sys.argv[1:])):.2f}")' "${ratios[@]}")"
  fi
}
scenario_oauth() {
  local oidc_pid oidc_port secret c_rs c_es c_op g_op o_op
  if [ ! -d tests/bench/oidc/node_modules/oidc-provider ]; then
    (cd tests/bench/oidc && npm ci --no-audit --no-fund --prefer-offline >&2)
  fi
  secret="bench-$(python3 -c 'import secrets; print(secrets.token_urlsafe(24))')"
  SECRET="$secret" NODE_ENV=production node tests/bench/oidc/server.mjs >"$work/oidc.port" 2>"$work/oidc.log" &
  oidc_pid=$!
  for _ in $(seq 1 100); do [ -s "$work/oidc.port" ] && break; sleep 0.1; done
  oidc_port=$(head -1 "$work/oidc.port")
  # Gatehouse: one confidential client per token kind (the format is per client here, per
  # resource indicator there).
  client() { # extra metadata JSON -> "client_id client_secret"
    admin_json -X POST "http://127.0.0.1:$gh_admin/admin/v1/clients" \
      -d "{\"client_name\":\"bench\",\"grant_types\":[\"client_credentials\"],\"scope\":\"orders:read\"$1}" |
      python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["client_id"], d["client_secret"])'
  }
  basic() { printf 'Basic %s' "$(printf '%s:%s' "$1" "$2" | base64 -w0)"; }
  read -r c_rs s_rs < <(client "")
  read -r c_es s_es < <(client ',"access_token_signed_response_alg":"ES256"')
  read -r c_op s_op < <(client ',"access_token_format":"opaque"')
  local o_auth; o_auth=$(basic bench "$secret")
  local kind g_auth o_form
  for kind in "RS256 JWT" "ES256 JWT" "opaque"; do
    case "$kind" in
      "RS256 JWT") g_auth=$(basic "$c_rs" "$s_rs"); o_form="grant_type=client_credentials&scope=api&resource=https%3A%2F%2Fapi.example.test%2Frs256" ;;
      "ES256 JWT") g_auth=$(basic "$c_es" "$s_es"); o_form="grant_type=client_credentials&scope=api&resource=https%3A%2F%2Fapi.example.test%2Fes256" ;;
      opaque) g_auth=$(basic "$c_op" "$s_op"); o_form="grant_type=client_credentials&scope=api&resource=https%3A%2F%2Fapi.example.test%2Fopaque" ;;
    esac
    g_side() { GH_PATH=/oauth2/token GH_AUTH="$g_auth" GH_FORM="grant_type=client_credentials&scope=orders%3Aread" \
      run_wrk "http://127.0.0.1:$gh_port" 16 -s tests/bench/form.lua; }
    o_side() { GH_PATH=/token GH_AUTH="$o_auth" GH_FORM="$o_form" \
      run_wrk "http://127.0.0.1:$oidc_port" 16 -s tests/bench/form.lua; }
    paired "client_credentials, $kind" "oidc-provider 9.13.3" g_side o_side
  done
  # Introspection of an opaque token by its client.
  g_op=$(curl -fsS -u "$c_op:$s_op" -d grant_type=client_credentials "http://127.0.0.1:$gh_port/oauth2/token" |
         python3 -c 'import json,sys; print(json.load(sys.stdin)["access_token"])')
  o_op=$(curl -fsS -u "bench:$secret" -d grant_type=client_credentials -d scope=api \
         -d resource=https://api.example.test/opaque "http://127.0.0.1:$oidc_port/token" |
         python3 -c 'import json,sys; print(json.load(sys.stdin)["access_token"])')
  g_side() { GH_PATH=/oauth2/introspect GH_AUTH="$(basic "$c_op" "$s_op")" GH_FORM="token=$g_op" \
    run_wrk "http://127.0.0.1:$gh_port" 16 -s tests/bench/form.lua; }
  o_side() { GH_PATH=/token/introspection GH_AUTH="$o_auth" GH_FORM="token=$o_op" \
    run_wrk "http://127.0.0.1:$oidc_port" 16 -s tests/bench/form.lua; }
  paired "introspection (opaque, active)" "oidc-provider 9.13.3" g_side o_side
  g_side() { run_wrk "http://127.0.0.1:$gh_port/oauth2/jwks" 16; }
  o_side() { run_wrk "http://127.0.0.1:$oidc_port/jwks" 16; }
  paired "GET JWKS" "oidc-provider 9.13.3" g_side o_side
  g_side() { run_wrk "http://127.0.0.1:$gh_port/.well-known/openid-configuration" 16; }
  o_side() { run_wrk "http://127.0.0.1:$oidc_port/.well-known/openid-configuration" 16; }
  paired "GET discovery" "oidc-provider 9.13.3" g_side o_side
  kill "$oidc_pid" 2>/dev/null || true
}
scenario_cluster() {
  local certs="$work/cluster-client"
  mkdir -p "$certs"
  admin_json -X POST "http://127.0.0.1:$gh_admin/admin/v1/cluster/kubeconfigs" \
    -d '{"kind":"user","name":"bench","groups":["system:masters"]}' >"$certs/issued.json"
  python3 - "$certs" <<'PY'
import json, os, sys
d = sys.argv[1]
j = json.load(open(os.path.join(d, "issued.json")))
for name, field in (("ca.crt", "caPem"), ("user.crt", "certificatePem"), ("user.key", "keyPem")):
    with open(os.path.join(d, name), "w") as f:
        f.write(j[field])
os.chmod(os.path.join(d, "user.key"), 0o600)
PY
  local cl_port secs
  cl_port=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["cluster"])' "$work/data/ports.json")
  secs="${DURATION%s}"
  load() { # URL [extra args] -> "rps p50 p99 errors"
    "$BUILD_DIR/tests/bench/bench_kubeload" --url "$1" --ca "$certs/ca.crt" --cert "$certs/user.crt" \
      --key "$certs/user.key" --seconds "$secs" "${@:2}" |
      python3 -c 'import json,sys; r=json.load(sys.stdin); print("%.0f %.2f %.2f %d" % (r["rps"], r["p50ms"], r["p99ms"], r["errors"]))'
  }
  for c in 16 64; do
    read -r g_rps g_p50 g_p99 g_err < <(load "https://127.0.0.1:$cl_port/api/v1/nodes/node-1" --connections "$c")
    read -r n_rps n_p50 n_p99 n_err < <(load "https://127.0.0.1:$nginx_tls_port/api/v1/nodes/node-1" --connections "$c")
    require_ok "GET node c$c" gatehouse "$g_err" nginx "$n_err"
    row "GET node, mTLS keep-alive" "$c" "$g_rps" "$g_p50" "$g_p99" "nginx-light mTLS static" "$n_rps" "$n_p50" "$n_p99"
  done
  read -r g_rps g_p50 g_p99 g_err < <(load "https://127.0.0.1:$cl_port/api/v1/nodes/node-1" --connections 16 --new-connections)
  read -r n_rps n_p50 n_p99 n_err < <(load "https://127.0.0.1:$nginx_tls_port/api/v1/nodes/node-1" --connections 16 --new-connections)
  require_ok "new mTLS connections" gatehouse "$g_err" nginx "$n_err"
  row "new mTLS connection + GET node (EC P-256)" 16 "$g_rps" "$g_p50" "$g_p99" "nginx-light mTLS static" "$n_rps" "$n_p50" "$n_p99"
  # Watch fan-out: every label change of node-1 to each of 100 watchers; the "peer" is the ideal
  # (every change to every watcher), and the server's memory before, at its peak and after.
  node tests/bench/watchfanout.mjs --port "$cl_port" --ca "$certs/ca.crt" --cert "$certs/user.crt" \
    --key "$certs/user.key" --pid "$gh_pid" --watchers 100 --seconds "$secs" |
    python3 -c 'import json,sys; r=json.load(sys.stdin); print("| watch fan-out: %d watchers x %.0f changes/s (RSS %.0f / %.0f / %.0f MiB before / peak / after, %d closed as too slow) | %d | %.0f events/s | - | - | every change to every watcher | %.0f events/s | - | - | %.2f |" % (r["watchers"], r["changesPerSecond"], r["rssBeforeMiB"], r["rssPeakMiB"], r["rssAfterMiB"], r["closedEarly"], r["watchers"], r["delivered"] / (r["changes"] / r["changesPerSecond"]), r["expected"] / (r["changes"] / r["changesPerSecond"]), r["deliveredRatio"]))'
  "$BUILD_DIR/tests/bench/bench_rbac" | python3 -c 'import json,sys; r=json.load(sys.stdin); print("| RBAC decisions in-process (%d bindings) | - | %.0f/s | - | - | linear scan | %.0f/s | - | - | %.2f |" % (r["bindings"], r["indexedPerSecond"], r["linearPerSecond"], r["ratio"]))'
}
# setup_instance SERVICE_PORT ADMIN_PORT TOKEN -> "customer upc1 upc2 client_id client_secret":
# a customer, two beers of the catalog and a confidential client, for orders and tokens.
setup_instance() {
  local customer upcs client
  customer=$(curl -fsS -H "Authorization: Bearer $3" -H 'Content-Type: application/json' -X POST \
             "http://127.0.0.1:$2/admin/v1/customers" -d '{"name":"bench"}' |
             python3 -c 'import json,sys; print(json.load(sys.stdin)["customer"]["id"])')
  upcs=$(curl -fsS "http://127.0.0.1:$1/v1/beers?pageSize=2" |
         python3 -c 'import json,sys; print(" ".join(b["upc"] for b in json.load(sys.stdin)["content"]))')
  client=$(curl -fsS -H "Authorization: Bearer $3" -H 'Content-Type: application/json' -X POST \
           "http://127.0.0.1:$2/admin/v1/clients" \
           -d '{"client_name":"bench","grant_types":["client_credentials"],"scope":"orders:read"}' |
           python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["client_id"], d["client_secret"])')
  echo "$customer $upcs $client"
}
orders_on() { # PORT CONNECTIONS CUSTOMER UPC1 UPC2
  GH_CUSTOMER="$3" GH_UPC1="$4" GH_UPC2="$5" run_wrk "http://127.0.0.1:$1" "$2" -s tests/bench/orders.lua
}
token_on() { # PORT CONNECTIONS CLIENT SECRET
  GH_PATH=/oauth2/token GH_AUTH="Basic $(printf '%s:%s' "$3" "$4" | base64 -w0)" \
    GH_FORM="grant_type=client_credentials&scope=orders%3Aread" \
    run_wrk "http://127.0.0.1:$1" "$2" -s tests/bench/form.lua
}
median() { python3 -c 'import statistics,sys; print(f"{statistics.median(map(float, sys.argv[1:])):.2f}")' "$@"; }

# Gatehouse on PostgreSQL beside the one on SQLite: the same catalog, a customer and a
# confidential client in each, then POST order and client_credentials in alternating pairs.
scenario_storage() {
  install_missing postgresql libqt6sql6-psql
  GATEHOUSE_PG_DURABLE=1 bash tests/postgres/server.sh start "$work/pg" >&2
  local base pg_url
  base=$(cat "$work/pg/url")
  createdb --maintenance-db "$base" bench
  pg_url="${base/\/postgres\?//bench?}"
  QT_LOGGING_RULES="gatehouse.access=false" "$BUILD_DIR/app/gatehouse" --headless --data-dir "$work/pgdata" \
    --database "$pg_url" --service-port 0 --cluster-port 0 --admin-port 0 --webhook-allow-loopback \
    >"$work/gatehouse-pg.log" 2>&1 &
  pg_gh_pid=$!
  for _ in $(seq 1 100); do [ -f "$work/pgdata/ports.json" ] && break; sleep 0.1; done
  [ -f "$work/pgdata/ports.json" ] || { echo "gatehouse on PostgreSQL did not start:" >&2; cat "$work/gatehouse-pg.log" >&2; exit 1; }
  local p_port p_admin p_token
  p_port=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["service"])' "$work/pgdata/ports.json")
  p_admin=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["admin"])' "$work/pgdata/ports.json")
  p_token=$(cat "$work/pgdata/admin-token")
  local s_cust s_u1 s_u2 s_id s_secret p_cust p_u1 p_u2 p_id p_secret
  read -r s_cust s_u1 s_u2 s_id s_secret < <(setup_instance "$gh_port" "$gh_admin" "$gh_token")
  read -r p_cust p_u1 p_u2 p_id p_secret < <(setup_instance "$p_port" "$p_admin" "$p_token")
  export GH_CALLBACK="http://127.0.0.1:$nginx_port/hooks"
  # Each run starts with both instances quiet: the lifecycle and deliveries of the orders of
  # the run before (several seconds of work on either engine) would otherwise share the cores
  # with the next run, on whichever instance it measures.
  quiet() { wait_quiet "$p_admin" "$p_token" && wait_quiet "$gh_admin" "$gh_token"; }
  local i kind ratios_o=() ratios_t=()
  for ((i = 1; i <= ROUNDS; ++i)); do
    quiet
    read -r p_rps p_p50 p_p99 p_err < <(orders_on "$p_port" 16 "$p_cust" "$p_u1" "$p_u2")
    quiet
    read -r s_rps s_p50 s_p99 s_err < <(orders_on "$gh_port" 16 "$s_cust" "$s_u1" "$s_u2")
    require_ok "POST order, storage round $i" "gatehouse on PostgreSQL" "$p_err" "gatehouse on SQLite" "$s_err"
    row "POST order on PostgreSQL (round $i)" 16 "$p_rps" "$p_p50" "$p_p99" "same on SQLite" "$s_rps" "$s_p50" "$s_p99"
    ratios_o+=("$(python3 -c "print($p_rps/$s_rps)")")
    quiet
    read -r p_rps p_p50 p_p99 p_err < <(token_on "$p_port" 16 "$p_id" "$p_secret")
    read -r s_rps s_p50 s_p99 s_err < <(token_on "$gh_port" 16 "$s_id" "$s_secret")
    require_ok "client_credentials, storage round $i" "gatehouse on PostgreSQL" "$p_err" "gatehouse on SQLite" "$s_err"
    row "client_credentials RS256 on PostgreSQL (round $i)" 16 "$p_rps" "$p_p50" "$p_p99" "same on SQLite" "$s_rps" "$s_p50" "$s_p99"
    ratios_t+=("$(python3 -c "print($p_rps/$s_rps)")")
  done
  printf "| POST order on PostgreSQL, median of %s rounds | 16 | | | | same on SQLite | | | | **%s** |\n" \
    "$ROUNDS" "$(median "${ratios_o[@]}")"
  printf "| client_credentials RS256 on PostgreSQL, median of %s rounds | 16 | | | | same on SQLite | | | | **%s** |\n" \
    "$ROUNDS" "$(median "${ratios_t[@]}")"
}

# Three instances of one database behind nginx against one behind the same recipe
# (deploy/run-local.sh, each fleet on a database and ports of its own), both on one PostgreSQL
# server; measured through nginx, alternating.
scenario_fleet() {
  install_missing postgresql libqt6sql6-psql nginx libnginx-mod-stream
  GATEHOUSE_PG_DURABLE=1 bash tests/postgres/server.sh start "$work/pg" >&2
  local base n port dir svc adm token
  base=$(cat "$work/pg/url")
  declare -A f_svc f_cust f_u1 f_u2 f_id f_secret
  local k f_quiet=() # "ADMIN_PORT TOKEN" of every instance of both fleets
  for n in 1 3; do
    createdb --maintenance-db "$base" "fleet$n"
    # A base port whose front ports and instance ports (deploy/run-local.sh) are all free.
    port=$(python3 - "$n" <<'PY'
import random, socket, sys
n = int(sys.argv[1])
for _ in range(100):
    base = random.randrange(20000, 50000)
    try:
        for p in [base, base + 1, base + 2] + [base + 10 + i for i in range(3 * n)]:
            s = socket.socket(); s.bind(("127.0.0.1", p)); s.close()
        print(base); break
    except OSError:
        continue
PY
)
    dir="$work/fleet$n"
    GATEHOUSE_PORT_BASE=$port GATEHOUSE_INSTANCES=$n GATEHOUSE_BINARY="$here/$BUILD_DIR/app/gatehouse" \
      GATEHOUSE_DATABASE="${base/\/postgres\?//fleet$n?}" GATEHOUSE_ARGS="--webhook-allow-loopback" \
      QT_LOGGING_RULES="gatehouse.access=false" bash deploy/run-local.sh "$dir" >"$work/fleet$n.log" 2>&1 &
    fleet_pids+=($!)
    for _ in $(seq 1 600); do grep -q '^==> ready' "$work/fleet$n.log" && break; sleep 0.2; done
    grep -q '^==> ready' "$work/fleet$n.log" || { echo "the fleet of $n did not start:" >&2; tail -20 "$work/fleet$n.log" >&2; exit 1; }
    svc=$port; adm=$((port + 1)); token=$(cat "$dir/instance-1/admin-token")
    f_svc[$n]=$svc
    # Each instance's own admin listener (deploy/run-local.sh: BASE + 10 + 3 (k - 1) + 1).
    for ((k = 1; k <= n; ++k)); do
      f_quiet+=("$((port + 10 + 3 * (k - 1) + 1)) $(cat "$dir/instance-$k/admin-token")")
    done
    read -r "f_cust[$n]" "f_u1[$n]" "f_u2[$n]" "f_id[$n]" "f_secret[$n]" < <(setup_instance "$svc" "$adm" "$token")
  done
  export GH_CALLBACK="http://127.0.0.1:$nginx_port/hooks"
  # Each run starts with every instance of both fleets quiet (as in the storage scenario).
  quiet_fleets() {
    local q
    for q in "${f_quiet[@]}"; do wait_quiet $q; done
  }
  local i c ratios_o=() ratios_t=() t_rps t_p50 t_p99 t_err o_rps o_p50 o_p99 o_err
  for ((i = 1; i <= ROUNDS; ++i)); do
    for c in 16 64; do
      quiet_fleets
      read -r t_rps t_p50 t_p99 t_err < <(orders_on "${f_svc[3]}" "$c" "${f_cust[3]}" "${f_u1[3]}" "${f_u2[3]}")
      quiet_fleets
      read -r o_rps o_p50 o_p99 o_err < <(orders_on "${f_svc[1]}" "$c" "${f_cust[1]}" "${f_u1[1]}" "${f_u2[1]}")
      require_ok "POST order, fleet round $i" "three instances" "$t_err" "one instance" "$o_err"
      row "POST order, three instances behind nginx (round $i)" "$c" "$t_rps" "$t_p50" "$t_p99" "one instance behind nginx" "$o_rps" "$o_p50" "$o_p99"
      ratios_o+=("$(python3 -c "print($t_rps/$o_rps)")")
      quiet_fleets
      read -r t_rps t_p50 t_p99 t_err < <(token_on "${f_svc[3]}" "$c" "${f_id[3]}" "${f_secret[3]}")
      read -r o_rps o_p50 o_p99 o_err < <(token_on "${f_svc[1]}" "$c" "${f_id[1]}" "${f_secret[1]}")
      require_ok "client_credentials, fleet round $i" "three instances" "$t_err" "one instance" "$o_err"
      row "client_credentials RS256, three instances behind nginx (round $i)" "$c" "$t_rps" "$t_p50" "$t_p99" "one instance behind nginx" "$o_rps" "$o_p50" "$o_p99"
      ratios_t+=("$(python3 -c "print($t_rps/$o_rps)")")
    done
  done
  printf "| POST order, three instances, median of %s runs | 16, 64 | | | | one instance | | | | **%s** |\n" \
    "${#ratios_o[@]}" "$(median "${ratios_o[@]}")"
  printf "| client_credentials RS256, three instances, median of %s runs | 16, 64 | | | | one instance | | | | **%s** |\n" \
    "${#ratios_t[@]}" "$(median "${ratios_t[@]}")"
}

case "$ONLY" in
  storage) scenario_storage ;;
  fleet) scenario_fleet ;;
  all) scenario_healthz; scenario_orders; scenario_webhooks; scenario_oauth; scenario_cluster ;;
  cluster) scenario_cluster ;;
  oauth) scenario_oauth ;;
  healthz) scenario_healthz ;;
  orders) scenario_orders ;;
  webhooks) scenario_webhooks ;;
esac
echo "(wrk -t1, $DURATION per run, $(nproc) cores shared by client and servers)"
