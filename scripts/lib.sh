# Shared helpers for the scripts in this folder. Sourced, not run.
PNPM_VERSION=10.34.9
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

say() { printf '\n==> %s (%s)\n' "$*" "$(date +%T)"; }

# pnpm 10 from the npm registry (corepack cannot verify signatures on this network).
ensure_pnpm() {
  if command -v pnpm >/dev/null 2>&1 && [[ "$(pnpm --version)" == 10.* ]]; then return; fi
  say "installing pnpm@${PNPM_VERSION} with npm"
  npm install -g "pnpm@${PNPM_VERSION}" >/dev/null
}

# Dependencies (better-sqlite3 compiles against the local Node headers) and the Prisma client.
ensure_dependencies() {
  say "installing dependencies"
  (cd "$ROOT" && npm_config_nodedir="${npm_config_nodedir:-/usr}" pnpm install --frozen-lockfile)
}
export TURBO_TELEMETRY_DISABLED=1 NEXT_TELEMETRY_DISABLED=1
