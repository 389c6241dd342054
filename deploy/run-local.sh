#!/usr/bin/env bash
# Several headless Gatehouse instances on one PostgreSQL database behind nginx, on this machine,
# for trying it out (deploy/README.md). One command:
#
#   bash deploy/run-local.sh [DIR]
#
# installs what is missing (nginx with its stream module, PostgreSQL 15), builds gatehouse if
# there is none, and starts, all listening on 127.0.0.1:
#   - a throwaway PostgreSQL server in DIR/postgres (unless GATEHOUSE_DATABASE names one);
#   - GATEHOUSE_INSTANCES (3) instances, DIR/instance-N, sharing one database key and one admin
#     token, believing nginx's X-Forwarded-For (--trusted-proxies 127.0.0.1, the address nginx
#     connects from; a client on 127.0.0.1 itself may name any address, so clients that should
#     count as themselves connect from elsewhere, e.g. 127.0.0.2);
#   - nginx (DIR/nginx): the service and admin listeners as HTTP load balancers, the cluster
#     listener as a TCP pass-through (client certificates reach Gatehouse).
# It writes DIR/fleet.json (URLs, the instances' ports and pids, the admin token's file) and runs
# until SIGINT/SIGTERM (Ctrl-C), then stops everything it started.
#
# Environment: GATEHOUSE_PORT_BASE (18080: service, +1 admin, +2 cluster; the instances from
# +10 on), GATEHOUSE_INSTANCES (3), GATEHOUSE_BINARY (build/app/gatehouse, built if missing),
# GATEHOUSE_DATABASE (a postgresql:// URL: used instead of a server of its own), GATEHOUSE_ARGS
# (more arguments for every instance, split on spaces).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DIR="${1:-$(mktemp -d "${TMPDIR:-/tmp}/gatehouse-fleet.XXXXXX")}"
# A DIR that already exists must be the caller's and closed to others: what is in it (nginx's
# pid file and configuration, the instances' logs, the PostgreSQL pointer) is acted on here,
# by whoever runs this (root, often).
if [ -e "$DIR" ] && { [ ! -d "$DIR" ] || [ -L "$DIR" ] || [ ! -O "$DIR" ] ||
                      [ -n "$(find "$DIR" -maxdepth 0 -perm /022)" ]; }; then
  echo "$DIR is not a directory of this user's that others cannot write: choose another" >&2
  exit 2
fi
mkdir -p "$DIR"
chmod 700 "$DIR"
DIR="$(cd "$DIR" && pwd)"
BASE="${GATEHOUSE_PORT_BASE:-18080}"
COUNT="${GATEHOUSE_INSTANCES:-3}"
BIN="${GATEHOUSE_BINARY:-$here/build/app/gatehouse}"
read -r -a EXTRA <<<"${GATEHOUSE_ARGS:-}"

# shellcheck source=scripts/packages.sh
source "$here/scripts/packages.sh"
install_missing nginx libnginx-mod-stream postgresql
if [ ! -x "$BIN" ]; then
  install_missing "${BUILD_PACKAGES[@]}"
  echo "==> building gatehouse (build/)"
  cmake -S "$here" -B "$here/build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DGATEHOUSE_BUILD_TESTS=OFF >/dev/null
  cmake --build "$here/build" -j "$(nproc)"
fi
NGINX_STREAM=/usr/lib/nginx/modules/ngx_stream_module.so
[ -f "$NGINX_STREAM" ] || { echo "nginx's stream module is missing ($NGINX_STREAM)" >&2; exit 1; }

pids=()
pg_started=""
stop_all() {
  trap - INT TERM EXIT
  echo "==> stopping"
  if [ -f "$DIR/nginx/nginx.pid" ]; then kill "$(cat "$DIR/nginx/nginx.pid")" 2>/dev/null || true; fi
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  if [ -n "$pg_started" ]; then bash "$here/tests/postgres/server.sh" stop "$DIR/postgres" || true; fi
}
trap stop_all INT TERM EXIT

# --- PostgreSQL -------------------------------------------------------------------------------
if [ -n "${GATEHOUSE_DATABASE:-}" ]; then
  DATABASE="$GATEHOUSE_DATABASE"
else
  echo "==> PostgreSQL in $DIR/postgres"
  bash "$here/tests/postgres/server.sh" start "$DIR/postgres"
  pg_started=1
  maintenance="$(cat "$DIR/postgres/url")"
  createdb --maintenance-db "$maintenance" gatehouse
  DATABASE="${maintenance/\/postgres\?//gatehouse?}"
fi

# --- the instances ------------------------------------------------------------------------------
wait_for_file() { # file pid
  for _ in $(seq 1 600); do
    [ -s "$1" ] && return 0
    kill -0 "$2" 2>/dev/null || { echo "an instance ended at start (see its log)" >&2; return 1; }
    sleep 0.1
  done
  echo "timed out waiting for $1" >&2
  return 1
}
SERVICE_URL="http://127.0.0.1:$BASE"
instances_json=""
for n in $(seq 1 "$COUNT"); do
  data="$DIR/instance-$n"
  mkdir -p "$data"
  chmod 700 "$data"
  port=$((BASE + 10 + 3 * (n - 1)))
  if [ "$n" -gt 1 ]; then
    # The same root admin token on every instance, so that the admin listener behind nginx
    # takes it whichever instance answers (scoped tokens live in the database anyway).
    install -m 600 "$DIR/instance-1/admin-token" "$data/admin-token"
  fi
  # The database URL (with its password) in the environment, not on the command line that
  # every local user can read in /proc.
  args=(--headless --data-dir "$data"
        --service-port "$port" --admin-port $((port + 1)) --cluster-port $((port + 2))
        --public-base-url "$SERVICE_URL" --trusted-proxies 127.0.0.1 "${EXTRA[@]}")
  # Every instance seals with one key: the first one's, made at its start.
  [ "$n" -gt 1 ] && args+=(--database-key-file "$DIR/database-key")
  rm -f "$data/ports.json"
  rm -f "$data/log"
  GATEHOUSE_DATABASE="$DATABASE" "$BIN" "${args[@]}" >"$data/log" 2>&1 &
  pids+=($!)
  wait_for_file "$data/ports.json" "$!" || { tail -20 "$data/log" >&2; exit 1; }
  if [ "$n" -eq 1 ]; then
    install -m 600 "$data/database-key" "$DIR/database-key"
  fi
  echo "==> instance $n: pid $!, service $port, admin $((port + 1)), cluster $((port + 2))"
  instances_json+="${instances_json:+,}{\"pid\":$!,\"dataDir\":\"$data\",\"service\":$port,\"admin\":$((port + 1)),\"cluster\":$((port + 2))}"
done

# --- nginx --------------------------------------------------------------------------------------
mkdir -p "$DIR/nginx/tmp"
upstream() { # offset from an instance's service port
  for n in $(seq 1 "$COUNT"); do
    echo "    server 127.0.0.1:$((BASE + 10 + 3 * (n - 1) + $1)) max_fails=3 fail_timeout=5s;"
  done
}
sed -e "s|@DIR@|$DIR/nginx|g" -e "s|@STREAM_MODULE@|$NGINX_STREAM|g" \
    -e "s|@SERVICE_PORT@|$BASE|g" -e "s|@ADMIN_PORT@|$((BASE + 1))|g" \
    -e "s|@CLUSTER_PORT@|$((BASE + 2))|g" \
    "$here/deploy/nginx.conf.in" >"$DIR/nginx/nginx.conf.tmp"
# The upstreams' servers, one line each, in place of their markers.
awk -v service="$(upstream 0)" -v admin="$(upstream 1)" -v cluster="$(upstream 2)" '
  /@SERVICE_SERVERS@/ { print service; next }
  /@ADMIN_SERVERS@/ { print admin; next }
  /@CLUSTER_SERVERS@/ { print cluster; next }
  { print }' "$DIR/nginx/nginx.conf.tmp" >"$DIR/nginx/nginx.conf"
rm "$DIR/nginx/nginx.conf.tmp"
nginx -p "$DIR/nginx" -c "$DIR/nginx/nginx.conf" -e "$DIR/nginx/error.log"

cat >"$DIR/fleet.json" <<EOF
{"service":"$SERVICE_URL","admin":"http://127.0.0.1:$((BASE + 1))","cluster":"https://127.0.0.1:$((BASE + 2))",
 "adminTokenFile":"$DIR/instance-1/admin-token","clusterCa":"$DIR/instance-1/pki/ca.crt",
 "database":"$(echo "$DATABASE" | sed -E 's|://([^:@/]*):[^@]*@|://\1@|')","instances":[$instances_json]}
EOF
echo "==> ready ($DIR/fleet.json)"
echo "    service  $SERVICE_URL"
echo "    admin    http://127.0.0.1:$((BASE + 1))   (token: $DIR/instance-1/admin-token)"
echo "    cluster  https://127.0.0.1:$((BASE + 2))  (CA: $DIR/instance-1/pki/ca.crt)"
echo "    Ctrl-C stops all"
# Until a signal, or until every instance ended.
wait "${pids[@]}" || true
