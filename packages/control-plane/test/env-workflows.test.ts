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
      expect(opened.deps.workflows).toEqual({
        baseURL: "http://localhost:4123",
        allowPrivateNetworks: false,
        webhookSecrets: {},
      });
      await opened.db.$disconnect();
      const allowing = await openControlPlaneFromEnv(
        loadServerEnv({
          ...SECRET,
          DATABASE_URL: database.url,
          SOLSERVER_BASE_URL: "https://sol.example",
          SOLSERVER_WORKFLOW_WEBHOOKS_PRIVATE: "1",
          SOLSERVER_WEBHOOK_SECRET_CHAT: "k1",
          SOLSERVER_WEBHOOK_SECRET_EMPTY: "",
          HOME: "/root",
        }),
      );
      // Only the set SOLSERVER_WEBHOOK_SECRET_* variables can sign: HOME is not among them.
      expect(allowing.deps.workflows).toEqual({
        baseURL: "https://sol.example",
        allowPrivateNetworks: true,
        webhookSecrets: { SOLSERVER_WEBHOOK_SECRET_CHAT: "k1" },
      });
      await allowing.db.$disconnect();
    } finally {
      await database.cleanup();
    }
  });
});

describe("OpenTelemetry settings", () => {
  it("an endpoint turns export on (the traces one wins); blank is unset; a bad URL names the variable", () => {
    expect(loadServerEnv(SECRET).telemetry).toBeNull();
    expect(loadServerEnv({ ...SECRET, OTEL_EXPORTER_OTLP_ENDPOINT: "http://otel:4318/" }).telemetry).toEqual({
      tracesUrl: "http://otel:4318/v1/traces",
      serviceName: "solserver",
    });
    expect(
      loadServerEnv({
        ...SECRET,
        OTEL_EXPORTER_OTLP_ENDPOINT: "http://otel:4318",
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://phoenix:6006/v1/traces",
        OTEL_SERVICE_NAME: "desk",
      }).telemetry,
    ).toEqual({ tracesUrl: "http://phoenix:6006/v1/traces", serviceName: "desk" });
    expect(loadServerEnv({ ...SECRET, OTEL_EXPORTER_OTLP_ENDPOINT: " ", OTEL_SERVICE_NAME: "" }).telemetry).toBeNull();
    expect(
      loadServerEnv({ ...SECRET, OTEL_EXPORTER_OTLP_ENDPOINT: "http://otel:4318", OTEL_SDK_DISABLED: "TRUE" })
        .telemetry,
    ).toBeNull();
    expect(() => loadServerEnv({ ...SECRET, OTEL_EXPORTER_OTLP_ENDPOINT: "otel:4318" })).toThrow(
      "OTEL_EXPORTER_OTLP_ENDPOINT: must be a URL such as http://localhost:4318",
    );
  });
});
