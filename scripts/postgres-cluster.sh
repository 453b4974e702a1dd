#!/usr/bin/env bash
# A throwaway PostgreSQL cluster on 127.0.0.1 for tests and the deployment guide's walk-through:
#   bash scripts/postgres-cluster.sh start [dir] [port|auto]   installs Debian's postgresql when missing
#     (port defaults to 55432; `auto` takes the first free one from 55433)
#   bash scripts/postgres-cluster.sh stop  [dir]
# Trust authentication on loopback only, run as the unprivileged `postgres` user (initdb refuses
# root). Prints the admin URL on start. Never use this cluster for real data: see docs/deployment.md.
set -euo pipefail
action="${1:?usage: postgres-cluster.sh start|stop [dir] [port]}"
dir="$(realpath -m "${2:-/tmp/solserver-pg}")"
port="${3:-55432}"

bindir() {
  local found
  found="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1 || true)"
  [ -n "$found" ] && echo "$found"
}

as_postgres() {
  if [ "$(id -u)" = "0" ]; then su postgres -s /bin/bash -c "$1"; else bash -c "$1"; fi
}

port_free() { ! (echo >"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

case "$action" in
  start)
    if [ "$port" = "auto" ]; then
      port=55433
      until port_free "$port"; do port=$((port + 1)); done
    fi
    if [ -z "$(bindir)" ]; then
      echo "installing postgresql from apt" >&2
      export DEBIAN_FRONTEND=noninteractive
      apt-get update -qq >/dev/null
      apt-get install -y -qq postgresql >/dev/null
    fi
    bin="$(bindir)"
    # Debian's package starts its own cluster on 5432; this one is separate and loopback-only.
    mkdir -p "$dir"
    [ "$(id -u)" = "0" ] && chown postgres "$dir"
    if [ ! -f "$dir/data/PG_VERSION" ]; then
      as_postgres "$bin/initdb -D '$dir/data' -A trust -U postgres -E UTF8 --locale=C.UTF-8 >'$dir/initdb.log'"
    fi
    if ! as_postgres "$bin/pg_ctl -D '$dir/data' status" >/dev/null 2>&1; then
      # Tests open one database per test file, several files at once: allow plenty of connections.
      as_postgres "$bin/pg_ctl -D '$dir/data' -w -l '$dir/log' -o \"-h 127.0.0.1 -p $port -k '$dir' -c max_connections=400 -c fsync=${PG_FSYNC:-on}\" start" >/dev/null
    fi
    echo "postgresql://postgres@127.0.0.1:$port/postgres"
    ;;
  stop)
    bin="$(bindir)"
    if [ -n "$bin" ] && [ -f "$dir/data/PG_VERSION" ]; then
      as_postgres "$bin/pg_ctl -D '$dir/data' -m fast stop" >/dev/null 2>&1 || true
    fi
    ;;
  *)
    echo "usage: postgres-cluster.sh start|stop [dir] [port]" >&2
    exit 2
    ;;
esac
