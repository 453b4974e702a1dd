#!/usr/bin/env bash
# The server Playwright tests against: a fresh database with demo data, then the built app.
# SQLite by default; E2E_DATABASE_URL=postgresql://… (a database that does not exist yet: it is
# created and migrated) runs the same server on PostgreSQL.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$ROOT"
if [[ -n "${E2E_DATABASE_URL:-}" ]]; then
  export DATABASE_URL="$E2E_DATABASE_URL"
else
  db="$ROOT/.data/e2e.db"
  rm -f "$db" "$db-wal" "$db-shm"
  export DATABASE_URL="file:$db"
fi
# The workflows spec's webhook receiver listens on 127.0.0.1 beside the tests.
export SOLSERVER_WORKFLOW_WEBHOOKS_PRIVATE=1
# Streamed answers arrive slowly enough for a browser test to watch them grow.
export SOLSERVER_OFFLINE_STREAM_DELAY_MS="${SOLSERVER_OFFLINE_STREAM_DELAY_MS:-40}"
pnpm --silent db:seed
# The demo knowledge's vectors exist before the first turn (the server would embed them in the
# background at start-up, racing the first test).
pnpm --silent embeddings
exec pnpm --filter @solserver/web start
