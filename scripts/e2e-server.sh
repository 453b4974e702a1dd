#!/usr/bin/env bash
# The server Playwright tests against: a fresh database with demo data, then the built app.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$ROOT"
db="$ROOT/.data/e2e.db"
rm -f "$db" "$db-wal" "$db-shm"
export DATABASE_URL="file:$db"
pnpm --silent db:seed
exec pnpm --filter @solserver/web start
