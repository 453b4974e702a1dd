#!/usr/bin/env bash
# Quick start: install, migrate the embedded SQLite database, load demo data (and embed it for the
# sentence model: search by meaning), build and serve
# the dashboard on http://localhost:3000 (PORT and HOST override; DATABASE_URL picks the file).
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$ROOT"

ensure_pnpm
ensure_dependencies
export DATABASE_URL="${DATABASE_URL:-file:$ROOT/.data/solserver.db}"
say "database: $DATABASE_URL"
pnpm --silent db:seed
pnpm --silent embeddings
say "building the web app"
pnpm --filter @solserver/web build >/tmp/solserver-build.log 2>&1 || { cat /tmp/solserver-build.log; exit 1; }
export PORT="${PORT:-3000}" HOST="${HOST:-127.0.0.1}"
say "Solserver is starting on http://localhost:${PORT} (Ctrl-C stops it)"
exec pnpm --filter @solserver/web start
