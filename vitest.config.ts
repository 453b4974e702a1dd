import path from "node:path";
import { defineConfig } from "vitest/config";

// One vitest run for every package: unit tests beside pure code, integration tests that open a
// temp SQLite file each. e2e (Playwright) runs separately against a built server.
export default defineConfig({
  resolve: {
    alias: {
      "@/": `${path.resolve(import.meta.dirname, "apps/web/src")}/`,
      // Next's guard module throws outside React Server Components; tests call handlers directly.
      "server-only": path.resolve(import.meta.dirname, "apps/web/test/server-only-stub.ts"),
    },
  },
  test: {
    include: ["packages/*/test/**/*.test.ts", "packages/*/src/**/*.test.ts", "apps/web/test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
  },
});
