import path from "node:path";
import { defineConfig } from "vitest/config";

// One vitest run for every package: unit tests beside pure code, integration tests that open a
// database each (a temp SQLite file, or a PostgreSQL database with SOLSERVER_TEST_POSTGRES_URL).
// e2e (Playwright) runs separately against a built server.
const INCLUDE = [
  "packages/*/test/**/*.test.ts",
  "packages/*/src/**/*.test.ts",
  "apps/web/test/**/*.test.ts",
  // Rules over the whole tree (test/): every product regex is linear.
  "test/**/*.test.ts",
];
// Tests that need a PostgreSQL server (test/postgres/ folders) join the run when
// SOLSERVER_TEST_POSTGRES_URL names one (scripts/test-all.sh starts a throwaway cluster).
const EXCLUDE = [
  "**/node_modules/**",
  ...(process.env.SOLSERVER_TEST_POSTGRES_URL ? [] : ["packages/*/test/postgres/**", "apps/web/test/postgres/**"]),
];
const ISOLATED = ["packages/resolve/test/**/*.test.ts", "apps/web/test/**/*.test.ts"];

export default defineConfig({
  resolve: {
    alias: {
      "@/": `${path.resolve(import.meta.dirname, "apps/web/src")}/`,
      // Next's guard module throws outside React Server Components; tests call handlers directly.
      "server-only": path.resolve(import.meta.dirname, "apps/web/test/server-only-stub.ts"),
    },
  },
  test: {
    // Bounds, not expectations (no test asserts a duration): generous enough for a machine whose
    // load is many times its cores, where a multi-process race or a suite's set-up takes minutes.
    testTimeout: 120_000,
    hookTimeout: 180_000,
    pool: "forks",
    // Vitest's default on a 2-core machine is one worker (cores - 1); integration files spend much
    // of their time waiting on the database and in module loading, so two overlap well.
    maxWorkers: 2,
    projects: [
      // Most files share their worker's modules: loading the control plane once per worker instead
      // of once per file halves the run. Each of these files opens its own database and passes its
      // settings in, so nothing of one file reaches the next.
      { extends: true, test: { name: "shared", include: INCLUDE, exclude: [...EXCLUDE, ...ISOLATED], isolate: false } },
      // Files that need fresh modules: resolve's tests mock the shipped decision rule, and the web
      // suites point the server's environment singleton at their own database.
      { extends: true, test: { name: "isolated", include: ISOLATED, exclude: EXCLUDE } },
    ],
  },
});
