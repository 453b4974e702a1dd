import { defineConfig } from "@playwright/test";
import base from "./playwright.config";

// `pnpm screenshots`: the documentation's screenshots, taken from the real app on the demo data
// (docs/screenshots/). Same server and browser as the e2e tests; not part of the test run.
export default defineConfig({
  ...base,
  testDir: "./screenshots",
  testMatch: "*.shots.ts",
  timeout: 60_000,
});
