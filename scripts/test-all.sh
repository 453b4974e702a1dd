#!/usr/bin/env bash
# Every test: lint, types, drift, unit + integration (vitest) on SQLite and what differs between
# the dialects again on PostgreSQL, e2e (Playwright in Chromium) on SQLite plus a smoke run on
# PostgreSQL. PostgreSQL is a throwaway cluster on 127.0.0.1 (scripts/postgres-cluster.sh
# installs Debian's package when missing), stopped and deleted at the end. Prints a closing
# "N passed, N failed" line over all suites; exits non-zero on any failure.
set -uo pipefail
source "$(dirname "$0")/lib.sh"
cd "$ROOT"
set -e
ensure_pnpm
ensure_dependencies
bash scripts/ensure-chromium.sh
set +e

# The browser journeys that cross every layer, again on PostgreSQL: sign-in, the knowledge loop
# (chat, proposal, approval, retrieval), the REST API, streaming and workflows with schedules.
POSTGRES_SMOKE_SPECS=(tests/auth.spec.ts tests/knowledge-loop.spec.ts tests/rest-api.spec.ts
  tests/streaming.spec.ts tests/workflow-schedule.spec.ts)

# What differs between the dialects, run again on PostgreSQL: every query (packages/db is the
# only code that queries), the suites that need a server (test/postgres/ folders), and the suites
# whose outcome rests on the database's locking and transactions (races on one proposal, leases,
# schedule claims, memento versions, the pool behind load shedding). The other suites go through
# the same repositories and would test nothing new a second time.
DATABASE_SUITES=(packages/db packages/control-plane/test/postgres apps/web/test/postgres
  packages/control-plane/test/promotion-race.test.ts packages/control-plane/test/promotion-actions.test.ts
  apps/web/test/stale-decisions.test.ts packages/control-plane/test/workflow-workers.test.ts
  packages/control-plane/test/schedules.test.ts packages/control-plane/test/turn-pipeline.test.ts
  apps/web/test/load-shedding.test.ts packages/control-plane/test/claim-completeness.test.ts)

results="$ROOT/.test-results"
rm -rf "$results" && mkdir -p "$results"
status=0
failed_steps=()
step_failed() { status=1; failed_steps+=("$1"); }

say "lint (biome, knip)"
pnpm --silent lint || step_failed lint
say "typecheck (tsc, every package)"
pnpm --silent typecheck || step_failed typecheck
say "unit + integration tests on SQLite (vitest)"
pnpm exec vitest run --reporter=default --reporter=json --outputFile.json="$results/vitest.json" || step_failed vitest
say "PostgreSQL: a throwaway cluster on 127.0.0.1"
pg_dir="$(mktemp -d /tmp/solserver-test-pg-XXXXXX)"
stop_postgres() { bash scripts/postgres-cluster.sh stop "$pg_dir" >/dev/null 2>&1 || true; rm -rf "$pg_dir"; }
trap stop_postgres EXIT
# fsync off: a test cluster that is thrown away needs no durability, and it halves commit time.
pg_admin="$(PG_FSYNC=off bash scripts/postgres-cluster.sh start "$pg_dir" auto)" || { pg_admin=""; step_failed postgres; }
echo "$pg_admin"

# The browser tests spend most of their time waiting on pages, so the PostgreSQL vitest run goes
# beside them (its output is shown once they end): about 40 s less on a 2-core machine.
if [[ -n "$pg_admin" ]]; then
  SOLSERVER_TEST_POSTGRES_URL="$pg_admin" pnpm exec vitest run --reporter=dot --reporter=json \
    --outputFile.json="$results/vitest-postgres.json" "${DATABASE_SUITES[@]}" >"$results/vitest-postgres.log" 2>&1 &
  pg_vitest=$!
fi
say "e2e tests on SQLite (Playwright, Chromium)"
PLAYWRIGHT_JSON_OUTPUT_NAME="$results/playwright.json" bash scripts/e2e.sh --reporter=list,json || step_failed e2e

if [[ -n "$pg_admin" ]]; then
  say "unit + integration tests on PostgreSQL (vitest, run beside the e2e tests)"
  wait "$pg_vitest" || step_failed vitest-postgres
  cat "$results/vitest-postgres.log"
  say "e2e smoke on PostgreSQL (Playwright, Chromium)"
  E2E_SKIP_BUILD=1 E2E_DATABASE_URL="${pg_admin%/postgres}/solserver_e2e_$$" \
    PLAYWRIGHT_JSON_OUTPUT_NAME="$results/playwright-postgres.json" \
    bash scripts/e2e.sh --reporter=list,json "${POSTGRES_SMOKE_SPECS[@]}" || step_failed e2e-postgres
fi

say "summary"
((${#failed_steps[@]} == 0)) || echo "failed steps: ${failed_steps[*]}"
node scripts/summarize-tests.mjs "$results" || status=1
exit $status
