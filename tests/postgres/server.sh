#!/usr/bin/env bash
# A throwaway PostgreSQL for the tests: `start DIR` creates a cluster (initdb) in a new
# temporary directory, starts it and writes the URL of its maintenance database to DIR/url
# (and the cluster's directory to DIR/cluster); `stop DIR` stops it and removes both. As root,
# PostgreSQL runs as the user `postgres` (Debian's package creates it; the server refuses to
# run as root), so the cluster lives under /tmp where that user can reach it.
#
# No TCP at all: the server listens on a Unix socket in the cluster's own directory (0700, the
# server's user's), so only that user and root reach it, and trust authentication opens it to
# nobody else. No fsync: nothing here outlives the test run.
#
#   bash tests/postgres/server.sh start build/pg
#   cat build/pg/url                       # postgresql:///postgres?host=/tmp/gatehouse-pg.XXXXXX&user=gatehouse
#   createdb --maintenance-db "$(cat build/pg/url)" mydb   # then .../mydb?host=...&user=gatehouse
#   bash tests/postgres/server.sh stop build/pg
set -euo pipefail

usage() {
  echo "usage: bash tests/postgres/server.sh start|stop DIR" >&2
  exit 2
}
[ $# -eq 2 ] || usage
cmd="$1"
dir="$2"

# The newest version whose server is installed (postgresql-client alone has bin/ too).
bin="$(ls -d /usr/lib/postgresql/*/bin/initdb 2>/dev/null | sort -V | tail -1)"
bin="${bin%/initdb}"
if [ -z "$bin" ]; then
  echo "PostgreSQL's server programs are missing (Debian: apt-get install postgresql)" >&2
  exit 1
fi

owner=""
if [ "$(id -u)" = 0 ]; then
  owner=postgres
  id "$owner" >/dev/null 2>&1 || {
    echo "running as root needs the user 'postgres' (Debian's postgresql package creates it)" >&2
    exit 1
  }
fi
as_owner() {
  if [ -n "$owner" ]; then runuser -u "$owner" -- "$@"; else "$@"; fi
}

stop_cluster() {
  local cluster="$1"
  [ -n "$cluster" ] && [ -e "$cluster" ] || return 0
  # Only a directory mktemp made here, and this user's (or the server's owner's): the pointer
  # file is read from a directory another user might have prepared
  # ("/tmp/gatehouse-pg.x/../elsewhere" was removed, as root).
  if ! [[ "$cluster" =~ ^/tmp/gatehouse-pg\.[A-Za-z0-9]{6}$ ]] || [ ! -d "$cluster" ] ||
     [ -L "$cluster" ] ||
     ! { [ -O "$cluster" ] || [ "$(stat -c %U "$cluster")" = "${owner:-$(id -un)}" ]; }; then
    echo "not stopping or removing $cluster: not a server directory of this script's" >&2
    return 0
  fi
  if [ -f "$cluster/data/postmaster.pid" ]; then
    as_owner "$bin/pg_ctl" -D "$cluster/data" -m fast -w stop >/dev/null 2>&1 || true
  fi
  rm -rf "$cluster"
}

case "$cmd" in
  start)
    # A cluster an earlier run left behind (a killed ctest) goes first.
    [ ! -f "$dir/cluster" ] || stop_cluster "$(cat "$dir/cluster")"
    rm -rf "$dir"
    mkdir -p "$dir"
    cluster="$(mktemp -d /tmp/gatehouse-pg.XXXXXX)"
    echo "$cluster" >"$dir/cluster"
    [ -z "$owner" ] || chown "$owner" "$cluster"
    as_owner "$bin/initdb" -D "$cluster/data" -U gatehouse -A trust -E UTF8 --locale=C.UTF-8 \
      --no-sync >"$cluster/initdb.log" 2>&1 || {
      cat "$cluster/initdb.log" >&2
      exit 1
    }
    # Many backends at once (each test starts its own Gatehouse, each with a connection per
    # thread), and no durability: the tests never crash the database server itself. With
    # GATEHOUSE_PG_DURABLE=1 (the benchmarks), what SQLite's WAL with synchronous=NORMAL
    # gives: the WAL written and synced by PostgreSQL, commits not waiting for the sync.
    durability="-c fsync=off -c synchronous_commit=off -c full_page_writes=off"
    [ "${GATEHOUSE_PG_DURABLE:-0}" = 0 ] || durability="-c synchronous_commit=off"
    as_owner "$bin/pg_ctl" -D "$cluster/data" -l "$cluster/server.log" -w -t 60 start -o \
      "-c listen_addresses= -k $cluster -c max_connections=500 $durability -c shared_buffers=128MB" \
      >/dev/null || {
      cat "$cluster/server.log" >&2
      exit 1
    }
    echo "postgresql:///postgres?host=$cluster&user=gatehouse" >"$dir/url"
    echo "PostgreSQL $("$bin/postgres" --version | awk '{print $3}') on a Unix socket in $cluster"
    ;;
  stop)
    [ ! -f "$dir/cluster" ] || stop_cluster "$(cat "$dir/cluster")"
    rm -rf "$dir"
    ;;
  *) usage ;;
esac
