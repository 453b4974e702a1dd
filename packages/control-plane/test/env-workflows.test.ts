// Issue 37: the workflow settings are read once, by env.ts, and the server's webhook step and
// checkpoint notifications use exactly what it parsed: "yes" stops start-up (it used to be read
// as "allowed" by the webhook step), and notifications carry links to SOLSERVER_BASE_URL, or to
// the default base URL when it is unset (they used to go out with url null).

import { createTestDatabase } from "@solserver/db/testing";
import { describe, expect, it } from "vitest";
import { openControlPlaneFromEnv } from "../src/control-plane";
import { loadServerEnv } from "../src/env";

const SECRET = { BETTER_AUTH_SECRET: "test-secret-test-secret-test-secret-0123" };

describe("workflow settings from the environment", () => {
  it("refuses anything but 0 or 1 for SOLSERVER_WORKFLOW_WEBHOOKS_PRIVATE, naming the variable", () => {
    expect(() => loadServerEnv({ ...SECRET, SOLSERVER_WORKFLOW_WEBHOOKS_PRIVATE: "yes" })).toThrow(
      "SOLSERVER_WORKFLOW_WEBHOOKS_PRIVATE: must be 1 (allow) or 0",
    );
    expect(loadServerEnv({ ...SECRET, SOLSERVER_WORKFLOW_WEBHOOKS_PRIVATE: "1" }).workflowWebhooksPrivate).toBe(true);
    expect(loadServerEnv(SECRET).workflowWebhooksPrivate).toBe(false);
  });

  it("hands the control plane the parsed values: the base URL (its default too) and the private switch", async () => {
    const database = await createTestDatabase("env-workflows");
    try {
      const env = loadServerEnv({ ...SECRET, DATABASE_URL: database.url, PORT: "4123" });
      const opened = await openControlPlaneFromEnv(env);
      expect(opened.deps.workflows).toEqual({ baseURL: "http://localhost:4123", allowPrivateNetworks: false });
      await opened.db.$disconnect();
      const allowing = await openControlPlaneFromEnv(
        loadServerEnv({
          ...SECRET,
          DATABASE_URL: database.url,
          SOLSERVER_BASE_URL: "https://sol.example",
          SOLSERVER_WORKFLOW_WEBHOOKS_PRIVATE: "1",
        }),
      );
      expect(allowing.deps.workflows).toEqual({ baseURL: "https://sol.example", allowPrivateNetworks: true });
      await allowing.db.$disconnect();
    } finally {
      await database.cleanup();
    }
  });
});
