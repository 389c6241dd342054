#!/usr/bin/env bash
# Benchmark harness: builds Release, starts `gatehouse --headless` on ephemeral ports with
# a temporary data dir, runs wrk scenarios against it and against a peer measured in the
# same run, and prints a table with req/s, p50, p99 and the ratio to the peer.
#
#   bash tests/bench/run.sh                 all scenarios, 10 s each
#   BENCH_DURATION=30s bash tests/bench/run.sh healthz
#
# Scenarios (later issues add more): healthz — GET /healthz vs nginx-light returning a
# static body, keep-alive, c16 and c64.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$here"
DURATION="${BENCH_DURATION:-10s}"
BUILD_DIR="${BENCH_BUILD_DIR:-build-release}"
ONLY="${1:-all}"

need_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }
for p in wrk nginx-light; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    need_root apt-get update -qq
    need_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$p"
  fi
done

echo "==> building Release in $BUILD_DIR" >&2
cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release -DGATEHOUSE_BUILD_TESTS=OFF -DGATEHOUSE_BUILD_CONSOLE=OFF >/dev/null
cmake --build "$BUILD_DIR" -j "$(nproc)" --target gatehouse >&2

work="$(mktemp -d)"
gh_pid=""; nginx_pid=""
cleanup() {
  [ -n "$gh_pid" ] && kill "$gh_pid" 2>/dev/null && wait "$gh_pid" 2>/dev/null || true
  [ -n "$nginx_pid" ] && kill "$nginx_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

QT_LOGGING_RULES="gatehouse.access=false" "$BUILD_DIR/app/gatehouse" --headless --data-dir "$work/data" \
  --service-port 0 --cluster-port 0 --admin-port 0 >"$work/gatehouse.log" 2>&1 &
gh_pid=$!
for _ in $(seq 1 100); do [ -f "$work/data/ports.json" ] && break; sleep 0.1; done
[ -f "$work/data/ports.json" ] || { echo "gatehouse did not start:" >&2; cat "$work/gatehouse.log" >&2; exit 1; }
gh_port=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["service"])' "$work/data/ports.json")

nginx_port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
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
  }
}
CONF
nginx -c "$work/nginx/nginx.conf" -p "$work/nginx" &
nginx_pid=$!
for _ in $(seq 1 50); do curl -fs "http://127.0.0.1:$nginx_port/healthz" >/dev/null 2>&1 && break; sleep 0.1; done

# run_wrk URL CONNECTIONS -> "rps p50ms p99ms"
run_wrk() {
  local out
  out=$(wrk -t1 -c"$2" -d"$DURATION" --latency "$1")
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
errs = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
print(f"{rps:.0f} {p50:.3f} {p99:.3f} {errs.group(1) if errs else 0}")
PY
}

printf "| scenario | conns | gatehouse req/s | p50 ms | p99 ms | peer | peer req/s | p50 ms | p99 ms | ratio |\n"
printf "|---|---|---|---|---|---|---|---|---|---|\n"
scenario_healthz() {
  for c in 16 64; do
    read -r g_rps g_p50 g_p99 g_err < <(run_wrk "http://127.0.0.1:$gh_port/healthz" "$c")
    read -r n_rps n_p50 n_p99 n_err < <(run_wrk "http://127.0.0.1:$nginx_port/healthz" "$c")
    [ "$g_err" = 0 ] || echo "warning: gatehouse answered $g_err non-2xx responses" >&2
    ratio=$(python3 -c "print(f'{$g_rps/$n_rps:.2f}')")
    printf "| GET /healthz keep-alive | %s | %s | %s | %s | nginx-light | %s | %s | %s | %s |\n" \
      "$c" "$g_rps" "$g_p50" "$g_p99" "$n_rps" "$n_p50" "$n_p99" "$ratio"
  done
}
case "$ONLY" in
  all|healthz) scenario_healthz ;;
  *) echo "unknown scenario $ONLY (known: healthz)" >&2; exit 2 ;;
esac
echo "(wrk -t1, $DURATION per run, $(nproc) cores shared by client and servers)"
