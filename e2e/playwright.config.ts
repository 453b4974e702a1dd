import { defineConfig } from "@playwright/test";

const PORT = Number(process.env.E2E_PORT ?? 3210);
const baseURL = `http://127.0.0.1:${PORT}`;

// Debian's Chromium (no browser download is possible here). The flags keep it from calling
// home: on a closed network those connections only produce noise and delays.
const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

export default defineConfig({
  testDir: "./tests",
  // One server and one database: specs run in order so the queue they see is predictable.
  workers: 1,
  fullyParallel: false,
  forbidOnly: true,
  retries: 0,
  // Bounds, not expectations: a step passes as soon as it holds. CI must pass on a machine whose
  // load is many times its cores (starting the Umbra beat took over 10 s at load 20 on 2 cores).
  timeout: 120_000,
  expect: { timeout: 45_000 },
  use: {
    baseURL,
    launchOptions: { executablePath: process.env.SOLSERVER_CHROMIUM ?? "/usr/bin/chromium", args: CHROMIUM_ARGS },
    trace: "retain-on-failure",
  },
  webServer: {
    command: "bash ../scripts/e2e-server.sh",
    // Ready: the database answers and the sentence model is loaded.
    url: `${baseURL}/readyz`,
    env: {
      PORT: String(PORT),
      HOST: "127.0.0.1",
      ...(process.env.E2E_DATABASE_URL ? { E2E_DATABASE_URL: process.env.E2E_DATABASE_URL } : {}),
    },
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: "ignore",
    stderr: "pipe",
  },
});
